"""bot/store hand tokens: kept with their issue time, read back for open tables only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import HandTokenRow, Store, StoreError


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _match(store: Store) -> int:
    return await store.create_match("spades", {}, 7, 1, 2, 3, {})


async def test_a_token_is_kept_replaced_and_read_back(store: Store) -> None:
    match_id = await _match(store)
    issued = datetime.now(UTC) - timedelta(minutes=3)
    await store.save_hand_token(match_id, 42, seat=1, application_id=9, token="old",
                                message_id=None, issued_at=issued - timedelta(minutes=1))
    await store.save_hand_token(match_id, 42, seat=2, application_id=9, token="new",
                                message_id=77, issued_at=issued)
    rows = await store.hand_tokens(datetime.now(UTC) - timedelta(minutes=15))
    assert rows == [HandTokenRow(match_id, 42, 2, 9, "new", 77,
                                 issued.replace(microsecond=issued.microsecond // 1000 * 1000))]


async def test_old_tokens_and_closed_tables_are_left_out_and_pruned(store: Store) -> None:
    fresh, closed = await _match(store), await _match(store)
    now = datetime.now(UTC)
    await store.save_hand_token(fresh, 1, seat=0, application_id=9, token="a",
                                message_id=None, issued_at=now - timedelta(minutes=20))
    await store.save_hand_token(fresh, 2, seat=1, application_id=9, token="b",
                                message_id=None, issued_at=now - timedelta(minutes=2))
    await store.save_hand_token(closed, 1, seat=0, application_id=9, token="c",
                                message_id=None, issued_at=now)
    await store.set_status(closed, "abandoned")
    since = now - timedelta(minutes=15)
    assert [(r.match_id, r.token) for r in await store.hand_tokens(since)] == [(fresh, "b")]
    assert await store.prune_hand_tokens(since) == 2
    await store.forget_hand_tokens(fresh, 2)
    assert await store.hand_tokens(now - timedelta(days=1)) == []


async def test_a_token_for_a_missing_match_or_a_naive_time_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        await store.save_hand_token(999, 1, seat=0, application_id=9, token="x",
                                    message_id=None, issued_at=datetime.now(UTC))
    with pytest.raises(ValueError, match="timezone"):
        await store.hand_tokens(datetime.now())
