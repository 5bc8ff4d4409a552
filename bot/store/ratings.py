"""Ratings, rating changes and per-game figures: the writes made inside the transaction
that finishes a match, and the reads behind /leaderboard, /stats and /history.

The rating math is not here (bot/ratings does it); this module only moves rows. Every
read names the index it relies on; tests/test_leaderboard_plans.py checks the plans.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiosqlite

from .base import StoreBase, placeholders
from .codec import deal_row, load_result, load_time
from .models import DealRow

T = TypeVar("T")

# -- rows -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingRow:
    """An entity's standing in one game on one server (player: 'u:<id>' or 'b:<kind>')."""

    player: str
    game: str
    user_id: int | None
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def conservative(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def bot_kind(self) -> str | None:
        return self.player[2:] if self.player.startswith("b:") else None


@dataclass(frozen=True, slots=True)
class RatingChange:
    match_id: int
    player: str
    user_id: int | None
    outcome: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def change(self) -> float:
        """The change of the conservative rating (what the leaderboard shows)."""
        return (self.mu_after - 3.0 * self.sigma_after) - (
            self.mu_before - 3.0 * self.sigma_before)


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a finished match as the rating update needs it."""

    seat: int
    side: int
    user_id: int | None
    bot_kind: str | None
    rank: int

    @property
    def player(self) -> str:
        return f"u:{self.user_id}" if self.user_id is not None else f"b:{self.bot_kind}"


@dataclass(frozen=True, slots=True)
class MatchToRate:
    match_id: int
    guild_id: int
    game: str
    status: str
    finished_at: str
    seats: tuple[RatedSeat, ...]


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One page of a leaderboard: established players first, then those with few games."""

    rows: tuple[RatingRow, ...]
    first_index: int  # 0-based position of rows[0] in the whole list
    total: int
    established: int  # how many have at least the minimum of games


@dataclass(frozen=True, slots=True)
class Participant:
    seat: int
    side: int
    user_id: int | None
    bot_kind: str | None
    name: str


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished match from one person's point of view."""

    match_id: int
    game: str
    finished_at: Any  # datetime (UTC)
    seat: int
    side: int
    rank: int
    result: dict[str, Any] = field(hash=False)
    players: tuple[Participant, ...] = ()

    @property
    def outcome(self) -> str:
        ranks = list(self.result.get("ranks") or [])
        if self.rank != 0:
            return "loss"
        return "draw" if ranks.count(0) > 1 else "win"


@dataclass(frozen=True, slots=True)
class ScoreSheetData:
    match_id: int
    game: str
    finished_at: Any
    result: dict[str, Any] = field(hash=False)
    deals: tuple[DealRow, ...] = ()
    players: tuple[Participant, ...] = ()


# -- on the writer, inside an open transaction (finish_match's, or a rebuild's) -----------


def match_to_rate(conn: sqlite3.Connection, match_id: int) -> MatchToRate | None:
    row = conn.execute(
        "SELECT m.guild_id, m.game, m.status, r.finished_at FROM matches m"
        " JOIN match_results r ON r.match_id = m.id WHERE m.id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    seats = tuple(RatedSeat(*r) for r in conn.execute(
        "SELECT seat, side, user_id, bot_kind, rank FROM match_players"
        " WHERE match_id = ? ORDER BY seat", (match_id,)))
    guild_id, game, status, finished_at = row
    return MatchToRate(match_id, guild_id, game, status, finished_at, seats)


def current_ratings(conn: sqlite3.Connection, guild_id: int, game: str,
                    players: Iterable[str]) -> dict[str, tuple[float, float]]:
    wanted = sorted(set(players))
    return {player: (mu, sigma) for player, mu, sigma in conn.execute(
        f"SELECT player, mu, sigma FROM skill_ratings WHERE guild_id = ? AND game = ?"
        f" AND player IN ({placeholders(wanted)})", (guild_id, game, *wanted))}


def save_changes(conn: sqlite3.Connection, match: MatchToRate,
                 changes: Sequence[RatingChange]) -> None:
    """Write each entity's new rating and tally, and its change row for this match."""
    for c in changes:
        won, lost, drew = (int(c.outcome == kind) for kind in ("win", "loss", "draw"))
        conn.execute(
            "INSERT INTO skill_ratings (guild_id, player, game, user_id, mu, sigma, games, wins,"
            " losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, player, game) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = games + 1, wins = wins + excluded.wins,"
            " losses = losses + excluded.losses, draws = draws + excluded.draws,"
            " updated_at = excluded.updated_at",
            (match.guild_id, c.player, match.game, c.user_id, c.mu_after, c.sigma_after,
             won, lost, drew, match.finished_at))
        conn.execute(
            "INSERT INTO rating_changes (match_id, player, guild_id, game, user_id, outcome,"
            " mu_before, sigma_before, mu_after, sigma_after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match.match_id, c.player, match.guild_id, match.game, c.user_id, c.outcome,
             c.mu_before, c.sigma_before, c.mu_after, c.sigma_after))


