"""Private hands' interaction tokens: an ephemeral hand message can be edited only through
the interaction that showed it, for 15 minutes. Storing the token (with its issue time)
lets a restarted bot keep editing the hands people still have open."""

from __future__ import annotations

from datetime import datetime

from .base import StoreBase, is_missing_parent, missing_match
from .codec import load_time, time_text
from .errors import StoreError
from .models import HandTokenRow

_COLUMNS = "match_id, user_id, seat, application_id, token, message_id, issued_at"


class HandTokensMixin(StoreBase):
    async def save_hand_token(
        self, match_id: int, user_id: int, *, seat: int, application_id: int, token: str,
        message_id: int | None, issued_at: datetime,
    ) -> None:
        """Remember the interaction that now shows this person's hand (replacing theirs)."""
        try:
            await self._write(
                f"keeping the hand token of user {user_id} at match {match_id}",
                f"INSERT INTO hand_tokens ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, user_id) DO UPDATE SET seat = excluded.seat,"
                " application_id = excluded.application_id, token = excluded.token,"
                " message_id = excluded.message_id, issued_at = excluded.issued_at",
                (match_id, user_id, seat, application_id, token, message_id,
                 time_text(issued_at)))
        except StoreError as error:
            if is_missing_parent(error):
                raise missing_match(match_id) from error
            raise

    async def hand_tokens(self, issued_after: datetime) -> list[HandTokenRow]:
        """The tokens issued after a moment, of tables still in the lobby or being played."""
        rows = await self._fetchall(
            "reading the hand tokens",
            f"SELECT {', '.join('h.' + c for c in _COLUMNS.split(', '))}"
            " FROM hand_tokens h JOIN matches m ON m.id = h.match_id"
            " WHERE h.issued_at > ? AND m.status IN ('lobby', 'playing')"
            " ORDER BY h.match_id, h.user_id", (time_text(issued_after),))
        return [HandTokenRow(match_id, user_id, seat, application_id, token, message_id,
                             load_time(issued, match_id, "hand token time"))
                for match_id, user_id, seat, application_id, token, message_id, issued
                in rows]

    async def forget_hand_tokens(self, match_id: int, user_id: int | None = None) -> None:
        """Drop a table's tokens (all, or one person's): the table closed, or the hand is
        gone."""
        if user_id is None:
            await self._write(f"forgetting the hand tokens of match {match_id}",
                              "DELETE FROM hand_tokens WHERE match_id = ?", (match_id,))
        else:
            await self._write(f"forgetting a hand token of match {match_id}",
                              "DELETE FROM hand_tokens WHERE match_id = ? AND user_id = ?",
                              (match_id, user_id))

    async def prune_hand_tokens(self, issued_before: datetime) -> int:
        """Drop every token too old to edit with (and those of closed tables); how many."""
        return await self._write(
            "pruning old hand tokens",
            "DELETE FROM hand_tokens WHERE issued_at < ? OR match_id IN"
            " (SELECT id FROM matches WHERE status NOT IN ('lobby', 'playing'))",
            (time_text(issued_before),))
