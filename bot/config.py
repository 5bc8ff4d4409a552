"""Settings read from the environment (and `.env`, loaded by the entry point)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

# A bot token is three dot-separated base64url parts; this only catches obvious mistakes
# (a pasted client secret or application id) before Discord is asked.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


def _token_problem(token: str) -> str:
    """What is wrong with a token that fails `_TOKEN_SHAPE`, in the reader's terms."""
    parts = token.split(".")
    if len(parts) != 3:
        return (f"a bot token is three parts separated by dots, and this one has "
                f"{len(parts)} part{'s' if len(parts) != 1 else ''}")
    if not all(re.fullmatch(r"[A-Za-z0-9_\-]*", part) for part in parts):
        return ("it holds a character a bot token never has (only letters, digits, - and "
                "_ between its two dots), such as a space or a quote")
    return ("it has three parts, but one is too short (a bot token's first and last parts "
            "are 20 or more characters, the middle one 4 or more): it may be cut off, or "
            "it is the client secret, not the bot token")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and where to fix it."""


def default_processes() -> int:
    """Computer players think in one worker process per core by default."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: str = "tricktable.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    bot_delay_seconds: float = 1.0
    turn_timeout_seconds: int = 0
    # Seconds a person may keep a table waiting before a new message pings them (0: never).
    ping_after_seconds: int = 120
    # Seconds a computer player may think over one decision (search players size their
    # sampling to it and fall back to their rule-based answer when it is spent).
    think_seconds: float = 0.8
    # Worker processes computer players think in (one per core; 0: threads of the bot
    # process, whose pure-Python search then slows people's clicks down).
    think_processes: int = field(default_factory=default_processes)
    # Least seconds between two edits of one table message (Discord rate-limits edits).
    edit_interval: float = 1.0
    # Discord's per-channel budget for message sends and edits: at most 5 in this many
    # seconds (its figure; tests shorten it, as they shorten the other waits).
    channel_write_window: float = 5.0
    # A PostgreSQL URL (postgresql://...): when set, it is the database, not database_path.
    database_url: str | None = None
    # Sharding: this process serves shards `shard_ids` of `shard_count` (None: one
    # process serves the bot whole, unsharded).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # How long a shard's lease outlives its process (renewed three times as often).
    lease_seconds: float = 30.0
    # Cards as the application's own card-face emojis (made at the first start); off: text.
    card_emojis: bool = True
    # The port of the health endpoint and Prometheus metrics (None: not served).
    metrics_port: int | None = None
    # Logs as text lines ("text") or one JSON object a line ("json", for log collectors).
    log_format: str = "text"

    @property
    def database(self) -> str:
        """What Store.open is given: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path


def parse_shards(count_text: str, ids_text: str, where: str = "in .env",
                 count_name: str = "SHARD_COUNT", ids_name: str = "SHARD_IDS",
                 ) -> tuple[int | None, tuple[int, ...] | None]:
    """(shard_count, shard_ids) from their texts ('' for unset); raises ConfigError.
    A count alone means every shard of it; ids need a count."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError(f"{ids_name} {where} needs {count_name} too (the total number "
                              "of shards across every process).")
        return None, None
    count = int(_number(count_name, count_text, int, 1))
    if not ids_text:
        return count, tuple(range(count))
    try:
        ids = tuple(sorted({int(part) for part in ids_text.split(",") if part.strip()}))
    except ValueError:
        raise ConfigError(f"{ids_name}={ids_text!r} {where}: list shard numbers separated "
                          "by commas, e.g. 0,1.") from None
    if not ids or not all(0 <= shard < count for shard in ids):
        raise ConfigError(f"{ids_name}={ids_text!r} {where}: each shard must be from 0 to "
                          f"{count - 1} ({count_name} is {count}).")
    return count, ids


def _number(name: str, text: str, kind: type[int] | type[float], minimum: float) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise ConfigError(f"{name}={text!r} in .env is not a number.") from None
    if value < minimum:
        raise ConfigError(f"{name} in .env must be at least {minimum}.")
    return value


def load_settings(env: dict[str, str] | None = None) -> Settings:
    """Settings from `env` (default: the process environment); raises ConfigError."""
    source = dict(os.environ if env is None else env)
    token = source.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token "
            "there (Discord Developer Portal -> your application -> Bot -> Reset Token).")
    if not _TOKEN_SHAPE.match(token):
        raise ConfigError(f"DISCORD_TOKEN in .env does not look like a bot token: "
                          f"{_token_problem(token)}. Copy it again from the Developer "
                          "Portal's Bot page (Reset Token).")
    guild_text = source.get("DEV_GUILD_ID", "").strip()
    dev_guild = int(_number("DEV_GUILD_ID", guild_text, int, 1)) if guild_text else None
    url = source.get("DATABASE_URL", "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL in .env must be a PostgreSQL URL "
                          "(postgresql://user:password@host/database); for a SQLite file "
                          "use DATABASE_PATH.")
    shard_count, shard_ids = parse_shards(source.get("SHARD_COUNT", ""),
                                          source.get("SHARD_IDS", ""))
    level = source.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL={level!r} in .env: use DEBUG, INFO, WARNING or ERROR.")
    return Settings(
        token=token,
        database_path=source.get("DATABASE_PATH", "").strip() or "tricktable.db",
        database_url=url, shard_count=shard_count, shard_ids=shard_ids,
        lease_seconds=_number("SHARD_LEASE_SECONDS",
                              source.get("SHARD_LEASE_SECONDS", "30").strip() or "30", float, 1),
        dev_guild_id=dev_guild,
        log_level=level,
        bot_delay_seconds=_number("BOT_DELAY_SECONDS",
                                  source.get("BOT_DELAY_SECONDS", "1").strip() or "1", float, 0),
        turn_timeout_seconds=int(_number(
            "TURN_TIMEOUT_SECONDS", source.get("TURN_TIMEOUT_SECONDS", "0").strip() or "0",
            int, 0)),
        ping_after_seconds=int(_number(
            "PING_AFTER_SECONDS", source.get("PING_AFTER_SECONDS", "120").strip() or "120",
            int, 0)),
        think_seconds=_number("THINK_SECONDS",
                              source.get("THINK_SECONDS", "0.8").strip() or "0.8", float, 0.05),
        think_processes=_think_processes(source.get("THINK_PROCESSES", "")),
        card_emojis=_switch("CARD_EMOJIS", source.get("CARD_EMOJIS", "on")),
        metrics_port=_port("METRICS_PORT", source.get("METRICS_PORT", "")),
        log_format=_log_format(source.get("LOG_FORMAT", "")),
    )


def _port(name: str, text: str) -> int | None:
    """A TCP port, or None when unset (the feature is off)."""
    if not text.strip():
        return None
    port = int(_number(name, text.strip(), int, 1))
    if port > 65535:
        raise ConfigError(f"{name}={text!r} in .env: a port is at most 65535.")
    return port


def _log_format(text: str) -> str:
    value = text.strip().lower() or "text"
    if value not in ("text", "json"):
        raise ConfigError(f"LOG_FORMAT={text!r} in .env: use text or json.")
    return value


def _think_processes(text: str) -> int:
    return int(_number("THINK_PROCESSES", text.strip(), int, 0)) if text.strip() \
        else default_processes()


def _switch(name: str, text: str) -> bool:
    value = text.strip().lower() or "on"
    if value in ("on", "yes", "true", "1"):
        return True
    if value in ("off", "no", "false", "0"):
        return False
    raise ConfigError(f"{name}={text!r} in .env: use on or off.")
