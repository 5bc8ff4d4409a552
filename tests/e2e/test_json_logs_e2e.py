"""LOG_FORMAT=json: one JSON object a line, with the table and the interaction an event
belongs to as fields (through the Discord double); text lines stay as they were."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.config import ConfigError, load_settings
from bot.ops.logs import JsonFormatter, configure_logging, tag_interactions
from bot.router import Subject
from tests.e2e.harness import running

TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


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
    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    try:
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
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)
        root.setLevel(level)


def test_metrics_port_is_off_unless_set():
    assert load_settings({"DISCORD_TOKEN": TOKEN}).metrics_port is None
    assert load_settings({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": "9108"}).metrics_port == 9108
    for bad in ("0", "70000", "nine"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            load_settings({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": bad})
