"""Daily deals: every member of a server plays the same deals of the day, alone (South)
with computer players in the other seats, once; results are compared across the field.

A day is a date in the server's time (`utc_offset` minutes east of UTC; midnight starts
the next). Its deals come from a stored secret as fair deals do (bot/games/fairness.py),
with the client seed `daily:<server>:<game>:<day>`, so everyone gets the same cards and
deal k is board k. Bridge plays 4 boards scored duplicate (dealer and vulnerability by
board number) and compared by matchpoints (or cross-IMPs); Spades plays 4 deals compared
by the person's side's points. A board's results are shown to a person only once they
have finished that board.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from bot.games import GAMES, game_class
from bot.games.bridge_scoring import imps
from bot.games.fairness import FairDeals
from bot.games.field import cross_imps, percentages
from bot.store import Store

from .model import Person, Table, TableError, TableSettings
from .service import TableService
from .solo import open_solo

# The games with daily deals, and the options of their matches: each engine's DAILY.
DAILY_GAMES: Final[dict[str, Mapping[str, object]]] = {
    name: daily.options for name in GAMES if (daily := game_class(name).DAILY) is not None}
DEALS_PER_DAY: Final = 4
PERSON_SEAT: Final = 2  # South
Scoring = Literal["matchpoints", "imps"]


def day_of(now: datetime, utc_offset: int) -> str:
    """The server's date at `now` (aware), as YYYY-MM-DD."""
    return (now.astimezone(UTC) + timedelta(minutes=utc_offset)).date().isoformat()


def client_seed(guild_id: int, game: str, day: str) -> str:
    return f"daily:{guild_id}:{game}:{day}"


@dataclass(frozen=True, slots=True)
class BoardResult:
    user_id: int
    name: str
    score: int  # the person's side's points (bridge: North-South's duplicate score)
    note: str  # the contract and its outcome (Spades: the bids and tricks)
    percent: float  # matchpoints against the field, as a percentage
    imps: float  # cross-IMPs against the field


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    name: str
    boards: int  # boards finished
    percent: float  # average matchpoint percentage over them
    imps: float  # total cross-IMPs


@dataclass(frozen=True, slots=True)
class DayResults:
    game: str
    day: str
    standings: tuple[Standing, ...]
    boards: dict[int, tuple[BoardResult, ...]]  # board -> results, best first
    hands: dict[int, dict[str, list[str]]]  # board -> the hands as dealt (seat -> cards)


