"""Forgetting a person (/settings forget): afterwards no row of any table holds their id
or name, their ratings are gone, and everybody else's results are unchanged; on both
databases. The scan reads the schema itself, so a table added later is covered too."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.ratings.recorder import rater_with, rebuild
from bot.store import FORMER_PLAYER, PlayerResult, StillPlaying, Store
from bot.store.ratings import RatingsReader
from tests.databases import sqlite_only

GONE = 412345678901234567  # the person who asks to be forgotten
NAME = "Zebediah Quux"
OTHER = 498765432109876543


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _finished_match(store: Store, creator: int, day: str | None = None) -> int:
    match_id = await store.create_match("spades", {}, 7, 1, 2, creator, {})
    await store.set_seat(match_id, 0, user_id=GONE, display_name=NAME)
    await store.set_seat(match_id, 1, user_id=OTHER, display_name="Other")
    await store.set_seat(match_id, 2, bot_kind="spades-basic",
                         display_name=f"Basic bot for {NAME}", left_user_id=GONE)
    await store.set_seat(match_id, 3, bot_kind="spades-basic", display_name="Basic bot")
    await store.set_status(match_id, "playing")
    await store.append_action(match_id, 0, 0, "bid:3", "user", GONE)
    await store.append_action(match_id, 1, 1, "bid:4", "user", OTHER)
    await store.record_deal(match_id, 0, [60, 40], {"bags": [0, 0]})
    await store.save_hand_token(match_id, GONE, seat=0, application_id=5, token="tok",
                                message_id=9, issued_at=datetime.now(UTC))
    if day is not None:
        await store.daily_secret(1, "spades", day, "secret")
        await store.add_daily_entry(1, "spades", day, GONE, NAME, match_id)
    players = [PlayerResult(0, 0, GONE, None, 0, 60), PlayerResult(1, 1, OTHER, None, 1, 40),
               PlayerResult(2, 0, None, "spades-basic", 0, 60),
               PlayerResult(3, 1, None, "spades-basic", 1, 40)]
    await store.finish_match(match_id, result={"totals": [60, 40]}, winner_side=0,
                             players=players, raters=[rater_with({0: {"nils": 1}})])
    return match_id


async def _rating(store: Store, database: str, user_id: int) -> tuple[float, float]:
    row = await store._fetchone("reading a rating", "SELECT mu, sigma FROM skill_ratings"
                                " WHERE player = ?", (f"u:{user_id}",))
    assert row is not None
    return float(row[0]), float(row[1])


async def _rows_holding(store: Store, database: str, needles: list[str]) -> list[str]:
    """Every (table.column = value) whose text contains one of the needles, in every
    table of the schema."""
    found: list[str] = []
    if database.startswith("postgres"):
        conn = await asyncpg.connect(database)
        try:
            columns = await conn.fetch(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = 'public'")
            for table, column in columns:
                for needle in needles:
                    hits = await conn.fetch(
                        f'SELECT "{column}"::text FROM "{table}"'
                        f' WHERE "{column}"::text LIKE $1', f"%{needle}%")
                    found += [f"{table}.{column} = {h[0]}" for h in hits]
        finally:
            await conn.close()
        return found
    conn = store.connection  # type: ignore[attr-defined]
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
        tables = [row[0] for row in await cursor.fetchall()]
    for table in tables:
        async with conn.execute(f'PRAGMA table_info("{table}")') as cursor:
            columns = [row[1] for row in await cursor.fetchall()]
        for column in columns:
            for needle in needles:
                async with conn.execute(
                        f'SELECT CAST("{column}" AS TEXT) FROM "{table}"'
                        f' WHERE CAST("{column}" AS TEXT) LIKE ?', (f"%{needle}%",)) as cursor:
                    found += [f"{table}.{column} = {h[0]}" for h in await cursor.fetchall()]
    return found


async def test_no_row_holds_a_forgotten_person_and_others_keep_their_results(store, database):
    first = await _finished_match(store, GONE, day="2030-01-01")
    second = await _finished_match(store, OTHER)
    await store.close_daily_day(1, "spades", "2030-01-01", [(GONE, 1, 75.0)])
    await store.set_pings(GONE, False)
    team = await store.create_team_match(1, 2, GONE, 4, "bridge-basic", {
        "A": [(GONE, NAME), (OTHER, "Other")], "B": [(7, "Seven")]})
    assert await store.end_team_match(team, "finished", (12, 3))
    challenge = await store.create_challenge(1, 2, "spades", 4, "spades-basic", 3,
                                             (OTHER, "Other"), (GONE, NAME), "s" * 64, 10**9, 5)
    assert await store.end_challenge(challenge, "declined", "offered")
    assert await _rows_holding(store, database, [str(GONE)]), "the scan finds the id"
    before_other = await store.get_result(second)
    other_rating = await _rating(store, database, OTHER)

    forgotten = await store.forget_person(GONE)

    assert forgotten.deleted > 0 and forgotten.rewritten > 0
    assert await _rows_holding(store, database, [str(GONE), NAME]) == []
    # The results stay: the same points, sides and ranks; the seat is a former player's.
    for match_id in (first, second):
        result = await store.get_result(match_id)
        assert result is not None
        assert [(p.seat, p.side, p.rank, p.points) for p in result.players] == \
            [(0, 0, 0, 60), (1, 1, 1, 40), (2, 0, 0, 60), (3, 1, 1, 40)]
        assert result.players[1].user_id == OTHER
        assert result.players[0].user_id is not None and result.players[0].user_id < 0
    assert (await store.seats(first))[0].display_name == FORMER_PLAYER
    assert before_other is not None and (await store.get_result(second)) is not None
    # The other person's rating is still there; the forgotten one's is not.
    assert await _rows_holding(store, database, [f"u:{OTHER}"])
    assert await store.pings_enabled(GONE), "no setting is left either"
    kept = await store.team_match(team)
    assert kept is not None and kept.members["A"][1] == (OTHER, "Other")
    assert kept.members["A"][0][1] == FORMER_PLAYER and kept.members["B"] == [(7, "Seven")]
    entries = await store.daily_entries(1, "spades", "2030-01-01")
    assert [e.display_name for e in entries] == [FORMER_PLAYER]
    declined = await store.challenge(challenge)
    assert declined is not None and declined.people[0] == OTHER and declined.people[1] < 0
    assert declined.names == ("Other", FORMER_PLAYER)
    assert await store.daily_board(1, "spades") == [], "a former player is on no board"

    # Rebuilding the ratings from the results rates the stand-in under its own key, so
    # the other person's rating is what it was, and the stand-in is on no leaderboard.
    await rebuild(store, with_figures=False)
    assert await _rating(store, database, OTHER) == other_rating
    assert await _rows_holding(store, database, [str(GONE), NAME]) == []
    board = await RatingsReader(store).board(1, "spades", 0, 10, 0)
    assert [row.user_id for row in board.rows] == [OTHER]


async def test_a_person_at_an_open_table_is_told_to_finish_it_first(store, database):
    match_id = await store.create_match("tennis", {}, 1, 1, 2, OTHER, {})
    await store.set_seat(match_id, 1, user_id=GONE, display_name=NAME)
    assert await store.open_tables_of(GONE) == [match_id]
    with pytest.raises(StillPlaying):
        await store.forget_person(GONE)
    assert (await store.seats(match_id))[0].user_id == GONE, "nothing changed"
    await store.set_status(match_id, "cancelled")
    assert await store.open_tables_of(GONE) == []
    team = await store.create_team_match(1, 2, OTHER, 4, "bridge-basic",
                                         {"A": [(GONE, NAME)], "B": []})
    with pytest.raises(StillPlaying):  # a team match still forming holds them too
        await store.forget_person(GONE)
    await store.end_team_match(team, "cancelled")
    challenge = await store.create_challenge(1, 2, "bridge", 4, "bridge-basic", 3,
                                             (GONE, NAME), (OTHER, "Other"), "s" * 64, 10**9, 5)
    with pytest.raises(StillPlaying):  # an open challenge: its other person awaits its end
        await store.forget_person(GONE)
    await store.end_challenge(challenge, "cancelled", "offered")
    await store.forget_person(GONE)
    assert await _rows_holding(store, database, [str(GONE)]) == []


async def test_the_action_log_stays_append_only_apart_from_a_forgotten_id(store):
    match_id = await store.create_match("tennis", {}, 1, 1, 2, OTHER, {})
    await store.append_action(match_id, 0, 0, "play:AS", "user", OTHER)
    with pytest.raises(Exception, match="append-only"):
        await store._write("changing history", "UPDATE actions SET action = 'x'")


def _build_without_secure_delete(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new SQLite connection starts with secure_delete off, as on a SQLite built
    without SQLITE_SECURE_DELETE (Python's own builds, most distributions): what the store
    does not ask for explicitly, it does not get."""
    connect = sqlite3.connect

    def plain(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")
        return conn

    monkeypatch.setattr(sqlite3, "connect", plain)


def _traces(path: Path) -> list[str]:
    """Where the forgotten person's id or name is still on disk: in the database file or
    its WAL, live rows, free pages and the free space inside pages alike."""
    needles = {"id as text": str(GONE).encode(), "name": NAME.encode(),
               "id as an integer": GONE.to_bytes(8, "big")}
    found = []
    for file in (path, Path(f"{path}-wal")):
        data = file.read_bytes() if file.exists() else b""
        found += [f"{what} in {file.name}" for what, needle in needles.items()
                  if needle in data]
    return found


@sqlite_only
async def test_a_forgotten_person_leaves_no_bytes_in_the_sqlite_files(database, monkeypatch):
    _build_without_secure_delete(monkeypatch)
    path = Path(database)
    async with await Store.open(database) as store:
        await _finished_match(store, GONE, day="2030-01-01")
        team = await store.create_team_match(1, 2, OTHER, 4, "bridge-basic",
                                             {"A": [(GONE, NAME)], "B": [(7, "Seven")]})
        await store.end_team_match(team, "finished", (12, 3))
        assert _traces(path), "the scan finds what is written"
        await store.forget_person(GONE)
        assert _traces(path) == [], "not even in the WAL while the bot runs"
    assert _traces(path) == []
