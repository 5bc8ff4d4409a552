"""People's own settings (whether a long wait on their turn pings them) and the turn pings
posted, so that each is deleted once its seat has moved on, even after a restart."""

from __future__ import annotations

from dataclasses import dataclass

from .base import StoreBase, is_missing_parent, missing_match
from .errors import StoreError


@dataclass(frozen=True, slots=True)
class PingRow:
    """A ping message that mentions a person on turn at a table."""

    match_id: int
    user_id: int
    seat: int
    decision: int  # the seat's decision number it was posted for
    channel_id: int
    message_id: int


_PING_COLUMNS = "match_id, user_id, seat, decision, channel_id, message_id"


class PingsMixin(StoreBase):
    async def pings_enabled(self, user_id: int) -> bool:
        """Whether the person wants turn pings (yes unless they said no)."""
        row = await self._fetchone(f"reading the settings of user {user_id}",
                                   "SELECT pings FROM user_settings WHERE user_id = ?",
                                   (user_id,))
        return row is None or bool(row[0])

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self._write(
            f"saving the settings of user {user_id}",
            "INSERT INTO user_settings (user_id, pings) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings",
            (user_id, int(enabled)))

    async def save_ping(self, ping: PingRow) -> None:
        """Remember a posted ping (replacing the person's earlier one at that table)."""
        try:
            await self._write(
                f"keeping a ping of match {ping.match_id}",
                f"INSERT INTO turn_pings ({_PING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, user_id) DO UPDATE SET seat = excluded.seat,"
                " decision = excluded.decision, channel_id = excluded.channel_id,"
                " message_id = excluded.message_id",
                (ping.match_id, ping.user_id, ping.seat, ping.decision, ping.channel_id,
                 ping.message_id))
        except StoreError as error:
            if is_missing_parent(error):
                raise missing_match(ping.match_id) from error
            raise

    async def forget_ping(self, match_id: int, user_id: int) -> None:
        await self._write(f"forgetting a ping of match {match_id}",
                          "DELETE FROM turn_pings WHERE match_id = ? AND user_id = ?",
                          (match_id, user_id))

    async def pings(self) -> list[PingRow]:
        """Every ping still remembered (a restart deletes those whose seat moved on)."""
        rows = await self._fetchall(
            "reading the turn pings",
            f"SELECT {_PING_COLUMNS} FROM turn_pings ORDER BY match_id, user_id")
        return [PingRow(*(int(cell) for cell in row)) for row in rows]
