"""The jumps in a long suit where no fit is known as candidate calls: offered in a suit
of six cards or more that is no fit strain, weighed only by a round learned with them,
and labelled apart (`rollouts --only long`) exactly as in a run that labels every
candidate."""

from __future__ import annotations

import pytest

from bot.ai.bridge.learning import bank, rollouts, values
from bot.ai.bridge.learning.features import BETWEEN, LONG, NAMES, SLAMS, Candidates
from bot.ai.bridge.learning.forest import Forest
from tests.ai.test_learned_bidding import _decision

WITH_LONG = frozenset({LONG})


def _added(known: Candidates, extras: frozenset[str]) -> list[str]:
    return known.wanted(extras)[len(known.wanted()):]


def test_jumps_are_offered_in_a_six_card_suit_where_no_fit_is_known():
    """East opens 1♥; South holds seven spades: 2♠ and 3♠ lie between the cheapest spade
    bid and game. Not in hearts (theirs, one card) nor in a five-card suit."""
    made, legal = _decision("KQJ9874.3.K82.54", [(1, "bid:1H")], seat=2)
    seven = Candidates(made, legal)
    assert _added(seven, WITH_LONG) == ["bid:2S", "bid:3S"]
    # The classes come in one order, as every round with them was offered them.
    assert _added(seven, frozenset({SLAMS, BETWEEN, LONG})) == \
        _added(seven, frozenset({SLAMS, BETWEEN})) + _added(seven, WITH_LONG)
    five, legal = _decision("KQJ98.32.K82.543", [(1, "bid:1H")], seat=2)
    assert _added(Candidates(five, legal), WITH_LONG) == []
    # North's 1♠ shows five: six more make a fit, whose jumps are the bids between's.
    fit, legal = _decision("Q98742.3.K82.543", [(0, "bid:1S"), (1, "bid:2H")], seat=2)
    assert _added(Candidates(fit, legal), WITH_LONG) == []
    assert _added(Candidates(fit, legal), frozenset({BETWEEN})) == ["bid:3S"]
    # Six hearts under partner's 1♠ and their 2♣: the jump to 3♥, below game.
    own, legal = _decision("3.Q98742.K82.543", [(0, "bid:1S"), (1, "bid:2C")], seat=2)
    assert _added(Candidates(own, legal), WITH_LONG) == ["bid:3H"]


def test_only_a_round_learned_with_the_long_suits_weighs_their_jumps():
    """Over 1♥ with seven spades the tables jump to 2♠; 3♠ is honest (the system's
    reading admits the hand), so a round learned with the class weighs it, and no other
    round does."""
    forest = Forest.load(values.DEFAULT)
    with_long = values.CallValues(forest, 1.0, extras=WITH_LONG)
    without = values.CallValues(forest, 1.0)
    made, legal = _decision("KQJ9874.3.K82.54", [(1, "bid:1H")], seat=2)
    assert made.action == "bid:2S"
    known = Candidates(made, legal)
    assert "bid:3S" in with_long.candidates(made, known, made.action)
    assert "bid:3S" not in without.candidates(made, known, made.action)


@pytest.mark.parametrize("number", [3, 15])
def test_labelled_apart_the_long_suit_jumps_are_the_rows_a_full_run_adds(number):
    """Rows labelled without the class, and then with `only` it, are exactly the rows of
    one run with it. Bank deals 3 and 15 are bid against an opponent, as a stacked
    round's rows are."""
    deal = next(bank.read(first=number, limit=1))
    shipped = values.load(values.DEFAULT)
    opponents = [None, shipped]
    before_extras = frozenset({SLAMS, BETWEEN})
    every = before_extras | WITH_LONG
    before = rollouts.label_deal(deal, shipped, opponents, True, extras=before_extras)
    added = rollouts.label_deal(deal, shipped, opponents, True, extras=every, only=WITH_LONG)
    whole = rollouts.label_deal(deal, shipped, opponents, True, extras=every)
    assert added
    lengths = NAMES.index("len_c")
    for row in added:  # each a jump in a suit of six or more of the deciding hand's
        assert row.features[lengths + "CDHS".index(row.action[-1])] >= 6
    assert sorted(before + added, key=_key) == sorted(whole, key=_key)


def _key(row: rollouts.Row) -> tuple[int, str]:
    return row.decision, row.action
