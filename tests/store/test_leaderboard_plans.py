"""With 10,000 stored matches, every read behind /leaderboard, /stats and /history (and
the score sheet) is answered through an index: no full scan of a big table."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path

import pytest

from bot.store import Store
from bot.store import ratings as q
from bot.store.sqlite import SQLITE

MATCHES = 10_000
GUILDS = (1, 2, 3)
USERS = 300
GAMES = ("spades", "bridge", "single_dummy", "tennis", "bidfair")
BIG = ("matches", "match_players", "match_results", "seats", "deal_results", "skill_ratings",
       "rating_changes", "player_figures", "actions")


def _fill(path: Path) -> None:
    rng = random.Random(7)
    now = "2026-11-21T10:00:00.000+00:00"
    with sqlite3.connect(path) as conn:
        matches, seats, players, results, deals, changes = [], [], [], [], [], []
        ratings: dict[tuple[int, str, str], tuple[int | None, float, float, int]] = {}
        for match_id in range(1, MATCHES + 1):
            guild, game = rng.choice(GUILDS), rng.choice(GAMES)
            finished = f"2026-11-{1 + match_id * 20 // MATCHES:02d}T10:00:{match_id % 60:02d}"
            matches.append((match_id, game, "{}", match_id, guild, 9, None, None, 1, "finished",
                            "{}", now, now, finished))
            results.append((match_id, finished, '{"totals": [1, 0], "ranks": [0, 1]}', 0))
            for seat in range(4 if game in ("spades", "bridge") else 2):
                user = rng.randrange(1, USERS)
                side = seat % 2
                seats.append((match_id, seat, user, None, f"U{user}", None))
                players.append((match_id, seat, side, user, None, side, 1 - side))
                player = f"u:{user}"
                changes.append((match_id, player, guild, game, user, "win", 25, 8, 26, 7.9))
                old = ratings.get((guild, player, game), (user, 25.0, 8.0, 0))
                ratings[(guild, player, game)] = (user, rng.uniform(10, 40),
                                                   rng.uniform(1, 8), old[3] + 1)
            for deal_no in range(1, 4):
                deals.append((match_id, deal_no, "[10, 20]", "{}"))
        for guild in GUILDS:
            for game in GAMES:
                ratings[(guild, "b:basic", game)] = (None, 25.0, 3.0, 50)
        conn.executemany("INSERT INTO matches VALUES (" + ", ".join("?" * 14) + ")", matches)
        conn.executemany("INSERT INTO match_results VALUES (?, ?, ?, ?)", results)
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)", seats)
        conn.executemany("INSERT INTO match_players VALUES (?, ?, ?, ?, ?, ?, ?)", players)
        conn.executemany("INSERT INTO deal_results VALUES (?, ?, ?, ?)", deals)
        conn.executemany("INSERT OR IGNORE INTO rating_changes VALUES"
                         " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", changes)
        conn.executemany(
            "INSERT INTO skill_ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?)",
            [(g, p, game, u, mu, sigma, n, n // 2, now)
             for (g, p, game), (u, mu, sigma, n) in ratings.items()])
        conn.executemany(
            "INSERT INTO player_figures VALUES (?, ?, ?, ?, ?)",
            [(g, p, game, "made", 3) for (g, p, game) in ratings])


QUERIES = {  # name: (sql, parameters, the index or key its plan must name)
    "leaderboard count": (q.BOARD_COUNT_SQL.format(source=SQLITE.board_count_source),
                          (5, 1, "spades"), "ratings_board"),
    "leaderboard established": (q.BOARD_SQL.format(cmp=">="), (1, "spades", 5, 10, 20),
                                "ratings_board"),
    "leaderboard provisional": (q.BOARD_SQL.format(cmp="<"), (1, "spades", 5, 10, 0),
                                "ratings_board"),
    "leaderboard bots": (q.BOTS_SQL, (1, "spades"), "PRIMARY KEY (guild_id=? AND player>?"),
    "stats ratings": (q.PLAYER_SQL, (1, "u:5"), "PRIMARY KEY (guild_id=? AND player=?)"),
    "stats trend": (q.TREND_SQL, (1, "u:5", "spades", 5), "rating_changes_trend"),
    "stats figures": (q.FIGURES_SQL, (1, "u:5"), "PRIMARY KEY (guild_id=? AND player=?)"),
    "history page": (q.HISTORY_SQL, (5, 1, 6, 5), "match_players_user"),
    "history players": (q.PLAYERS_SQL.format(ids="?, ?, ?"), (10, 11, 12),
                        "PRIMARY KEY (match_id=?"),
    "score sheet": (q.SHEET_SQL, (10, 1), "PRIMARY KEY (rowid=?)"),
    "score sheet deals": (q.DEALS_SQL, (10,), "PRIMARY KEY (match_id=?)"),
    "match changes": (q.MATCH_CHANGES_SQL, (10,), "PRIMARY KEY (match_id=?)"),
}


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plans") / "big.db"

    async def create() -> None:
        async with await Store.open(path):
            pass

    asyncio.run(create())
    _fill(path)
    return path


def _plan(conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> list[str]:
    return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_each_read_uses_an_index(big_db: Path, name: str) -> None:
    sql, params, index = QUERIES[name]
    with sqlite3.connect(big_db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == MATCHES
        plan = _plan(conn, sql, params)
        scans = [step for step in plan if step.startswith("SCAN")
                 and step.split()[1] in BIG]
        assert not scans, f"{name}: full scan in {plan}"
        assert index in plan[0], f"{name}: expected {index} in {plan}"
        # CPU time, not wall time: the work the query does, whatever else the machine runs
        # meanwhile (the suite's other worker, say).
        started = time.process_time()
        conn.execute(sql, params).fetchall()
        assert time.process_time() - started < 0.05, f"{name} is slow"


async def test_the_reader_answers_quickly_on_the_big_database(big_db: Path) -> None:
    async with await Store.open(big_db) as store:
        reader = q.RatingsReader(store)
        started = time.process_time()  # of every thread (the reads run on aiosqlite's)
        page = await reader.board(1, "spades", 1, 10, 5)
        ratings, _changes, figures = await reader.player(1, 5, 5)
        entries, _more = await reader.history(1, 5, 0, 5)
        sheet = await reader.score_sheet(entries[0].game and 1, entries[0].match_id)
        elapsed = time.process_time() - started
    assert page.total > 10 and ratings and figures and entries and sheet is not None
    assert elapsed < 0.5
