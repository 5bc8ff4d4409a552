"""Writes on the writer connection: each its own transaction, with its own outcome; a
busy database is waited for without blocking the event loop; the WAL stays bounded."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store, StoreConflict, StoreError
from bot.store import sqlite as store_sqlite
from tests.databases import sqlite_only


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _match(store: Store, channel: int) -> int:
    return await store.create_match("spades", {}, 7, 10, channel, 30, {})


async def test_concurrent_appends_to_many_matches_all_land_in_order(store: Store) -> None:
    ids = [await _match(store, n) for n in range(20)]
    for seq in range(5):
        await asyncio.gather(*(store.append_action(m, seq, seq % 4, f"bid:{seq + 1}", "user", 1)
                               for m in ids))
    for match_id in ids:
        assert [a.seq for a in await store.actions(match_id)] == [0, 1, 2, 3, 4]


async def test_concurrent_appends_with_a_conflict_and_a_missing_match_fail_only_those(
        store: Store) -> None:
    good, clash = await _match(store, 1), await _match(store, 2)
    await store.append_action(clash, 0, 0, "look", "user", 1)
    outcomes = await asyncio.gather(
        store.append_action(good, 0, 0, "look", "user", 1),
        store.append_action(clash, 0, 1, "look", "user", 2),  # seq 0 is taken
        store.append_action(999, 0, 0, "look", "user", 3),  # no such match
        store.append_action(clash, 5, 1, "look", "user", 2),  # out of order
        store.append_action(good, 1, 1, "look", "bot"),
        return_exceptions=True)
    assert outcomes[0] is None and outcomes[4] is None
    assert isinstance(outcomes[1], StoreConflict)
    assert isinstance(outcomes[2], StoreError) and not isinstance(outcomes[2], StoreConflict)
    assert isinstance(outcomes[3], StoreConflict) and "next number is 1" in str(outcomes[3])
    assert [(a.seq, a.actor) for a in await store.actions(good)] == [(0, "user"), (1, "bot")]
    assert [a.user_id for a in await store.actions(clash)] == [1]


async def test_a_cancelled_append_that_was_not_yet_written_is_not_written(
        store: Store) -> None:
    match_id = await _match(store, 1)
    task = asyncio.create_task(store.append_action(match_id, 0, 0, "look", "user", 1))
    task.cancel()  # before it ran
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.append_action(match_id, 0, 1, "look", "user", 2)
    assert [a.user_id for a in await store.actions(match_id)] == [2]


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None)  # another process, as it were
    other.execute("BEGIN IMMEDIATE")
    return other


@sqlite_only
async def test_a_write_waits_for_another_writer_without_blocking_the_loop(
        store: Store, tmp_path: Path) -> None:
    match_id = await _match(store, 1)
    other = _hold_write_lock(tmp_path / "t.db")
    append = asyncio.create_task(store.append_action(match_id, 0, 0, "look", "user", 1))
    ticks = 0
    started = time.monotonic()
    while time.monotonic() - started < 0.2:  # the loop keeps turning meanwhile
        await asyncio.sleep(0.01)
        ticks += 1
    assert not append.done() and ticks >= 10
    other.execute("COMMIT")
    other.close()
    await asyncio.wait_for(append, 2)
    assert [a.user_id for a in await store.actions(match_id)] == [1]


@sqlite_only
async def test_a_write_gives_up_with_a_store_error_when_the_lock_never_comes(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = await _match(store, 1)
    monkeypatch.setattr(store_sqlite, "BUSY_TIMEOUT", 0.1)
    other = _hold_write_lock(tmp_path / "t.db")
    try:
        with pytest.raises(StoreError, match=r"appending action 0 .* locked"):
            await store.append_action(match_id, 0, 0, "look", "user", 1)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await store.actions(match_id) == []
    await store.append_action(match_id, 0, 0, "look", "user", 1)  # usable again


@sqlite_only
async def test_the_wal_is_folded_back_and_restarted_as_writes_go_on(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_sqlite, "CHECKPOINT_EVERY", 50)
    wal = tmp_path / "t.db-wal"
    match_id = await _match(store, 1)
    sizes = []
    for seq in range(400):
        await store.append_action(match_id, seq, seq % 4, "look", "user", 1)
        if seq % 10 == 9:
            started = store._checkpoint  # let a checkpoint finish in the reader's thread
            if started is not None:
                await started
            sizes.append(wal.stat().st_size)
    # Without checkpoints the log would only grow; restarted, it is reused from the top.
    assert max(sizes) < 4 * min(s for s in sizes if s) and sizes[-1] <= max(sizes[:10])
    assert len(await store.actions(match_id)) == 400


@sqlite_only
async def test_a_sqlite_write_that_waits_on_something_else_is_refused_and_rolled_back(
        store: Store) -> None:
    """The writer's transaction runs in one step on the loop: work that awaits anything
    but the database would let another task's write in; it is refused, nothing written."""
    match_id = await _match(store, 1)

    async def waits(tx: Any) -> None:
        await tx.execute("UPDATE matches SET settings = '{\"x\": 1}' WHERE id = ?",
                         (match_id,))
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="must not wait"):
        await store._writing("waiting inside a write", waits)
    match = await store.get_match(match_id)
    assert match is not None and match.settings == {}
    await store.append_action(match_id, 0, 0, "look", "user", 1)  # usable again