def add_figures(conn: sqlite3.Connection, guild_id: int, game: str,
                figures: Mapping[str, Mapping[str, int]]) -> None:
    """Add one match's figures (entity -> figure -> count) to the stored totals."""
    rows = [(guild_id, player, game, name, int(value))
            for player, counts in sorted(figures.items())
            for name, value in sorted(counts.items())]
    conn.executemany(
        "INSERT INTO player_figures (guild_id, player, game, figure, value)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, player, game, figure)"
        " DO UPDATE SET value = value + excluded.value", rows)


def clear_all(conn: sqlite3.Connection) -> None:
    """Forget every rating, change and figure (a rebuild recomputes them)."""
    for table in ("skill_ratings", "rating_changes", "player_figures"):
        conn.execute(f"DELETE FROM {table}")  # our own table names, never input


def finished_in_order(conn: sqlite3.Connection) -> list[tuple[int, str, str, int, str]]:
    """Every finished match as (id, game, options JSON, seed, settings JSON), in the order
    they finished (the settings hold its fair deals' seeds)."""
    return [(row[0], row[1], row[2], row[3], row[4]) for row in conn.execute(
        "SELECT m.id, m.game, m.options, m.seed, m.settings FROM match_results r"
        " JOIN matches m ON m.id = r.match_id WHERE m.status = 'finished'"
        " ORDER BY r.finished_at, r.match_id")]


