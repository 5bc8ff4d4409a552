"""Custom ids for every button the bot sends: `tt:<verb>:<subject>:<args...>`.

The subject is the number of what the button is about, and its verb says what that is
(bot/router.py): a table for the table's buttons, a challenge for a challenge's, a team
match, a person, a page. With it (and, for actions, the seat, the seat's decision number
and the action text) a click can be resolved after a restart: nothing is kept per message.
Discord allows 100 characters; the longest we make (`tt:act:<id>:<seat>:<n>:<action>`)
stays far below that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "tt"
MAX_LENGTH = 100
_NUMBER = re.compile(r"^\d{1,19}$")
# Subjects are the store's row ids (signed 64-bit), Discord's ids or small numbers: a
# larger number is no id of ours, and the database driver would raise OverflowError on it.
MAX_SUBJECT = 2**63 - 1


class BadCustomId(ValueError):
    """A custom id we did not make (forged, or from an older version of the bot)."""


@dataclass(frozen=True, slots=True)
class ParsedId:
    verb: str
    subject: int  # the number of what the button is about (its verb says what that is)
    args: tuple[str, ...]


def make(verb: str, subject: int, *args: object) -> str:
    custom_id = ":".join([PREFIX, verb, str(subject), *(str(a) for a in args)])
    if len(custom_id) > MAX_LENGTH:
        raise ValueError(f"custom id too long: {custom_id!r}")
    return custom_id


def action_id(table_id: int, seat: int, decision: int, action: str) -> str:
    """A button that performs `action` for `seat` at its `decision`-th decision."""
    return make("act", table_id, seat, decision, action)


def parse(custom_id: str) -> ParsedId:
    parts = custom_id.split(":")
    if len(parts) < 3 or parts[0] != PREFIX or not _NUMBER.match(parts[2]) \
            or int(parts[2]) > MAX_SUBJECT:
        raise BadCustomId(custom_id)
    return ParsedId(verb=parts[1], subject=int(parts[2]), args=tuple(parts[3:]))


@dataclass(frozen=True, slots=True)
class ActionClick:
    table_id: int
    seat: int
    decision: int
    action: str


def parse_action(parsed: ParsedId) -> ActionClick:
    """The seat, decision number and action of an `act` id (the action may hold colons)."""
    if len(parsed.args) < 3 or not all(_NUMBER.match(a) for a in parsed.args[:2]):
        raise BadCustomId(":".join(parsed.args))
    seat, decision = int(parsed.args[0]), int(parsed.args[1])
    action = ":".join(parsed.args[2:])
    if not action or len(action) > 40:
        raise BadCustomId(action)
    return ActionClick(parsed.subject, seat, decision, action)
