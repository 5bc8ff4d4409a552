"""The pieces every search player builds on: the budget, the hand ranges, the registry,
and thinking off the event loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.ai import Budget, RandomPlayer, UnknownPlayer, make_player, player_kinds
from bot.ai.core.hand_range import ANY_HAND, HandRange
from bot.games import GAMES
from bot.games.cards import parse_hand
from bot.tables.thinking import ThinkingPool


def test_budget_is_spent_on_an_injected_clock():
    now = [100.0]
    budget = Budget(0.5, clock=lambda: now[0], thinkers=4)
    assert not budget.spent() and budget.remaining() == 0.5
    now[0] += 0.3
    assert budget.elapsed() == pytest.approx(0.3) and not budget.spent()
    now[0] += 0.2
    assert budget.spent() and budget.remaining() == 0.0
    assert budget.share(cores=2) == pytest.approx(0.25)


def test_hand_range_admits_points_and_lengths():
    hand = parse_hand("AKQ32.K2.Q32.432")  # 14 HCP, 5 spades
    assert ANY_HAND.admits(hand)
    assert HandRange(12, 21, min_len=(0, 0, 0, 5)).admits(hand)
    assert not HandRange(15, 17).admits(hand)
    assert not HandRange(max_len=(13, 13, 13, 4)).admits(hand)
    both = HandRange(10, 20).narrowed(HandRange(12, 30, min_len=(0, 0, 0, 5)))
    assert (both.min_hcp, both.max_hcp, both.min_len) == (12, 20, (0, 0, 0, 5))
    assert HandRange(15, 12).empty and not ANY_HAND.empty


def test_hand_range_promised_points_are_counted_but_never_exclude_a_hand():
    hand = parse_hand("AKQ32.K2.Q32.432")  # 14 HCP
    raise_ = HandRange(2, 10, min_points=6, max_points=10)
    assert raise_.strength() == (6, 10) and HandRange(15, 17).strength() == (15, 17)
    assert HandRange(min_points=6, max_points=10).admits(hand)  # high cards decide
    both = raise_.narrowed(HandRange(min_points=8))
    assert (both.min_hcp, both.strength()) == (2, (8, 10))
    assert HandRange(12, 14, max_points=10).strength() == (12, 12)  # never below the cards


def test_every_game_has_players_and_unknown_kinds_are_refused():
    for game in GAMES:
        kinds = player_kinds(game)
        assert kinds and make_player(game, 1).kind == kinds[0]
        for kind in kinds:
            assert make_player(game, 1, kind).kind == kind
    with pytest.raises(UnknownPlayer):
        make_player("spades", 1, "no-such-kind")
    with pytest.raises(UnknownPlayer):
        make_player("poker", 1)


async def test_thinking_runs_off_the_event_loop_with_a_budget():
    seen: dict[str, object] = {}

    class Slow(RandomPlayer):
        def choose(self, view, legal, budget=None):
            seen["thread"] = threading.current_thread().name
            seen["budget"] = budget
            return super().choose(view, legal, budget)

    pool = ThinkingPool(0.25)
    try:
        (choice, after), _ = await asyncio.gather(pool.choose(Slow(3), None, ["a", "b"]),
                                                  asyncio.sleep(0))
    finally:
        pool.close()
    assert choice in ("a", "b") and isinstance(after, Slow)
    assert str(seen["thread"]).startswith("computer-player")
    budget = seen["budget"]
    assert isinstance(budget, Budget) and budget.seconds == 0.25 and budget.thinkers == 1
