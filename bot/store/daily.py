"""Daily deals: a server's settings, its days and their secrets, who played a day (and in
which match), the boards' results (read from that match's deal results) and finished
days' standings for the daily leaderboard."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import StoreBase, Tx


@dataclass(frozen=True, slots=True)
class DailySettingsRow:
    guild_id: int
    channel_id: int | None
    utc_offset: int  # minutes east of UTC


@dataclass(frozen=True, slots=True)
class DailyEntryRow:
    user_id: int
    display_name: str
    match_id: int


@dataclass(frozen=True, slots=True)
class DailyDealRow:
    """One board (deal) a person finished: the points per side and the game's detail."""

    user_id: int
    display_name: str
    deal_no: int
    points: tuple[int, ...]
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DailyDayRow:
    guild_id: int
    game: str
    day: str


@dataclass(frozen=True, slots=True)
class DailyBoardRow:
    """A person's record over finished days: days played, won, and average percentage."""

    user_id: int
    days: int
    wins: int
    average: float


class DailyMixin(StoreBase):
    async def daily_settings(self, guild_id: int) -> DailySettingsRow:
        row = await self._fetchone(
            f"reading the daily settings of server {guild_id}",
            "SELECT channel_id, utc_offset FROM daily_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return DailySettingsRow(guild_id, None, 0)
        return DailySettingsRow(guild_id, row[0], int(row[1]))

    async def set_daily_settings(self, guild_id: int, *, channel_id: int | None,
                                 utc_offset: int) -> None:
        await self._write(
            f"setting the daily settings of server {guild_id}",
            "INSERT INTO daily_settings (guild_id, channel_id, utc_offset) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " utc_offset = excluded.utc_offset", (guild_id, channel_id, utc_offset))

    async def daily_secret(self, guild_id: int, game: str, day: str, new_secret: str) -> str:
        """The day's secret: the one stored, or `new_secret` stored now if there is none."""
        async def work(tx: Tx) -> str:
            await tx.execute("INSERT INTO daily_days (guild_id, game, day, secret)"
                             " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                             (guild_id, game, day, new_secret))
            row = await tx.fetchrow("SELECT secret FROM daily_days WHERE guild_id = ? AND"
                                    " game = ? AND day = ?", (guild_id, game, day))
            assert row is not None
            return str(row[0])

        return await self._writing(f"opening the daily {game} of {day}", work)

    async def add_daily_entry(self, guild_id: int, game: str, day: str, user_id: int,
                              display_name: str, match_id: int) -> bool:
        """Enter a person for a day (False: they already have an entry; nothing changes)."""
        added = await self._write(
            f"entering user {user_id} for the daily {game} of {day}",
            "INSERT INTO daily_entries (guild_id, game, day, user_id, display_name, match_id)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (guild_id, game, day, user_id, display_name, match_id))
        return added == 1

    async def daily_entry(self, guild_id: int, game: str, day: str,
                          user_id: int) -> DailyEntryRow | None:
        row = await self._fetchone(
            f"reading the daily entry of user {user_id}",
            "SELECT user_id, display_name, match_id FROM daily_entries WHERE guild_id = ?"
            " AND game = ? AND day = ? AND user_id = ?", (guild_id, game, day, user_id))
        return None if row is None else DailyEntryRow(int(row[0]), str(row[1]), int(row[2]))

    async def daily_entries(self, guild_id: int, game: str, day: str) -> list[DailyEntryRow]:
        rows = await self._fetchall(
            f"reading the daily {game} entries of {day}",
            "SELECT user_id, display_name, match_id FROM daily_entries WHERE guild_id = ?"
            " AND game = ? AND day = ? ORDER BY user_id", (guild_id, game, day))
        return [DailyEntryRow(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def daily_deals(self, guild_id: int, game: str, day: str) -> list[DailyDealRow]:
        """Every finished board of the day, by person (from their matches' deal results)."""
        rows = await self._fetchall(
            f"reading the daily {game} results of {day}",
            "SELECT e.user_id, e.display_name, d.deal_no, d.points, d.detail"
            " FROM daily_entries e JOIN deal_results d ON d.match_id = e.match_id"
            " WHERE e.guild_id = ? AND e.game = ? AND e.day = ?"
            " ORDER BY d.deal_no, e.user_id", (guild_id, game, day))
        return [DailyDealRow(int(r[0]), str(r[1]), int(r[2]), tuple(json.loads(r[3])),
                             json.loads(r[4])) for r in rows]

    async def open_daily_days(self) -> list[DailyDayRow]:
        """Days whose standings are not final yet (the caller knows which have ended)."""
        rows = await self._fetchall(
            "listing the open daily days",
            "SELECT guild_id, game, day FROM daily_days WHERE closed = 0"
            " ORDER BY day, guild_id, game")
        return [DailyDayRow(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    async def close_daily_day(self, guild_id: int, game: str, day: str,
                              standings: Sequence[tuple[int, int, float]]) -> None:
        """Make a day's standings final: (user id, place, percent) each, in one go."""
        async def work(tx: Tx) -> None:
            await tx.executemany(
                "INSERT INTO daily_standings (guild_id, game, day, user_id, place, percent)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(guild_id, game, day, user, place, percent)
                 for user, place, percent in standings])
            await tx.execute("UPDATE daily_days SET closed = 1 WHERE guild_id = ? AND"
                             " game = ? AND day = ?", (guild_id, game, day))

        await self._writing(f"closing the daily {game} of {day}", work)

    async def daily_board(self, guild_id: int, game: str) -> list[DailyBoardRow]:
        """The daily leaderboard: days won first, then average percentage."""
        rows = await self._fetchall(
            f"reading the daily {game} leaderboard",
            "SELECT user_id, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins,"
            " AVG(percent) AS average FROM daily_standings"
            " WHERE guild_id = ? AND game = ? AND user_id > 0 GROUP BY user_id"  # 0>: forgotten
            " ORDER BY wins DESC, average DESC, user_id",
            (guild_id, game))
        return [DailyBoardRow(int(r[0]), int(r[1]), int(r[2]), float(r[3])) for r in rows]
