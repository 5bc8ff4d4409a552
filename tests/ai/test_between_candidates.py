"""The bids between the cheapest and game as candidate calls: offered only in no trumps
and in a fit, weighed only by a round learned with them, and labelled apart (`rollouts
--only between`) exactly as in a run that labels every candidate."""

from __future__ import annotations

import pytest

from bot.ai.bridge.bidding.context import empty_auction
from bot.ai.bridge.bidding.system import decide
from bot.ai.bridge.learning import bank, rollouts, values
from bot.ai.bridge.learning.features import BETWEEN, SLAMS, Candidates
from bot.ai.bridge.learning.forest import Forest
from bot.games.bridge_auction import CALL_BY_TEXT
from tests.ai.test_learned_bidding import _decision

WITH_BETWEEN = frozenset({BETWEEN})


def _added(known: Candidates, extras: frozenset[str]) -> list[str]:
    return known.wanted(extras)[len(known.wanted()):]


def test_the_bids_between_are_offered_in_no_trumps_and_in_an_eight_card_fit():
    """North opens 1♥; South holds four hearts and three spades: between the cheapest bid
    and game, 3♥ (nine hearts at least) and 2NT; no spade bid (three spades, none shown)
    nor a minor's."""
    made, legal = _decision("K42.QJ73.K82.Q54", [(0, "bid:1H"), (1, "pass")], seat=2)
    known = Candidates(made, legal)
    assert _added(known, WITH_BETWEEN) == ["bid:3H", "bid:2NT"]
    # Over a 2♣ overcall the cheapest notrump is game's level less one: only 3♥ is between.
    over, legal = _decision("K42.QJ73.K82.Q54", [(0, "bid:1H"), (1, "bid:2C")], seat=2)
    assert _added(Candidates(over, legal), WITH_BETWEEN) == ["bid:3H"]
    # The slams come first, as every round with them was offered them.
    strong, legal = _decision("AK4.QJ73.KQ2.J54", [(0, "bid:1H"), (1, "pass")], seat=2)
    both = Candidates(strong, legal)
    assert _added(both, frozenset({SLAMS, BETWEEN})) == \
        _added(both, frozenset({SLAMS})) + _added(both, WITH_BETWEEN)


def test_only_a_round_learned_with_the_bids_between_weighs_them():
    deal = next(bank.read(first=1, limit=1))
    forest = Forest.load(values.DEFAULT)
    with_between = values.CallValues(forest, 1.0, extras=WITH_BETWEEN)
    without = values.CallValues(forest, 1.0)
    # Bank deal 1: East opens 1♥ and South, with 5 HCP, may be offered 2NT, which the
    # system reads as no particular hand: honest, so a round learned with it weighs it.
    auction = empty_auction(deal.dealer)
    auction.call(1, CALL_BY_TEXT["bid:1H"])
    legal = auction.legal_texts(2)
    made = decide(deal.hands[2], 2, list(auction.calls), legal)
    assert made.facts.hcp == 5
    known = Candidates(made, legal)
    assert "bid:2NT" in with_between.candidates(made, known, made.action)
    assert "bid:2NT" not in without.candidates(made, known, made.action)


@pytest.mark.parametrize("number", [3, 6])
def test_labelled_apart_the_bids_between_are_the_rows_a_full_run_adds(number):
    """Rows labelled without the class, and then with `only` it, are exactly the rows of
    one run with it: same decisions (each side's walk numbered alike), same labels. Bank
    deals 3 and 6 are bid against an opponent, as a stacked round's rows are."""
    deal = next(bank.read(first=number, limit=1))
    shipped = values.load(values.DEFAULT)
    opponents = [None, shipped]
    slams, both = frozenset({SLAMS}), frozenset({SLAMS, BETWEEN})
    before = rollouts.label_deal(deal, shipped, opponents, True, extras=slams)
    added = rollouts.label_deal(deal, shipped, opponents, True, extras=both, only=WITH_BETWEEN)
    whole = rollouts.label_deal(deal, shipped, opponents, True, extras=both)
    assert added and all(row.action == "bid:2NT" for row in added)
    assert sorted(before + added, key=_key) == sorted(whole, key=_key)


def _key(row: rollouts.Row) -> tuple[int, str]:
    return row.decision, row.action


def test_only_names_a_class_offered(tmp_path):
    with pytest.raises(SystemExit, match="--only"):
        rollouts.main(["--first", "0", "--deals", "1", "--out", str(tmp_path / "r.jsonl"),
                       "--jobs", "1", "--slams", "--only", "between"])
