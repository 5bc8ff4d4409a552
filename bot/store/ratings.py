"""Ratings, rating changes and per-game figures: the writes made inside the transaction
that finishes a match, and the reads behind /leaderboard, /stats and /history.

The rating math is not here (bot/ratings does it); this module only moves rows. Every
read names the index it relies on; tests/store/test_leaderboard_plans.py checks the plans.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from .base import Row, StoreBase, Tx, placeholders
from .codec import deal_row, load_result, load_time
from .models import DealRow

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
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    seed: int = 0
    settings: dict[str, Any] = field(default_factory=dict, hash=False)  # its fair deals
    # The action log as (seat, action), given to a rebuild's rater (to count figures).
    history: tuple[tuple[int, str], ...] | None = None


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """What a Rater computed for one match: each entity's change, and figures to add
    (entity -> figure -> count)."""

    changes: Sequence[RatingChange]
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


# The rating math, given to the store by the layer that owns it (bot/ratings): from a
# finished match and the current (mu, sigma) of its entities that have one, the update.
# It runs inside the store's transaction and must not touch the database itself.
Rater = Callable[[MatchToRate, Mapping[str, tuple[float, float]]], RatingUpdate]


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


# -- inside an open write transaction (finish_match's, or a rebuild's) --------------------


async def match_to_rate(tx: Tx, match_id: int, with_history: bool = False
                        ) -> MatchToRate | None:
    row = await tx.fetchrow(
        "SELECT m.guild_id, m.game, m.status, r.finished_at, m.options, m.seed, m.settings"
        " FROM matches m"
        " JOIN match_results r ON r.match_id = m.id WHERE m.id = ?", (match_id,))
    if row is None:
        return None
    seats = tuple(RatedSeat(*r) for r in await tx.fetch(
        "SELECT seat, side, user_id, bot_kind, rank FROM match_players"
        " WHERE match_id = ? ORDER BY seat", (match_id,)))
    guild_id, game, status, finished_at, options, seed, settings = row
    history = None
    if with_history:
        history = tuple((seat, action) for seat, action in await tx.fetch(
            "SELECT seat, action FROM actions WHERE match_id = ? ORDER BY seq", (match_id,)))
    return MatchToRate(match_id, guild_id, game, status, finished_at, seats,
                       json.loads(options), seed, json.loads(settings), history)


async def current_ratings(tx: Tx, guild_id: int, game: str,
                          players: Iterable[str]) -> dict[str, tuple[float, float]]:
    wanted = sorted(set(players))
    return {player: (mu, sigma) for player, mu, sigma in await tx.fetch(
        f"SELECT player, mu, sigma FROM skill_ratings WHERE guild_id = ? AND game = ?"
        f" AND player IN ({placeholders(wanted)})", (guild_id, game, *wanted))}


async def save_changes(tx: Tx, match: MatchToRate, changes: Sequence[RatingChange]) -> None:
    """Write each entity's new rating and tally, and its change row for this match."""
    for c in changes:
        won, lost, drew = (int(c.outcome == kind) for kind in ("win", "loss", "draw"))
        # A forgotten person's stand-in (privacy.py) is rated like anyone, under its key,
        # so a rebuild gives everyone else the same ratings; without a user id it is on
        # no leaderboard.
        user_id = c.user_id if c.user_id is None or c.user_id > 0 else None
        await tx.execute(
            "INSERT INTO skill_ratings (guild_id, player, game, user_id, mu, sigma, games, wins,"
            " losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, player, game) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = skill_ratings.games + 1,"
            " wins = skill_ratings.wins + excluded.wins,"
            " losses = skill_ratings.losses + excluded.losses,"
            " draws = skill_ratings.draws + excluded.draws, updated_at = excluded.updated_at",
            (match.guild_id, c.player, match.game, user_id, c.mu_after, c.sigma_after,
             won, lost, drew, match.finished_at))
        await tx.execute(
            "INSERT INTO rating_changes (match_id, player, guild_id, game, user_id, outcome,"
            " mu_before, sigma_before, mu_after, sigma_after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match.match_id, c.player, match.guild_id, match.game, user_id, c.outcome,
             c.mu_before, c.sigma_before, c.mu_after, c.sigma_after))


