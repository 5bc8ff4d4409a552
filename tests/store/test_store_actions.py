"""bot/store action log: append order, conflicts, races, crashes, bulk loading."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Actor, MatchBundle, Store, StoreConflict, StoreError
from tests.databases import sqlite_only

PLAYS = ["bid:3", "bid:4", "bid:nil", "bid:2", "play:2C", "play:KC", "play:AC", "play:5C"]


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _match(store: Store, channel: int = 20) -> int:
    return await store.create_match("spades", {}, 7, 10, channel, 30, {})


async def _append_all(store: Store, match_id: int, actions: list[str]) -> None:
    for seq, action in enumerate(actions):
        await store.append_action(match_id, seq, seq % 4, action, "user", 100 + seq % 4)


async def test_actions_replay_in_append_order(store: Store) -> None:
    match_id = await _match(store)
    other = await _match(store)
    await store.append_action(other, 0, 1, "bid:1", "bot")
    await _append_all(store, match_id, PLAYS)
    await store.append_action(match_id, len(PLAYS), 0, "play:3C", "timer")
    log = await store.actions(match_id)
    assert [a.seq for a in log] == list(range(len(PLAYS) + 1))
    assert [a.action for a in log] == [*PLAYS, "play:3C"]
    assert [a.seat for a in log[:4]] == [0, 1, 2, 3]
    assert (log[0].actor, log[0].user_id) == ("user", 100)
    assert (log[-1].actor, log[-1].user_id) == ("timer", None)
    assert all(a.match_id == match_id for a in log)
    assert [a.created_at for a in log] == sorted(a.created_at for a in log)
    assert await store.next_seq(match_id) == len(PLAYS) + 1
    assert [a.action for a in await store.actions(other)] == ["bid:1"]


@pytest.mark.parametrize("seq", [-1, 0, 1, 3, 5])
async def test_append_with_a_wrong_seq_conflicts_and_writes_nothing(
    store: Store, seq: int,
) -> None:
    match_id = await _match(store)
    await _append_all(store, match_id, PLAYS[:2])  # the next seq is 2
    with pytest.raises(StoreConflict, match="next number is 2; nothing was written"):
        await store.append_action(match_id, seq, 0, "play:QS", "user", 100)
    assert [a.action for a in await store.actions(match_id)] == PLAYS[:2]


async def test_append_to_a_missing_match_is_an_error_not_a_conflict(store: Store) -> None:
    with pytest.raises(StoreError, match="Match 41 does not exist") as caught:
        await store.append_action(41, 0, 0, "pass", "user", 1)
    assert not isinstance(caught.value, StoreConflict)


async def test_unknown_actor_is_refused(store: Store) -> None:
    match_id = await _match(store)
    with pytest.raises(ValueError, match="actor"):
        await store.append_action(match_id, 0, 0, "pass", "ghost")  # type: ignore[arg-type]
    assert await store.actions(match_id) == []


async def test_logged_actions_cannot_be_changed(store: Store) -> None:
    match_id = await _match(store)
    await _append_all(store, match_id, PLAYS[:1])
    with pytest.raises(StoreError, match="append-only"):
        await store._write("changing the log", "UPDATE actions SET action = 'pass'")
    assert [a.action for a in await store.actions(match_id)] == PLAYS[:1]


async def _race(first: Store, second: Store, match_id: int) -> list[BaseException | None]:
    outcomes = await asyncio.gather(
        first.append_action(match_id, 0, 0, "bid:3", "user", 1),
        second.append_action(match_id, 0, 1, "bid:5", "user", 2),
        return_exceptions=True)
    return list(outcomes)


async def test_two_tasks_racing_for_one_seq_exactly_one_wins(store: Store) -> None:
    match_id = await _match(store)
    outcomes = await _race(store, store, match_id)
    assert outcomes.count(None) == 1
    assert sum(isinstance(o, StoreConflict) for o in outcomes) == 1
    log = await store.actions(match_id)
    winner = outcomes.index(None)
    assert [a.action for a in log] == [["bid:3", "bid:5"][winner]]


async def test_two_connections_racing_for_one_seq_exactly_one_wins(
    store: Store, database: str,
) -> None:
    async with await Store.open(database) as rival:
        for round_ in range(5):
            match_id = await _match(store, channel=round_)
            outcomes = await _race(store, rival, match_id)
            assert outcomes.count(None) == 1, outcomes
            assert sum(isinstance(o, StoreConflict) for o in outcomes) == 1
            assert len(await rival.actions(match_id)) == 1


async def test_close_and_reopen_keeps_every_action(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        match_id = await _match(store)
        await _append_all(store, match_id, PLAYS)
    async with await Store.open(path) as again:
        assert [a.action for a in await again.actions(match_id)] == PLAYS


_CRASHING_WRITER = """
import asyncio, os, sys
from bot.store import Store

