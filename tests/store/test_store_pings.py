"""People's ping setting, the turn pings kept for deletion, and the moment a table's
current wait began (the last action's stored time), on both databases."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import PingRow, Store


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


async def _match(store: Store) -> int:
    return await store.create_match("tennis", {}, 1, 10, 20, 30, {})


async def test_pings_are_on_until_a_person_turns_them_off(store):
    assert await store.pings_enabled(7)
    await store.set_pings(7, False)
    assert not await store.pings_enabled(7)
    assert await store.pings_enabled(8), "one person's setting is theirs alone"
    await store.set_pings(7, True)
    assert await store.pings_enabled(7)


async def test_a_ping_is_kept_replaced_and_forgotten(store):
    match_id = await _match(store)
    first = PingRow(match_id, 7, 0, 3, 20, 1001)
    await store.save_ping(first)
    assert await store.pings() == [first]
    later = PingRow(match_id, 7, 0, 5, 20, 1002)
    await store.save_ping(later)
    assert await store.pings() == [later], "one ping per person and table"
    await store.forget_ping(match_id, 7)
    assert await store.pings() == []


async def test_a_ping_for_a_missing_match_is_refused(store):
    with pytest.raises(Exception, match="does not exist"):
        await store.save_ping(PingRow(424242, 7, 0, 0, 20, 1))


async def test_restart_loads_when_the_last_action_was_made(store):
    match_id = await _match(store)
    started = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    await store.set_status(match_id, "playing", at=started)
    loaded = (await store.load_unfinished())[match_id]
    assert not isinstance(loaded, Exception)
    assert loaded.last_action_at is None and loaded.match.started_at == started
    moved = started + timedelta(days=2, seconds=1.5)
    await store.append_action(match_id, 0, 0, "pass", "user", 7, at=moved)
    loaded = (await store.load_unfinished())[match_id]
    assert not isinstance(loaded, Exception)
    assert loaded.last_action_at == moved
    assert (await store.actions(match_id))[0].created_at == moved