async def add_figures(tx: Tx, guild_id: int, game: str,
                      figures: Mapping[str, Mapping[str, int]]) -> None:
    """Add one match's figures (entity -> figure -> count) to the stored totals."""
    rows = [(guild_id, player, game, name, int(value))
            for player, counts in sorted(figures.items())
            for name, value in sorted(counts.items())]
    await tx.executemany(
        "INSERT INTO player_figures (guild_id, player, game, figure, value)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, player, game, figure)"
        " DO UPDATE SET value = player_figures.value + excluded.value", rows)


async def rate(tx: Tx, match_id: int, rater: Rater, with_history: bool = False
               ) -> list[RatingChange]:
    """Rate one stored, finished match with `rater` and write what it computed. Matches
    that did not finish normally (abandoned) change nothing."""
    match = await match_to_rate(tx, match_id, with_history)
    if match is None or match.status != "finished" or not match.seats:
        return []
    before = await current_ratings(tx, match.guild_id, match.game,
                                   (s.player for s in match.seats))
    update = rater(match, before)
    await save_changes(tx, match, update.changes)
    if update.figures:
        await add_figures(tx, match.guild_id, match.game, update.figures)
    return list(update.changes)


async def rate_in(tx: Tx, match_id: int, rater: Rater, log: logging.Logger) -> None:
    """`rate` under a savepoint: on any error only the ratings are rolled back (logged);
    the match's result stays. `python -m bot ratings --rebuild` repairs them later."""
    await tx.execute("SAVEPOINT ratings")
    try:
        await rate(tx, match_id, rater)
    except Exception:
        await tx.execute("ROLLBACK TO SAVEPOINT ratings")
        log.exception("match %s: ratings not updated (run `python -m bot ratings --rebuild`)",
                      match_id)
    await tx.execute("RELEASE SAVEPOINT ratings")


async def rebuild(tx: Tx, rater: Rater, with_history: bool) -> int:
    """Forget every rating, change and figure, then rate every finished match again in
    the order they finished; returns how many. Any error fails the whole rebuild."""
    for table in ("skill_ratings", "rating_changes", "player_figures"):
        await tx.execute(f"DELETE FROM {table}")  # our own table names, never input
    finished = await tx.fetch(
        "SELECT r.match_id FROM match_results r JOIN matches m ON m.id = r.match_id"
        " WHERE m.status = 'finished' ORDER BY r.finished_at, r.match_id")
    for (match_id,) in finished:
        await rate(tx, match_id, rater, with_history)
    return len(finished)


# -- reads --------------------------------------------------------------------------------

_RATING_COLUMNS = "player, game, user_id, mu, sigma, games, wins, losses, draws"
BOARD_SQL = (
    f"SELECT {_RATING_COLUMNS} FROM skill_ratings"
    " WHERE guild_id = ? AND game = ? AND user_id IS NOT NULL AND games {cmp} ?"
    " ORDER BY mu - 3 * sigma DESC LIMIT ? OFFSET ?")  # index ratings_board
BOARD_COUNT_SQL = (
    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN games >= ? THEN 1 ELSE 0 END), 0)"
    " FROM {source} WHERE guild_id = ? AND game = ? AND user_id IS NOT NULL")
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
    async def snapshot(self, doing: str) -> AsyncIterator[Tx]:
        """One consistent read on the store."""
        async with self.store._reading(doing) as tx:
            yield tx

    async def _all(self, tx: Tx, sql: str, params: Sequence[Any]) -> list[Row]:
        return await tx.fetch(sql, params)

    async def board(self, guild_id: int, game: str, page: int, per_page: int,
                    min_games: int) -> BoardPage:
        """Page `page` (0-based) of people by conservative rating, the established ones
        (at least `min_games`) first."""
        start = max(0, page) * per_page
        async with self.snapshot(f"reading the {game} leaderboard") as conn:
            source = self.store.dialect.board_count_source
            counts = await self._all(conn, BOARD_COUNT_SQL.format(source=source),
                                     (min_games, guild_id, game))
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

    async def _players(self, conn: Tx, match_ids: Sequence[int]
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
    "BoardPage", "HistoryEntry", "MatchToRate", "Participant", "RatedSeat", "Rater",
    "RatingChange", "RatingRow", "RatingUpdate", "RatingsReader", "ScoreSheetData",
]
