"""Matches and their seats: creating a table, its message, status, settings and who sits where."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .base import StoreBase, is_missing_parent, missing_match
from .codec import (
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    check_int64,
    dump_json,
    match_row,
    now_text,
    seat_row,
    time_text,
)
from .errors import StoreError
from .models import ACTIVE_STATUSES, END_STATUSES, STATUSES, MatchRow, SeatRow, Status

_ACTIVE = "status IN ('lobby', 'playing')"  # spelled as in the partial indexes, so they apply
assert ACTIVE_STATUSES == ("lobby", "playing")
assert END_STATUSES == ("finished", "abandoned", "cancelled")  # as spelled in set_status


class MatchesMixin(StoreBase):
    async def create_match(
        self, game: str, options: dict[str, Any], seed: int, guild_id: int, channel_id: int,
        creator_id: int, settings: dict[str, Any], thread_id: int | None = None,
    ) -> int:
        """Create a table in the lobby; return its id."""
        row = (game, dump_json(options, "options"), check_int64(seed, "seed"), guild_id,
               channel_id, thread_id, creator_id, dump_json(settings, "settings"), now_text())
        inserted = await self._writing(
            f"creating a {game} match",
            lambda tx: tx.fetchrow(
                "INSERT INTO matches (game, options, seed, guild_id, channel_id, thread_id,"
                " creator_id, status, settings, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id", row))
        assert inserted is not None
        match_id: int = inserted[0]
        return match_id

    async def set_message(
        self, match_id: int, message_id: int, channel_id: int | None = None,
    ) -> None:
        """Remember the table message (and its channel, when it moved)."""
        changed = await self._write(
            f"setting the message of match {match_id}",
            "UPDATE matches SET message_id = ?, channel_id = COALESCE(?, channel_id)"
            " WHERE id = ?", (message_id, channel_id, match_id))
        if not changed:
            raise missing_match(match_id)

    async def set_status(self, match_id: int, status: Status,
                         at: datetime | None = None) -> None:
        """Change the status; the first move to 'playing' stamps started_at, the first
        move to an end status stamps finished_at (use finish_match to record results),
        with `at` (default now)."""
        if status not in STATUSES:
            raise ValueError(f"Unknown match status {status!r}; expected one of {STATUSES}")
        now = time_text(at)
        changed = await self._write(
            f"setting the status of match {match_id}",
            "UPDATE matches SET status = ?,"
            " started_at = CASE WHEN ? = 'playing'"
            "   THEN COALESCE(started_at, ?) ELSE started_at END,"
            " finished_at = CASE WHEN ? IN ('finished', 'abandoned', 'cancelled')"
            "   THEN COALESCE(finished_at, ?) ELSE finished_at END"
            " WHERE id = ?", (status, status, now, status, now, match_id))
        if not changed:
            raise missing_match(match_id)

    async def set_settings(self, match_id: int, settings: dict[str, Any]) -> None:
        changed = await self._write(
            f"setting the settings of match {match_id}",
            "UPDATE matches SET settings = ? WHERE id = ?",
            (dump_json(settings, "settings"), match_id))
        if not changed:
            raise missing_match(match_id)

    async def set_seat(
        self, match_id: int, seat: int, *, user_id: int | None = None,
        bot_kind: str | None = None, display_name: str, left_user_id: int | None = None,
    ) -> None:
        """Seat a person (user_id) or a bot (bot_kind), replacing whoever sat there."""
        if (user_id is None) == (bot_kind is None):
            raise ValueError("A seat holds exactly one of a person (user_id) or a bot (bot_kind)")
        try:
            await self._write(
                f"seating {display_name!r} in seat {seat} of match {match_id}",
                f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, seat) DO UPDATE SET user_id = excluded.user_id,"
                " bot_kind = excluded.bot_kind, display_name = excluded.display_name,"
                " left_user_id = excluded.left_user_id",
                (match_id, seat, user_id, bot_kind, display_name, left_user_id))
        except StoreError as error:
            if is_missing_parent(error):
                raise missing_match(match_id) from error
            raise

    async def clear_seat(self, match_id: int, seat: int) -> None:
        """Empty a seat (a person leaving the lobby). Clearing an empty seat is harmless."""
        await self._write(
            f"clearing seat {seat} of match {match_id}",
            "DELETE FROM seats WHERE match_id = ? AND seat = ?", (match_id, seat))

    async def seats(self, match_id: int) -> list[SeatRow]:
        rows = await self._fetchall(
            f"reading the seats of match {match_id}",
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
        return [seat_row(row) for row in rows]

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._fetchone(
            f"reading match {match_id}",
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return None if row is None else match_row(row)

    async def active_match_in_channel(self, channel_id: int) -> MatchRow | None:
        """The table in the lobby or being played whose channel or thread is channel_id."""
        row = await self._fetchone(
            f"looking for a table in channel {channel_id}",
            # A UNION, not an OR, so each half uses its partial index.
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE id IN ("
            f" SELECT id FROM matches WHERE channel_id = ? AND {_ACTIVE} UNION ALL"
            f" SELECT id FROM matches WHERE thread_id = ? AND {_ACTIVE})"
            " ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id))
        return None if row is None else match_row(row)

    async def unfinished_matches(self) -> list[MatchRow]:
        """Every table in the lobby or being played, oldest first. A corrupt row raises
        StoreError; to restore tables one by one, use load_unfinished()."""
        rows = await self._fetchall(
            "listing unfinished matches",
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE {_ACTIVE} ORDER BY id")
        return [match_row(row) for row in rows]
