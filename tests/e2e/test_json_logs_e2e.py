"""LOG_FORMAT=json: one JSON object a line, with the table and the interaction an event
belongs to as fields (through the Discord double); text lines stay as they were."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.config import ConfigError, load_settings
from bot.ops.logs import JsonFormatter, TextFormatter, configure_logging, tag_interactions
from bot.router import Subject
from tests.e2e.harness import running

TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


@contextmanager
def root_logger_kept() -> Iterator[logging.Logger]:
    """The root logger, its handlers and level put back as they were afterwards (the test
    reconfigures logging with force=True)."""
    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    try:
        yield root
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)
        root.setLevel(level)


async def test_a_click_logs_its_table_and_interaction(discord_double, tmp_path):
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    loggers = [logging.getLogger(name) for name in ("bot", "cogs")]
    async with running(discord_double, tmp_path) as h:
        tag_interactions(h.bot)  # what the entry point does when LOG_FORMAT=json
        for lg in loggers:
            lg.addHandler(handler)
        try:
            table = await h.open_table(h.user(0), "tennis")

            async def broken(interaction, parsed):
                raise RuntimeError("a bug")

            router = h.bot.router
            router.unregister("rules", "chyes")
            router.register("rules", broken, Subject.TABLE)
            router.register("chyes", broken, Subject.CHALLENGE)
            click = await h.forge(h.user(0), f"tt:rules:{table.id}")
            # A challenge's button holds the challenge's number: no table's.
            other = await h.forge(h.user(0), f"tt:chyes:{table.id}")
        finally:
            for lg in loggers:
                lg.removeHandler(handler)
        h.errors.records.clear()  # the bugs were ours to make
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    failed = [e for e in events if "unexpected error" in e["message"]]
    assert len(failed) == 2, events
    event, challenge = failed
    assert event["table_id"] == table.id and event["interaction_id"] == click.id
    assert event["level"] == "ERROR" and "RuntimeError: a bug" in event["exception"]
    assert event["logger"] == "bot.router" and event["time"].endswith("+00:00")
    assert challenge["message"].startswith(f"challenge {table.id}: unexpected error")
    assert "table_id" not in challenge and challenge["interaction_id"] == other.id


def test_text_stays_the_default_and_json_is_one_object_a_line():
    assert load_settings({"DISCORD_TOKEN": TOKEN}).log_format == "text"
    assert load_settings({"DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "JSON"}).log_format == "json"
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load_settings({"DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "xml"})
    with root_logger_kept():
        for log_format in ("text", "json"):
            out = io.StringIO()
            configure_logging("INFO", log_format, stream=out, force=True)
            logging.getLogger("bot.x").info("table %s: it moved\nover two lines", 42)
            line = out.getvalue()
            if log_format == "text":
                assert " INFO bot.x: table 42: it moved" in line
            else:
                assert line.count("\n") == 1
                event = json.loads(line)
                assert event["table_id"] == 42 and "interaction_id" not in event
                assert event["message"] == "table 42: it moved\nover two lines"


def test_metrics_port_is_off_unless_set():
    assert load_settings({"DISCORD_TOKEN": TOKEN}).metrics_port is None
    assert load_settings({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": "9108"}).metrics_port == 9108
    for bad in ("0", "70000", "nine"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            load_settings({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": bad})


TOKEN_SEEN = "aW50ZXJhY3Rpb246MTMxMTc2MDMxMjM0NTY3ODkwMTpzZWNyZXQ_part-2"


def _discord_debug_records() -> list[logging.LogRecord]:
    """Records as discord.py makes them at DEBUG (discord/http.py, discord/gateway.py):
    the URL it called, with an interaction's token in its path, and a gateway event."""
    def record(name: str, msg: str, *args: object) -> logging.LogRecord:
        return logging.getLogger(name).makeRecord(
            name, logging.DEBUG, "discord/x.py", 1, msg, args, None)

    callback = f"https://discord.com/api/v10/interactions/1311760312345678901/{TOKEN_SEEN}/callback"
    webhook = f"https://discord.com/api/v10/webhooks/1234567890/{TOKEN_SEEN}/messages/@original"
    event = {"t": "INTERACTION_CREATE", "op": 0, "d": {
        "id": "1311760312345678901", "application_id": "1234567890", "type": 3,
        "token": TOKEN_SEEN, "data": {"custom_id": "tt:act:812:0:3:play:AS"}}}
    return [
        record("discord.http", "%s %s with %s has returned %s", "POST", callback,
               '{"type":7,"data":{"content":"x"}}', 204),
        record("discord.http", "%s %s has received %s", "PATCH", webhook, {"id": "5"}),
        record("discord.gateway", "For Shard ID %s: WebSocket Event: %s", 0, event),
        record("discord.webhook", "sent %s", json.dumps({"token": TOKEN_SEEN})),
    ]


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_interaction_tokens_never_reach_the_log(log_format):
    out = io.StringIO()
    with root_logger_kept():
        configure_logging("INFO", log_format, stream=out, force=True)  # DEBUG or not
        records = _discord_debug_records()
        for record in records:
            logging.getLogger(record.name).handle(record)
        try:
            raise RuntimeError(f"POST /webhooks/1234567890/{TOKEN_SEEN}/messages failed")
        except RuntimeError:
            logging.getLogger("discord.webhook").exception("failed")
    text = out.getvalue()
    assert TOKEN_SEEN not in text and TOKEN_SEEN[:20] not in text
    assert text.count("[redacted]") >= len(records) + 1
    assert "/interactions/1311760312345678901/[redacted]/callback" in text
    assert "/webhooks/1234567890/[redacted]/messages/@original" in text
    assert "INTERACTION_CREATE" in text and "tt:act:812:0:3:play:AS" in text, "the rest stays"
    if log_format == "json":
        events = [json.loads(line) for line in text.splitlines()]
        assert len(events) == len(records) + 1 and "exception" in events[-1]


async def test_discord_pys_debug_lines_carry_no_token(discord_double, tmp_path):
    """The bot against the double, discord.py at DEBUG into our handler: a command and a
    click (each with its token on the gateway and in the answer's URL) leave no token."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(TextFormatter())
    discord_log = logging.getLogger("discord")
    level = discord_log.level
    discord_log.setLevel(logging.DEBUG)
    discord_log.addHandler(handler)
    try:
        async with running(discord_double, tmp_path) as h:
            await h.start_with_bots(h.user(0), "tennis")
            await h.open_hand(h.user(0))
            await h.driver.settle()
            tokens = list(h.driver.state.by_token)
    finally:
        discord_log.removeHandler(handler)
        discord_log.setLevel(level)
    text = out.getvalue()
    assert len(tokens) >= 2 and "/interactions/" in text and "INTERACTION_CREATE" in text
    assert not [token for token in tokens if token in text]
    assert "[redacted]" in text
