"""The small slams as candidate calls: offered only in the slam zone and in a fit, weighed
only by a round learned with them, rolled out and trained with `--slams`, and a card
that says so loading as such (as a card of the bids between does)."""

from __future__ import annotations

import json
import logging
import shutil

import pytest

from bot.ai.bridge.learning import bank, rollouts, train, values
from bot.ai.bridge.learning.features import BETWEEN, LONG, SLAM_ZONE, SLAMS, Candidates
from bot.ai.bridge.learning.forest import Forest
from tests.ai.test_learned_bidding import _decision


def _slams(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith("bid:6")]


def test_a_slam_is_offered_in_no_trumps_and_in_an_eight_card_fit_in_the_slam_zone():
    """North opens 1♥ (11+ HCP, five hearts); South holds 18 HCP and four hearts: 29 HCP
    between them at least, so 6♥ (nine hearts) and 6NT; not 6♠ (three spades and none
    shown) nor a minor."""
    made, legal = _decision("AK4.QJ73.KQ2.QJ4", [(0, "bid:1H"), (1, "pass")], seat=2)
    partner = made.ctx.shown[0]
    assert made.facts.hcp + partner.min_hcp >= SLAM_ZONE
    known = Candidates(made, legal)
    assert _slams(known.wanted(frozenset({SLAMS}))) == ["bid:6H", "bid:6NT"]
    assert _slams(known.wanted()) == []


def test_no_slam_is_offered_below_the_slam_zone():
    made, legal = _decision("T42.J53.Q872.952", [(0, "bid:1H"), (1, "pass")], seat=2)
    assert made.facts.hcp + made.ctx.shown[0].min_hcp < SLAM_ZONE
    assert _slams(Candidates(made, legal).wanted(frozenset({SLAMS}))) == []


def test_only_a_round_learned_with_slams_weighs_them():
    made, legal = _decision("AK4.QJ73.KQ2.QJ4", [(0, "bid:1H"), (1, "pass")], seat=2)
    known = Candidates(made, legal)
    forest = Forest.load(values.DEFAULT)
    with_slams = values.CallValues(forest, 1.0, extras=frozenset({SLAMS}))
    without = values.CallValues(forest, 1.0)
    offered = with_slams.candidates(made, known, made.action)
    # honest: the system's reading of 6NT admits the hand (18 HCP with the opener counted
    # at 15.5 reach the 33 a notrump slam needs)
    assert "bid:6NT" in offered
    assert _slams(without.candidates(made, known, made.action)) == []
    assert [c for c in offered if not c.startswith("bid:6")] == \
        without.candidates(made, known, made.action)


def test_rollouts_with_slams_label_the_small_slams_too():
    """Bank deal 33: at two of the deal's decisions 6♥ is offered and scores 11 IMPs above
    the players' own call; without `--slams` it is no candidate there."""
    deal = next(bank.read(first=33, limit=1))
    with_slams = rollouts.label_deal(deal, extras=frozenset({SLAMS}))
    plain = rollouts.label_deal(deal)
    offered = {(r.decision, r.action): r.gain for r in with_slams}
    before = {(r.decision, r.action) for r in plain}
    new = {key: gain for key, gain in offered.items() if key not in before}
    assert len(new) == 2 and all(action == "bid:6H" and gain == 11.0
                       for (_, action), gain in new.items())
    # The other candidates are labelled as before.
    assert {(r.decision, r.action, r.gain) for r in plain} <= \
        {(r.decision, r.action, r.gain) for r in with_slams}


@pytest.mark.parametrize(("extra", "flag"), [(SLAMS, "--slams"), (BETWEEN, "--between"),
                                           (LONG, "--long")])
def test_a_round_trained_with_a_class_of_candidates_says_so_and_loads_as_such(
        tmp_path, caplog, extra, flag):
    pytest.importorskip("lightgbm")
    rows = tmp_path / "rows.jsonl"
    assert rollouts.main(["--first", "0", "--deals", "6", "--out", str(rows), "--jobs", "1",
                          flag]) == 0
    out = tmp_path / "extra.npz"
    card, _ = train.train([rows], out, trees=5, leaves=3, held_out=5, command="test",
                          play_deals=3, play_first=100, extras=frozenset({extra}))
    key = values.CARD_EXTRAS[extra]
    assert card[key] is True and all(
        other not in card for other in values.CARD_EXTRAS.values() if other != key)
    loaded = values.load(out)
    assert loaded is not None and loaded.extras == {extra}
    # A card whose flag is not a boolean is refused, with one log line.
    broken = tmp_path / "broken.npz"
    shutil.copy(out, broken)
    card[key] = "yes"
    values.card_path(broken).write_text(json.dumps(card))
    with caplog.at_level(logging.ERROR, logger=values.__name__):
        assert values.load(broken) is None
    assert any(key in r.getMessage() for r in caplog.records)
