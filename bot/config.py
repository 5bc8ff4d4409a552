"""Settings read from the environment (and `.env`, loaded by the entry point)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from bot.tables.thinking import THINK_SECONDS

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


ENVIRONMENT = "in the environment"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where the settings were read: the names that a settings file (`file`, e.g. `.env`)
    set; every other name came from the process's environment (a variable already set
    there wins over the file's)."""

    file: str = ".env"
    from_file: frozenset[str] = frozenset()

    def of(self, name: str) -> str:
        """`in .env` or `in the environment`: where `name` was set (or would be read)."""
        return f"in {self.file}" if name in self.from_file else ENVIRONMENT


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
    think_seconds: float = THINK_SECONDS
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
    # Where DISCORD_TOKEN was set (`in .env`, `in the environment`): a token Discord
    # rejects is to be replaced there.
    token_origin: str = ENVIRONMENT

    @property
    def database(self) -> str:
        """What Store.open is given: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path


def parse_shards(count_text: str, ids_text: str, where: str = ENVIRONMENT,
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
    count = int(_number(count_name, count_text, int, 1, where))
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


def _number(name: str, text: str, kind: type[int] | type[float], minimum: float,
            where: str) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise ConfigError(f"{name}={text!r} {where} is not a number.") from None
    if value < minimum:
        raise ConfigError(f"{name} {where} must be at least {minimum}.")
    return value


def load_settings(env: dict[str, str] | None = None, origin: Origin | None = None
                  ) -> Settings:
    """Settings from `env` (default: the process environment); raises ConfigError, whose
    message names where the setting was read (`origin`: which names a `.env` file set)."""
    source = dict(os.environ if env is None else env)
    origin = origin or Origin()
    where = origin.of

    def text(name: str, default: str = "") -> str:
        return source.get(name, "").strip() or default

    def number(name: str, default: str, kind: type[int] | type[float],
               minimum: float) -> float:
        return _number(name, text(name, default), kind, minimum, where(name))

    token = text("DISCORD_TOKEN")
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token "
            "there, or set it in the environment (Discord Developer Portal -> your "
            "application -> Bot -> Reset Token).")
    if not _TOKEN_SHAPE.match(token):
        raise ConfigError(f"DISCORD_TOKEN {where('DISCORD_TOKEN')} does not look like a bot "
                          f"token: {_token_problem(token)}. Copy it again from the Developer "
                          "Portal's Bot page (Reset Token).")
    dev_guild = (int(number("DEV_GUILD_ID", "", int, 1)) if text("DEV_GUILD_ID")
                 else None)
    url = text("DATABASE_URL") or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"DATABASE_URL {where('DATABASE_URL')} must be a PostgreSQL URL "
                          "(postgresql://user:password@host/database); for a SQLite file "
                          "use DATABASE_PATH.")
    shard_count, shard_ids = parse_shards(
        text("SHARD_COUNT"), text("SHARD_IDS"),
        where("SHARD_IDS" if text("SHARD_IDS") else "SHARD_COUNT"))
    level = text("LOG_LEVEL", "INFO").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL={level!r} {where('LOG_LEVEL')}: use DEBUG, INFO, "
                          "WARNING or ERROR.")
    return Settings(
        token=token,
        database_path=text("DATABASE_PATH", "tricktable.db"),
        database_url=url, shard_count=shard_count, shard_ids=shard_ids,
        lease_seconds=number("SHARD_LEASE_SECONDS", "30", float, 1),
        dev_guild_id=dev_guild,
        log_level=level,
        bot_delay_seconds=number("BOT_DELAY_SECONDS", "1", float, 0),
        turn_timeout_seconds=int(number("TURN_TIMEOUT_SECONDS", "0", int, 0)),
        ping_after_seconds=int(number("PING_AFTER_SECONDS", "120", int, 0)),
        think_seconds=number("THINK_SECONDS", str(THINK_SECONDS), float, 0.05),
        think_processes=(int(number("THINK_PROCESSES", "", int, 0))
                         if text("THINK_PROCESSES") else default_processes()),
        card_emojis=_switch("CARD_EMOJIS", source.get("CARD_EMOJIS", "on"),
                            where("CARD_EMOJIS")),
        metrics_port=_port("METRICS_PORT", source.get("METRICS_PORT", ""),
                           where("METRICS_PORT")),
        log_format=_log_format(source.get("LOG_FORMAT", ""), where("LOG_FORMAT")),
        token_origin=where("DISCORD_TOKEN"),
    )


def _port(name: str, text: str, where: str) -> int | None:
    """A TCP port, or None when unset (the feature is off)."""
    if not text.strip():
        return None
    port = int(_number(name, text.strip(), int, 1, where))
    if port > 65535:
        raise ConfigError(f"{name}={text!r} {where}: a port is at most 65535.")
    return port


def _log_format(text: str, where: str) -> str:
    value = text.strip().lower() or "text"
    if value not in ("text", "json"):
        raise ConfigError(f"LOG_FORMAT={text!r} {where}: use text or json.")
    return value


def _switch(name: str, text: str, where: str) -> bool:
    value = text.strip().lower() or "on"
    if value in ("on", "yes", "true", "1"):
        return True
    if value in ("off", "no", "false", "0"):
        return False
    raise ConfigError(f"{name}={text!r} {where}: use on or off.")
