"""Appends written together (one trip per batch) keep each caller's own outcome."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store, StoreConflict, StoreError


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "batch.db") as opened:
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


async def test_one_batch_with_a_conflict_and_a_missing_match_fails_only_those(
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
    await asyncio.sleep(0)  # queued, waiting for the writer, which has not run yet
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.append_action(match_id, 0, 1, "look", "user", 2)
    assert [a.user_id for a in await store.actions(match_id)] == [2]