def logged_actions(conn: sqlite3.Connection, match_id: int) -> list[tuple[int, str]]:
    return [(seat, action) for seat, action in conn.execute(
        "SELECT seat, action FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]


# -- reads --------------------------------------------------------------------------------

_RATING_COLUMNS = "player, game, user_id, mu, sigma, games, wins, losses, draws"
BOARD_SQL = (
    f"SELECT {_RATING_COLUMNS} FROM skill_ratings"
    " WHERE guild_id = ? AND game = ? AND user_id IS NOT NULL AND games {cmp} ?"
    " ORDER BY mu - 3 * sigma DESC LIMIT ? OFFSET ?")  # index ratings_board
BOARD_COUNT_SQL = (
    "SELECT COUNT(*), COALESCE(SUM(games >= ?), 0) FROM skill_ratings INDEXED BY ratings_board"
    " WHERE guild_id = ? AND game = ? AND user_id IS NOT NULL")  # else it walks the guild
BOTS_SQL = (
    f"SELECT {_RATING_COLUMNS} FROM skill_ratings"
    " WHERE guild_id = ? AND player >= 'b:' AND player < 'b;' AND game = ?"
    " ORDER BY mu - 3 * sigma DESC")  # primary key range
PLAYER_SQL = (f"SELECT {_RATING_COLUMNS} FROM skill_ratings WHERE guild_id = ? AND player = ?"
              " ORDER BY game")  # primary key prefix
TREND_SQL = (
    "SELECT match_id, player, user_id, outcome, mu_before, sigma_before, mu_after,"
    " sigma_after FROM rating_changes WHERE guild_id = ? AND player = ? AND game = ?"
    " ORDER BY match_id DESC LIMIT ?")  # index rating_changes_trend
MATCH_CHANGES_SQL = (
    "SELECT match_id, player, user_id, outcome, mu_before, sigma_before, mu_after,"
    " sigma_after FROM rating_changes WHERE match_id = ? ORDER BY player")  # primary key
FIGURES_SQL = ("SELECT game, figure, value FROM player_figures"
               " WHERE guild_id = ? AND player = ?")  # primary key prefix
HISTORY_SQL = (
    "SELECT mp.match_id, m.game, r.finished_at, mp.seat, mp.side, mp.rank, r.result"
    " FROM match_players mp JOIN matches m ON m.id = mp.match_id"
    " JOIN match_results r ON r.match_id = mp.match_id"
    " WHERE mp.user_id = ? AND m.guild_id = ? AND m.status = 'finished'"
    " ORDER BY mp.match_id DESC LIMIT ? OFFSET ?")  # index match_players_user
PLAYERS_SQL = (
    "SELECT mp.match_id, mp.seat, mp.side, mp.user_id, mp.bot_kind, s.display_name"
    " FROM match_players mp LEFT JOIN seats s ON s.match_id = mp.match_id"
    " AND s.seat = mp.seat WHERE mp.match_id IN ({ids}) ORDER BY mp.match_id, mp.seat")
SHEET_SQL = ("SELECT m.game, r.finished_at, r.result FROM matches m JOIN match_results r"
             " ON r.match_id = m.id WHERE m.id = ? AND m.guild_id = ?")
DEALS_SQL = ("SELECT match_id, deal_no, points, detail FROM deal_results"
             " WHERE match_id = ? ORDER BY deal_no")


def _rating(row: Sequence[Any]) -> RatingRow:
    return RatingRow(*row)


def _change(row: Sequence[Any]) -> RatingChange:
    return RatingChange(*row)


class RatingsReader:
    """The reads of /leaderboard, /stats and /history over one Store's connection."""

    def __init__(self, store: StoreBase) -> None:
        self.store = store

    @asynccontextmanager
    async def snapshot(self, doing: str) -> AsyncIterator[aiosqlite.Connection]:
        """One consistent read on the store's reader."""
        async with self.store._snapshot(doing) as conn:
            yield conn

    async def rewrite(self, doing: str, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run work(connection) as one write transaction (a rebuild of every rating)."""
        return await self.store._writing(doing, work)

    async def _all(self, conn: aiosqlite.Connection, sql: str,
                   params: Sequence[Any]) -> list[sqlite3.Row]:
        async with conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def board(self, guild_id: int, game: str, page: int, per_page: int,
                    min_games: int) -> BoardPage:
        """Page `page` (0-based) of people by conservative rating, the established ones
        (at least `min_games`) first."""
        start = max(0, page) * per_page
        async with self.snapshot(f"reading the {game} leaderboard") as conn:
            counts = await self._all(conn, BOARD_COUNT_SQL, (min_games, guild_id, game))
            total, established = (int(counts[0][0]), int(counts[0][1])) if counts else (0, 0)
            rows: list[RatingRow] = []
            if start < established:
                rows += map(_rating, await self._all(
                    conn, BOARD_SQL.format(cmp=">="),
                    (guild_id, game, min_games, per_page, start)))
            if len(rows) < per_page:
                rows += map(_rating, await self._all(
                    conn, BOARD_SQL.format(cmp="<"),
                    (guild_id, game, min_games, per_page - len(rows),
                     max(0, start - established))))
        return BoardPage(tuple(rows), start, total, established)

    async def bots(self, guild_id: int, game: str) -> list[RatingRow]:
        async with self.snapshot("reading computer players' ratings") as c:
            return [_rating(r) for r in await self._all(c, BOTS_SQL, (guild_id, game))]

    async def player(self, guild_id: int, user_id: int, trend: int
                     ) -> tuple[list[RatingRow], dict[str, list[RatingChange]],
                                dict[str, dict[str, int]]]:
        """A person's ratings per game, the last `trend` changes per game (newest first)
        and their figures per game."""
        player = f"u:{user_id}"
        async with self.snapshot(f"reading the stats of {user_id}") as conn:
            ratings = [_rating(r) for r in await self._all(conn, PLAYER_SQL,
                                                           (guild_id, player))]
            changes = {r.game: [_change(c) for c in await self._all(
                conn, TREND_SQL, (guild_id, player, r.game, trend))] for r in ratings}
            figures: dict[str, dict[str, int]] = {}
            for game, name, value in await self._all(conn, FIGURES_SQL, (guild_id, player)):
                figures.setdefault(game, {})[name] = value
        return ratings, changes, figures

    async def match_changes(self, match_id: int) -> list[RatingChange]:
        async with self.snapshot(f"reading rating changes of {match_id}") as conn:
            return [_change(r) for r in await self._all(conn, MATCH_CHANGES_SQL, (match_id,))]

    async def history(self, guild_id: int, user_id: int, page: int, per_page: int
                      ) -> tuple[list[HistoryEntry], bool]:
        """One page (0-based) of a person's finished matches on this server, newest first,
        and whether there are more."""
        async with self.snapshot(f"reading the history of {user_id}") as conn:
            rows = await self._all(conn, HISTORY_SQL, (user_id, guild_id, per_page + 1,
                                                       max(0, page) * per_page))
            more = len(rows) > per_page
            rows = rows[:per_page]
            players = await self._players(conn, [r[0] for r in rows])
        entries = [HistoryEntry(match_id, game, load_time(finished, match_id, "finished_at"),
                                seat, side, rank, load_result(result, match_id),
                                tuple(players.get(match_id, ())))
                   for match_id, game, finished, seat, side, rank, result in rows]
        return entries, more

    async def score_sheet(self, guild_id: int, match_id: int) -> ScoreSheetData | None:
        """A finished match of this server with its deals; None if there is none."""
        async with self.snapshot(f"reading the score sheet of {match_id}") as conn:
            found = await self._all(conn, SHEET_SQL, (match_id, guild_id))
            if not found:
                return None
            deals = [deal_row(r) for r in await self._all(conn, DEALS_SQL, (match_id,))]
            players = await self._players(conn, [match_id])
        game, finished, result = found[0]
        return ScoreSheetData(match_id, game, load_time(finished, match_id, "finished_at"),
                              load_result(result, match_id), tuple(deals),
                              tuple(players.get(match_id, ())))

    async def _players(self, conn: aiosqlite.Connection, match_ids: Sequence[int]
                       ) -> dict[int, list[Participant]]:
        if not match_ids:
            return {}
        out: dict[int, list[Participant]] = {}
        sql = PLAYERS_SQL.format(ids=placeholders(match_ids))
        for match_id, seat, side, user_id, bot_kind, name in await self._all(
                conn, sql, list(match_ids)):
            shown = name or (f"<@{user_id}>" if user_id is not None else f"Bot ({bot_kind})")
            out.setdefault(match_id, []).append(
                Participant(seat, side, user_id, bot_kind, shown))
        return out


__all__ = [
    "BoardPage", "HistoryEntry", "MatchToRate", "Participant", "RatedSeat", "RatingChange",
    "RatingRow", "RatingsReader", "ScoreSheetData",
]
