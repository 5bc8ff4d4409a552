"""The PostgreSQL backend holds its connections between statements: a statement's caller
goes on at once when the answer comes (asyncpg's pool gave a connection back through a
new task, a second turn of the event loop), a failed or cancelled statement's connection
goes back to the pool, and no more than the pool's size are ever taken."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store, StoreConflict
from bot.store.postgres import HeldConnections
from tests.databases import empty_postgres


@pytest.fixture
def pg_url(postgres_url: str) -> str:
    return empty_postgres(postgres_url)


class FakeConnection:
    def __init__(self, number: int) -> None:
        self.number = number
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed


class FakePool:
    """Counts what HeldConnections asks of asyncpg's pool."""

    def __init__(self) -> None:
        self.made = 0
        self.out: set[FakeConnection] = set()
        self.released: list[FakeConnection] = []
        self.closed = False

    async def acquire(self) -> FakeConnection:
        self.made += 1
        conn = FakeConnection(self.made)
        self.out.add(conn)
        return conn

    async def release(self, conn: FakeConnection) -> None:
        self.out.discard(conn)
        self.released.append(conn)

    async def close(self) -> None:
        assert not self.out, "every connection is given back before the pool closes"
        self.closed = True


async def test_a_clean_use_keeps_the_connection_for_the_next_caller_without_a_turn():
    pool = FakePool()
    held = HeldConnections(pool, size=2)
    async with held.using() as first:
        pass
    turns = 0

    async def count_turns() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    counter = asyncio.create_task(count_turns())
    await asyncio.sleep(0)
    before = turns
    async with held.using() as second:
        pass
    assert turns == before, "taking and keeping a held connection takes no turn of the loop"
    counter.cancel()
    assert second is first and pool.made == 1 and not pool.released
    await held.close()
    assert pool.closed and pool.released == [first]


async def test_a_failed_use_gives_the_connection_back_to_the_pool():
    pool = FakePool()
    held = HeldConnections(pool, size=1)
    with pytest.raises(RuntimeError):
        async with held.using() as broken:
            raise RuntimeError("statement failed")
    async with held.using() as fresh:
        assert fresh is not broken
    await held.close()
    assert broken in pool.released and pool.closed


async def test_a_closed_connection_is_not_kept():
    pool = FakePool()
    held = HeldConnections(pool, size=1)
    async with held.using() as conn:
        conn.closed = True
    async with held.using() as fresh:
        assert fresh is not conn
    await held.close()


async def test_callers_beyond_the_size_wait_their_turn_and_all_are_served():
    pool = FakePool()
    held = HeldConnections(pool, size=2)
    busy = 0
    most = 0
    served = []

    async def work(n: int) -> None:
        nonlocal busy, most
        async with held.using() as conn:
            busy += 1
            most = max(most, busy)
            await asyncio.sleep(0.001)
            busy -= 1
            served.append((n, conn.number))
        if n == 3:
            raise RuntimeError("one of them fails after its use")

    results = await asyncio.gather(*(work(n) for n in range(8)), return_exceptions=True)
    assert sum(isinstance(r, RuntimeError) for r in results) == 1
    assert sorted(n for n, _ in served) == list(range(8))
    assert most == 2 and pool.made == 2
    await held.close()


async def test_a_cancelled_waiter_passes_its_connection_on():
    pool = FakePool()
    held = HeldConnections(pool, size=1)
    release = asyncio.Event()

    async def hold() -> None:
        async with held.using():
            await release.wait()

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(held.using().__aenter__())
    await asyncio.sleep(0)
    waiter.cancel()
    release.set()
    await holder
    with pytest.raises(asyncio.CancelledError):
        await waiter
    async with held.using() as conn:  # the one connection is still to be had
        assert conn.number == 1
    await held.close()


async def test_postgres_store_keeps_working_after_a_failed_and_a_cancelled_statement(
        pg_url: str):
    store = await Store.open(pg_url)
    try:
        match = await store.create_match("spades", {}, 1, 1, 1, 1, {})
        await store.append_action(match, 0, 0, "bid:3", "user")
        with pytest.raises(StoreConflict):
            await store.append_action(match, 0, 0, "bid:3", "user")  # a duplicate
        slow = asyncio.create_task(store._fetchall("sleeping", "SELECT pg_sleep(5)"))
        await asyncio.sleep(0.2)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        await store.append_action(match, 1, 1, "bid:4", "user")
        assert [a.action for a in await store.actions(match)] == ["bid:3", "bid:4"]
        assert store.pool._taken <= store.pool.size
    finally:
        await store.close()
