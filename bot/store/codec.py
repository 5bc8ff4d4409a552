"""Turning Python values into cells and cells back into rows, with readable errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, cast

from .errors import StoreError
from .models import (
    ACTORS,
    STATUSES,
    ActionRow,
    Actor,
    DealRow,
    MatchRow,
    PlayerResult,
    SeatRow,
    Status,
)

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

MATCH_COLUMNS = (
    "id, game, options, seed, guild_id, channel_id, thread_id, message_id, creator_id, "
    "status, settings, created_at, started_at, finished_at")
SEAT_COLUMNS = "match_id, seat, user_id, bot_kind, display_name, left_user_id"
ACTION_COLUMNS = "match_id, seq, seat, action, actor, user_id, created_at"
DEAL_COLUMNS = "match_id, deal_no, points, detail"
PLAYER_COLUMNS = "seat, side, user_id, bot_kind, rank, points"


def now_text() -> str:
    """The current time as stored: ISO-8601 UTC with milliseconds (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def time_text(moment: datetime | None) -> str:
    """A moment as stored (now_text's form); None: now."""
    if moment is None:
        return now_text()
    if moment.tzinfo is None:
        raise ValueError("stored times must be timezone-aware")
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def dump_json(value: object, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must be JSON-serialisable: {error}") from error


def check_int64(value: int, what: str) -> int:
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"{what} must fit in a signed 64-bit integer, got {value}")
    return value


def _corrupt(match_id: object, what: str, detail: object) -> StoreError:
    return StoreError(f"Match {match_id} has a corrupt {what} in the database: {detail}")


def _load_object(cell: object, match_id: object, what: str) -> dict[str, Any]:
    try:
        value = json.loads(cast(str, cell))
    except (TypeError, ValueError) as error:
        raise _corrupt(match_id, what, f"not JSON ({error})") from error
    if not isinstance(value, dict):
        raise _corrupt(match_id, what, f"expected a JSON object, got {type(value).__name__}")
    return value


def _time(cell: object, match_id: object, what: str) -> datetime:
    try:
        moment = datetime.fromisoformat(cast(str, cell))
    except (TypeError, ValueError) as error:
        raise _corrupt(match_id, what, f"not an ISO-8601 time ({cell!r})") from error
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _optional_time(cell: object, match_id: object, what: str) -> datetime | None:
    return None if cell is None else _time(cell, match_id, what)


def match_row(row: Sequence[Any]) -> MatchRow:
    (match_id, game, options, seed, guild_id, channel_id, thread_id, message_id, creator_id,
     status, settings, created_at, started_at, finished_at) = row
    if status not in STATUSES:
        raise _corrupt(match_id, "status", repr(status))
    return MatchRow(
        id=match_id, game=game, options=_load_object(options, match_id, "options cell"),
        seed=seed, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
        message_id=message_id, creator_id=creator_id, status=cast(Status, status),
        settings=_load_object(settings, match_id, "settings cell"),
        created_at=_time(created_at, match_id, "created_at"),
        started_at=_optional_time(started_at, match_id, "started_at"),
        finished_at=_optional_time(finished_at, match_id, "finished_at"))


def seat_row(row: Sequence[Any]) -> SeatRow:
    match_id, seat, user_id, bot_kind, display_name, left_user_id = row
    if (user_id is None) == (bot_kind is None):
        raise _corrupt(match_id, f"seat {seat}", "it must hold exactly one of a person or a bot")
    return SeatRow(match_id, seat, user_id, bot_kind, display_name, left_user_id)


def action_row(row: Sequence[Any]) -> ActionRow:
    match_id, seq, seat, action, actor, user_id, created_at = row
    if actor not in ACTORS:
        raise _corrupt(match_id, f"action {seq}", f"unknown actor {actor!r}")
    return ActionRow(match_id, seq, seat, action, cast(Actor, actor), user_id,
                     _time(created_at, match_id, f"time on action {seq}"))


def deal_row(row: Sequence[Any]) -> DealRow:
    match_id, deal_no, points, detail = row
    try:
        decoded = json.loads(points)
    except (TypeError, ValueError) as error:
        raise _corrupt(match_id, f"points of deal {deal_no}", f"not JSON ({error})") from error
    if not isinstance(decoded, list) or not all(isinstance(p, int) for p in decoded):
        raise _corrupt(match_id, f"points of deal {deal_no}", "expected a list of integers")
    return DealRow(match_id, deal_no, tuple(decoded),
                   _load_object(detail, match_id, f"detail of deal {deal_no}"))


def player_result(row: Sequence[Any]) -> PlayerResult:
    seat, side, user_id, bot_kind, rank, points = row
    return PlayerResult(seat, side, user_id, bot_kind, rank, points)


def load_result(cell: object, match_id: int) -> dict[str, Any]:
    return _load_object(cell, match_id, "result cell")


def load_time(cell: object, match_id: int, what: str) -> datetime:
    return _time(cell, match_id, what)