async def main():
    store = await Store.open(sys.argv[1])
    match_id = await store.create_match("spades", {}, 7, 10, 20, 30, {})
    for seq, action in enumerate(sys.argv[2:]):
        await store.append_action(match_id, seq, seq % 4, action, "user", 1)
        print(match_id, seq, flush=True)  # acknowledged: the bot would now show it
    os._exit(0)  # die without closing: no checkpoint, WAL left behind

asyncio.run(main())
"""


async def test_a_crash_loses_no_acknowledged_action(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CRASHING_WRITER), str(path), *PLAYS],
        capture_output=True, text=True, timeout=30, check=True)
    acknowledged = [line.split() for line in done.stdout.splitlines()]
    assert len(acknowledged) == len(PLAYS)
    match_id = int(acknowledged[0][0])
    assert (tmp_path / "t.db-wal").exists()  # the crash really left the log unmerged
    async with await Store.open(path) as store:
        assert store.applied_migrations == ()
        assert [a.action for a in await store.actions(match_id)] == PLAYS
        await store.append_action(match_id, len(PLAYS), 0, "play:9C", "user", 1)


async def test_bulk_loader_returns_whole_tables(store: Store) -> None:
    ids = [await _match(store, channel=n) for n in range(4)]
    for n, match_id in enumerate(ids):
        await store.set_seat(match_id, 0, user_id=n, display_name=f"P{n}")
        await store.set_seat(match_id, 1, bot_kind="random", display_name="Bot")
        await _append_all(store, match_id, PLAYS[:n])
    loaded = await store.load_match_bundle([ids[3], ids[1], ids[0], 9999, ids[1]])
    assert sorted(loaded) == sorted([ids[0], ids[1], ids[3]])
    for n in (0, 1, 3):
        bundle = loaded[ids[n]]
        assert isinstance(bundle, MatchBundle)
        assert bundle.match == await store.get_match(ids[n])
        assert list(bundle.seats) == await store.seats(ids[n])
        assert bundle.log == tuple((a.seat, a.action) for a in await store.actions(ids[n]))
        assert [action for _, action in bundle.log] == PLAYS[:n]
    assert await store.load_match_bundle([]) == {}


async def test_bulk_loader_gives_each_seat_s_last_action_by_a_person(store: Store) -> None:
    match_id, other = await _match(store), await _match(store, channel=21)
    for seat in range(4):
        await store.set_seat(match_id, seat, user_id=seat + 1, display_name=f"P{seat}")
    actors: list[Actor] = ["user", "bot", "user", "timer", "user", "user", "timer", "bot"]
    for seq, (action, actor) in enumerate(zip(PLAYS, actors, strict=True)):
        await store.append_action(match_id, seq, seq % 4, action, actor)
    await store.append_action(other, 0, 1, "bid:1", "bot")
    [bundle] = (await store.load_match_bundle([match_id])).values()
    assert isinstance(bundle, MatchBundle)
    assert bundle.last_by_person == {0: 4, 2: 2, 1: 5}  # seat 3: a timer's and a robot's
    unfinished = await store.load_unfinished()
    assert unfinished[match_id] == bundle
    other_bundle = unfinished[other]
    assert isinstance(other_bundle, MatchBundle) and other_bundle.last_by_person == {}


async def test_load_unfinished_skips_ended_tables(store: Store) -> None:
    ids = [await _match(store, channel=n) for n in range(3)]
    await store.set_status(ids[1], "finished")
    await store.set_status(ids[2], "playing")
    await _append_all(store, ids[2], PLAYS)
    loaded = await store.load_unfinished()
    assert sorted(loaded) == [ids[0], ids[2]]
    bundle = loaded[ids[2]]
    assert isinstance(bundle, MatchBundle) and len(bundle.log) == len(PLAYS)


@sqlite_only  # it writes rows PostgreSQL's column types refuse
async def test_bulk_loader_isolates_a_corrupt_table(store: Store, tmp_path: Path) -> None:
    ids = [await _match(store, channel=n) for n in range(5)]
    for match_id in ids:
        await _append_all(store, match_id, PLAYS[:3])
    with sqlite3.connect(tmp_path / "t.db") as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE matches SET options = '{oops' WHERE id = ?", (ids[0],))
        conn.execute("DROP TRIGGER actions_append_only")
        # a gap in the log, an action that is not text, a seat that is not a number
        conn.execute("DELETE FROM actions WHERE match_id = ? AND seq = 1", (ids[2],))
        conn.execute("UPDATE actions SET action = x'00' WHERE match_id = ? AND seq = 2",
                     (ids[3],))
        conn.execute("UPDATE actions SET seat = 'N' WHERE match_id = ? AND seq = 0", (ids[4],))
    loaded = await store.load_unfinished()
    for broken in (ids[0], ids[2], ids[3], ids[4]):
        assert isinstance(loaded[broken], StoreError) and f"Match {broken}" in str(loaded[broken])
    assert "2 actions numbered up to 2" in str(loaded[ids[2]])
    assert "rows that are not a seat number and a text (1 of 3)" in str(loaded[ids[3]])
    assert isinstance(loaded[ids[1]], MatchBundle)


@sqlite_only  # counts statements with sqlite's trace callback
async def test_restoring_a_thousand_tables_takes_a_handful_of_queries(store: Store) -> None:
    conn = store.connection
    await conn.execute("BEGIN")
    await conn.executemany(
        "INSERT INTO matches (id, game, seed, guild_id, channel_id, creator_id, status,"
        " created_at) VALUES (?, 'spades', 1, 1, ?, 1, 'playing', '2026-01-01T00:00:00')",
        [(n, n) for n in range(1, 1001)])
    await conn.executemany(
        "INSERT INTO seats VALUES (?, ?, ?, NULL, 'p', NULL)",
        [(n, s, s + 1) for n in range(1, 1001) for s in range(4)])
    await conn.executemany(
        "INSERT INTO actions VALUES (?, ?, 0, 'pass', 'bot', NULL, '2026-01-01T00:00:00')",
        [(n, q) for n in range(1, 1001) for q in range(20)])
    await conn.execute("COMMIT")
    statements: list[str] = []
    await conn.set_trace_callback(statements.append)
    by_id = await store.load_match_bundle(range(1, 1001))
    queries = len(statements)
    statements.clear()
    unfinished = await store.load_unfinished()
    await conn.set_trace_callback(None)
    assert by_id == unfinished and len(by_id) == 1000
    assert all(isinstance(b, MatchBundle) and len(b.seats) == 4 and len(b.log) == 20
               for b in by_id.values())
    assert queries <= 2 + 4 * 2  # BEGIN, COMMIT and four queries per 500 ids
    assert len(statements) <= 2 + 4
