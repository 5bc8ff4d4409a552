"""The bot's log: text lines as always, or with LOG_FORMAT=json one JSON object a line,
for log collectors, with the table and the interaction an event belongs to as fields.

Which interaction: the gateway's INTERACTION_CREATE parser is wrapped to set a context
variable while discord.py parses it, so every task it starts (the command's, the click's
handlers) carries the interaction's id, and the table's id when a button of ours names one
(`tt:<verb>:<table id>:...`, a verb whose subject is a table in bot/router.py; a challenge's
button names a challenge). Which table, otherwise: a computer player's task is named
after its table, and the bot's own lines about a table start with "table <id>".

In both formats, interaction tokens are redacted from every line, whatever its level or
logger: at DEBUG discord.py logs the URLs it calls (`/webhooks/<application id>/<token>/`,
`/interactions/<id>/<token>/callback`) and the gateway's events (`'token': '...'`), and
each token lets whoever reads it answer as the bot for 15 minutes."""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

INTERACTION_ID: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "interaction_id", default=None)
TABLE_ID: contextvars.ContextVar[int | None] = contextvars.ContextVar("table_id", default=None)

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[redacted]"
# A token in a URL of Discord's API, and a payload's "token" field (a dict's repr or JSON).
_TOKEN_IN_URL = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"\\]+")
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*)(['"])[^'"]*\2""")
_OUR_BUTTON = re.compile(r"^tt:([a-z]+):(\d{1,19})(?::|$)")
_TABLE_TASK = re.compile(r"^table-(\d+)-")
_TABLE_LINE = re.compile(r"^table (\d+)\b")


def redact(text: str) -> str:
    """The text with every interaction token in it replaced by REDACTED."""
    if "token" not in text and "/webhooks/" not in text and "/interactions/" not in text:
        return text
    text = _TOKEN_IN_URL.sub(rf"\g<1>{REDACTED}", text)
    return _TOKEN_FIELD.sub(rf"\g<1>\g<2>{REDACTED}\g<2>", text)


class TextFormatter(logging.Formatter):
    """TEXT_FORMAT's lines, interaction tokens redacted (the traceback's too)."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def table_of(record: logging.LogRecord, message: str) -> int | None:
    """The table a log record is about, if it can tell."""
    given = getattr(record, "table_id", None)
    if isinstance(given, int):
        return given
    found = TABLE_ID.get()
    if found is not None:
        return found
    try:
        task = asyncio.current_task()
    except RuntimeError:  # not in the event loop's thread
        task = None
    named = _TABLE_TASK.match(task.get_name()) if task is not None else None
    if named:
        return int(named.group(1))
    line = _TABLE_LINE.match(message)
    return int(line.group(1)) if line else None


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and
    table_id / interaction_id when known, exception when there is one; interaction
    tokens redacted."""

    def format(self, record: logging.LogRecord) -> str:
        message = redact(record.getMessage())
        event: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "message": message}
        table = table_of(record, message)
        if table is not None:
            event["table_id"] = table
        interaction = getattr(record, "interaction_id", None) or INTERACTION_ID.get()
        if interaction is not None:
            event["interaction_id"] = interaction
        if record.exc_info:
            event["exception"] = redact(self.formatException(record.exc_info))
        elif record.stack_info:
            event["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(event, ensure_ascii=False, default=str)


def configure_logging(level: str, log_format: str = "text", stream: TextIO | None = None,
                      force: bool = False) -> logging.Handler:
    """The root logger's handler, in the chosen format (as logging.basicConfig: nothing
    changes if the root logger has handlers already, unless `force`); returns it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    logging.basicConfig(level=level, handlers=[handler], force=force)
    return handler


def tag_interactions(client: Any) -> None:
    """Wrap this client's INTERACTION_CREATE parser so that what it starts knows the
    interaction (and the table a button of ours names)."""
    parsers = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]

    def parse(data: dict[str, Any]) -> Any:
        custom_id = str((data.get("data") or {}).get("custom_id", ""))
        ours = _OUR_BUTTON.match(custom_id)
        router = getattr(client, "router", None)
        names_table = ours is not None and router is not None and \
            router.subject_of(ours.group(1)) == "table"
        interaction = INTERACTION_ID.set(int(data["id"]))
        table = TABLE_ID.set(int(ours.group(2)) if ours and names_table else None)
        try:
            return original(data)
        finally:
            TABLE_ID.reset(table)
            INTERACTION_ID.reset(interaction)

    parsers["INTERACTION_CREATE"] = parse
