"""bot/store announcements: a rated match owes its rating post from the transaction that
stores its result until the post is sent, across a restart, per server shard."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import OwedPost, Shards, Store
from tests.store.test_store_results import PLAYERS, RESULT, _rater


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _playing(store: Store, guild_id: int = 1, thread_id: int | None = None) -> int:
    match_id = await store.create_match("spades", {}, 7, guild_id, 2, 3, {},
                                        thread_id=thread_id)
    await store.set_status(match_id, "playing")
    return match_id


async def test_a_rated_match_owes_its_post_until_it_is_sent(store: Store,
                                                            database: str) -> None:
    rated = await _playing(store, thread_id=9)
    unrated = await _playing(store)
    await store.finish_match(rated, result=RESULT, winner_side=0, players=PLAYERS,
                             raters=[_rater()])
    await store.finish_match(unrated, result=RESULT, winner_side=0, players=PLAYERS)
    async with await Store.open(database) as restarted:  # a new process, same database
        assert await restarted.owed_rating_posts() == [OwedPost(rated, "spades", 1, 9)]
        await restarted.rating_post_sent(rated)
        await restarted.rating_post_sent(rated)  # twice: no harm
        assert await restarted.owed_rating_posts() == []


async def test_a_failing_rater_still_owes_a_post_that_finds_nothing(store: Store) -> None:
    """The ratings are rolled back, not the result: the owed post is written with the
    result (posting finds no changes and clears it)."""
    match_id = await _playing(store)
    await store.finish_match(match_id, result=RESULT, winner_side=0, players=PLAYERS,
                             raters=[_rater(fail=True)])
    assert [p.match_id for p in await store.owed_rating_posts()] == [match_id]


async def test_a_match_that_does_not_finish_owes_nothing(store: Store) -> None:
    match_id = await _playing(store)
    with pytest.raises(Exception, match=r"(?i)unique"):
        await store.finish_match(match_id, result=RESULT, winner_side=0,
                                 players=[PLAYERS[0], PLAYERS[0]], raters=[_rater()])
    assert await store.owed_rating_posts() == []


async def test_each_process_sees_only_its_shards_owed_posts(store: Store) -> None:
    guilds = [(1 << 22) * shard for shard in (0, 1, 2, 3)]  # one server per shard of 4
    ids = []
    for guild in guilds:
        match_id = await _playing(store, guild_id=guild)
        await store.finish_match(match_id, result=RESULT, winner_side=0, players=PLAYERS,
                                 raters=[_rater()])
        ids.append(match_id)
    mine = await store.owed_rating_posts(Shards(4, (1, 3)))
    assert [p.match_id for p in mine] == [ids[1], ids[3]]
    assert len(await store.owed_rating_posts()) == 4
