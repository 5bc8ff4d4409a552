"""bot/store results: deal scores, and finish_match writing everything or nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping

import pytest

from bot.store import (
    DealRow,
    MatchToRate,
    PlayerResult,
    Rater,
    RatingChange,
    RatingUpdate,
    Store,
    StoreConflict,
    StoreError,
)
from bot.store.ratings import RatingsReader

PLAYERS = [
    PlayerResult(seat=0, side=0, user_id=10, bot_kind=None, rank=0, points=512),
    PlayerResult(seat=1, side=1, user_id=11, bot_kind=None, rank=1, points=430),
    PlayerResult(seat=2, side=0, user_id=None, bot_kind="random", rank=0, points=512),
    PlayerResult(seat=3, side=1, user_id=13, bot_kind=None, rank=1, points=430),
]
RESULT = {"summary": "North-South win 512 to 430", "totals": [512, 430]}


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _playing(store: Store) -> int:
    match_id = await store.create_match("spades", {}, 7, 1, 2, 3, {})
    await store.set_status(match_id, "playing")
    return match_id


async def _nothing_written(store: Store, match_id: int) -> None:
    match = await store.get_match(match_id)
    assert match is not None and match.status == "playing" and match.finished_at is None
    assert await store.get_result(match_id) is None
    assert await store._fetchone("counting players", "SELECT COUNT(*) FROM match_players"
                                 " WHERE match_id = ?", (match_id,)) == (0,)
    assert await store.deals(match_id) == []


async def test_deals_are_recorded_in_order_and_rewritten_idempotently(store: Store) -> None:
    match_id = await _playing(store)
    await store.record_deal(match_id, 1, [-40, 71], {"bags": [0, 1]})
    await store.record_deal(match_id, 0, [62, 40], {"bags": [2, 0]})
    await store.record_deal(match_id, 1, [-40, 71], {"bags": [0, 1]})  # replayed
    deals = await store.deals(match_id)
    assert deals == [DealRow(match_id, 0, (62, 40), {"bags": [2, 0]}),
                     DealRow(match_id, 1, (-40, 71), {"bags": [0, 1]})]
    await store.record_deal(match_id, 1, [-50, 71], {"bags": [0, 1], "set": True})
    assert (await store.deals(match_id))[1].points == (-50, 71)


async def test_a_deal_for_a_missing_match_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="Match 404 does not exist"):
        await store.record_deal(404, 0, [1, 2], {})


async def test_finish_match_writes_status_result_and_players(store: Store) -> None:
    match_id = await _playing(store)
    await store.finish_match(match_id, result=RESULT, winner_side=0, players=PLAYERS)
    match = await store.get_match(match_id)
    assert match is not None and match.status == "finished" and not match.is_active
    outcome = await store.get_result(match_id)
    assert outcome is not None
    assert (outcome.result, outcome.winner_side) == (RESULT, 0)
    assert outcome.finished_at == match.finished_at
    assert outcome.players == tuple(PLAYERS)
    assert await store.active_match_in_channel(2) is None


async def test_an_abandoned_match_can_record_a_draw(store: Store) -> None:
    match_id = await _playing(store)
    await store.finish_match(match_id, status="abandoned", result={}, winner_side=None,
                             players=[])
    outcome = await store.get_result(match_id)
    assert outcome is not None and outcome.winner_side is None and outcome.players == ()
    match = await store.get_match(match_id)
    assert match is not None and match.status == "abandoned"


def _rater(outcome: str = "win", fail: bool = False) -> Rater:
    def rate(match: MatchToRate, stored: Mapping[str, tuple[float, float]]) -> RatingUpdate:
        if fail:
            raise RuntimeError("ratings exploded")
        seat = match.seats[0]
        assert (seat.player, stored) == ("u:10", {})  # no rating stored yet
        return RatingUpdate([RatingChange(match.match_id, seat.player, seat.user_id, outcome,
                                          25.0, 8.0, 27.0, 7.5)], {seat.player: {"made": 2}})
    return rate


async def _ratings_rows(store: Store) -> list[int]:
    return [(await store._fetchone("counting", f"SELECT COUNT(*) FROM {table}"))[0]
            for table in ("skill_ratings", "rating_changes", "player_figures")]


async def test_a_raters_changes_commit_with_the_match(store: Store) -> None:
    match_id = await _playing(store)
    await store.finish_match(match_id, result=RESULT, winner_side=0, players=PLAYERS,
                             raters=[_rater()])
    (change,) = await RatingsReader(store).match_changes(match_id)
    assert (change.player, change.outcome, change.mu_after) == ("u:10", "win", 27.0)
    assert await _ratings_rows(store) == [1, 1, 1]


@pytest.mark.parametrize("rater", [_rater(fail=True), _rater(outcome="maybe")],
                         ids=["raises", "refused by the database"])
async def test_a_failing_rater_undoes_only_the_ratings(store: Store, rater: Rater) -> None:
    match_id = await _playing(store)
    await store.finish_match(match_id, result=RESULT, winner_side=0, players=PLAYERS,
                             raters=[rater])
    outcome = await store.get_result(match_id)
    assert outcome is not None and len(outcome.players) == len(PLAYERS)
    assert await _ratings_rows(store) == [0, 0, 0]
    # The store is still usable: another match is rated.
    other = await _playing(store)
    await store.finish_match(other, result=RESULT, winner_side=0, players=PLAYERS,
                             raters=[_rater()])
    assert await _ratings_rows(store) == [1, 1, 1]


async def test_a_failing_player_row_writes_nothing(store: Store) -> None:
    match_id = await _playing(store)
    with pytest.raises(StoreError, match=r"(?i)unique"):
        await store.finish_match(match_id, result=RESULT, winner_side=0,
                                 players=[PLAYERS[0], PLAYERS[0]])
    await _nothing_written(store, match_id)


async def test_a_match_is_finished_only_once(store: Store) -> None:
    match_id = await _playing(store)
    await store.finish_match(match_id, result=RESULT, winner_side=0, players=PLAYERS)
    with pytest.raises(StoreConflict, match="already ended"):
        await store.finish_match(match_id, result={}, winner_side=1, players=[])
    outcome = await store.get_result(match_id)
    assert outcome is not None and outcome.winner_side == 0 and len(outcome.players) == 4


async def test_finishing_a_missing_match_or_to_a_live_status_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="Match 5 does not exist"):
        await store.finish_match(5, result={}, winner_side=None, players=[])
    match_id = await _playing(store)
    with pytest.raises(ValueError, match="ends as"):
        await store.finish_match(match_id, status="playing", result={}, winner_side=None,
                                 players=[])
    await _nothing_written(store, match_id)


async def test_a_cancelled_finish_writes_everything_or_nothing(
    store: Store, database: str,
) -> None:
    """Cancel finish_match at many points: each match ends whole or not at all, and the
    connection is never left inside a transaction (later writes still commit)."""
    ids = [await _playing(store) for _ in range(24)]
    for delay, match_id in enumerate(ids):
        task = asyncio.create_task(store.finish_match(
            match_id, result=RESULT, winner_side=0, players=PLAYERS))
        for _ in range(delay):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    later = await _playing(store)
    async with await Store.open(database) as reader:  # sees only committed rows
        assert await reader.get_match(later) is not None
        for match_id in ids:
            match, outcome = await reader.get_match(match_id), await reader.get_result(match_id)
            assert match is not None
            if match.status == "finished":
                assert outcome is not None and len(outcome.players) == len(PLAYERS)
            else:
                assert match.status == "playing" and outcome is None