class DailyDeals:
    """Starting a person's daily game, and reading and closing a day's results."""

    def __init__(self, service: TableService, store: Store,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.service = service
        self.store = store
        self.clock = clock
        self._entering: dict[tuple[int, int], asyncio.Lock] = {}

    async def today(self, guild_id: int) -> str:
        settings = await self.store.daily_settings(guild_id)
        return day_of(self.clock(), settings.utc_offset)

    async def begin(self, game: str, guild_id: int, channel_id: int, person: Person) -> Table:
        """Today's deals for this person in `channel_id` (their private thread): South, with
        computer players in the other seats, started at once. Refused if already played."""
        if game not in DAILY_GAMES:
            raise TableError(f"Daily deals are for {' and '.join(DAILY_GAMES)}.")
        lock = self._entering.setdefault((guild_id, person.user_id), asyncio.Lock())
        async with lock:
            day = await self.today(guild_id)
            if await self.store.daily_entry(guild_id, game, day, person.user_id) is not None:
                raise TableError(f"You have played today's {game} deals ({day}) already; "
                                 "/daily results shows how the field did.")
            secret = await self.store.daily_secret(guild_id, game, day,
                                                   FairDeals.new_secret())
            settings = TableSettings(deal_secret=secret,
                                     client_seed=client_seed(guild_id, game, day))
            async def enter(table: Table) -> bool:
                return await self.store.add_daily_entry(guild_id, game, day, person.user_id,
                                                        person.name, table.id)

            return await open_solo(self.service, game, DAILY_GAMES[game], guild_id=guild_id,
                                   channel_id=channel_id, person=person, seat=PERSON_SEAT,
                                   settings=settings, enter=enter,
                                   refused="You have played today's deals already.")

    async def results(self, guild_id: int, game: str, day: str) -> DayResults:
        """The whole field's results of a day (callers hide what a viewer may not see)."""
        rows = await self.store.daily_deals(guild_id, game, day)
        by_board: dict[int, list[tuple[int, str, int, str]]] = {}
        hands: dict[int, dict[str, list[str]]] = {}
        for row in rows:
            if not 1 <= row.deal_no <= DEALS_PER_DAY:
                continue
            lines = row.detail.get("lines") or [{}]
            note = str(lines[0].get("note", ""))
            # The person sits South. Bridge: North-South's duplicate score (one side
            # scores a board); Spades: North-South's points in the deal.
            score = row.points[0] - row.points[1] if game == "bridge" else row.points[0]
            by_board.setdefault(row.deal_no, []).append((row.user_id, row.display_name,
                                                         score, note))
            if isinstance(row.detail.get("hands"), dict):
                hands.setdefault(row.deal_no, row.detail["hands"])
        boards: dict[int, tuple[BoardResult, ...]] = {}
        totals: dict[int, list[float]] = {}
        names: dict[int, str] = {}
        for board, entries in sorted(by_board.items()):
            scores = [score for _, _, score, _ in entries]
            pcts = percentages(scores)
            ximps = cross_imps(scores, imps)
            results = [BoardResult(user, name, score, note, pct, xi) for
                       (user, name, score, note), pct, xi in zip(entries, pcts, ximps,
                                                                strict=True)]
            results.sort(key=lambda r: (-r.score, r.name))
            boards[board] = tuple(results)
            for result in results:
                names[result.user_id] = result.name
                totals.setdefault(result.user_id, []).extend((result.percent, result.imps))
        standings = []
        for user, figures in totals.items():
            pcts, ximps = figures[0::2], figures[1::2]
            standings.append(Standing(user, names[user], len(pcts), sum(pcts) / len(pcts),
                                      sum(ximps)))
        standings.sort(key=lambda s: (-s.percent, -s.boards, s.name))
        return DayResults(game, day, tuple(standings), boards, hands)

    async def seen_by(self, guild_id: int, game: str, day: str, user_id: int) -> DayResults:
        """The day's results as this person may see them: the standings, and only the
        boards they have finished themselves (results and hands)."""
        results = await self.results(guild_id, game, day)
        mine = await self.played(guild_id, game, day, user_id)
        return DayResults(game, day, results.standings,
                          {b: r for b, r in results.boards.items() if b in mine},
                          {b: h for b, h in results.hands.items() if b in mine})

    async def played(self, guild_id: int, game: str, day: str, user_id: int) -> set[int]:
        """The boards this person has finished today (the ones whose results they may see)."""
        entry = await self.store.daily_entry(guild_id, game, day, user_id)
        if entry is None:
            return set()
        return {deal.deal_no for deal in await self.store.deals(entry.match_id)}

    async def ended_days(self) -> list[tuple[int, str, str]]:
        """Open days that are over in their server's time: (guild, game, day)."""
        out = []
        offsets: dict[int, int] = {}
        for row in await self.store.open_daily_days():
            if row.guild_id not in offsets:
                offsets[row.guild_id] = (await self.store.daily_settings(row.guild_id)
                                         ).utc_offset
            if row.day < day_of(self.clock(), offsets[row.guild_id]):
                out.append((row.guild_id, row.game, row.day))
        return out

    async def close(self, guild_id: int, game: str, day: str,
                    scoring: Scoring = "matchpoints") -> DayResults:
        """Make an ended day's standings final (the daily leaderboard counts them)."""
        results = await self.results(guild_id, game, day)
        ordered = ranked(results.standings, scoring)
        await self.store.close_daily_day(guild_id, game, day, [
            (s.user_id, place, s.percent) for place, s in ordered])
        return results


def ranked(standings: tuple[Standing, ...], scoring: Scoring = "matchpoints"
           ) -> list[tuple[int, Standing]]:
    """Places (1 = best; equal figures share a place), by percentage or by IMPs."""
    def key(s: Standing) -> float:
        return s.imps if scoring == "imps" else s.percent

    ordered = sorted(standings, key=lambda s: (-key(s), s.name))
    out: list[tuple[int, Standing]] = []
    for i, standing in enumerate(ordered):
        place = out[-1][0] if out and key(out[-1][1]) == key(standing) else i + 1
        out.append((place, standing))
    return out
