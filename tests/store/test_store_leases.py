"""Shard leases on both databases: one holder per shard, renewed while alive, taken over
after expiry, all-or-none when a process asks for several."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import ShardTaken, Store


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def test_shard_lease_is_refused_to_a_second_holder_naming_the_first(store: Store) -> None:
    await store.take_shards(4, [0, 1], "host-a:100", 30)
    with pytest.raises(ShardTaken) as caught:
        await store.take_shards(4, [1, 2], "host-b:200", 30)
    text = str(caught.value)
    assert "Shard 1 of 4" in text and "host-a:100" in text and "\n" not in text
    # All or none: shard 2 was not taken by the refused process.
    await store.take_shards(4, [2, 3], "host-c:300", 30)
    await store.take_shards(4, [0, 1], "host-a:100", 30)  # the holder may take them again


async def test_shard_lease_expires_and_is_taken_over(store: Store) -> None:
    await store.take_shards(2, [0], "old", 0.05)
    await asyncio.sleep(0.1)
    await store.take_shards(2, [0], "new", 30)
    assert await store.renew_shards(2, [0], "old", 30) == [0]  # the old one lost it
    assert await store.renew_shards(2, [0], "new", 30) == []


async def test_shard_lease_renewed_in_time_is_kept_and_released_on_stop(store: Store) -> None:
    await store.take_shards(2, [1], "alive", 0.05)
    for _ in range(3):
        assert await store.renew_shards(2, [1], "alive", 30) == []
    with pytest.raises(ShardTaken):
        await store.take_shards(2, [1], "other", 30)
    await store.release_shards(2, [1], "alive")
    await store.take_shards(2, [1], "other", 30)
