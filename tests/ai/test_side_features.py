"""Our side's sums as read: a round of the call values may read, after the hand reading's
means, what our side holds together (`features.SIDE_NAMES`: this hand's numbers plus
partner's read means, our longest fit and theirs, our fit in the candidate's and the
reference call's suit), worked out from the row itself (`features.with_side`); `train
--side` trains one from `rollouts --reading` rows, and it loads and weighs stacked on the
shipped chain."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.ai.bridge.learning import bank, reading, rollouts, train, values
from bot.ai.bridge.learning.features import (
    CANDIDATE_COLUMNS,
    LAYOUT,
    NAMES,
    READING_NAMES,
    SIDE_NAMES,
    Candidates,
    Rows,
    row_names,
    with_side,
)
from bot.ai.bridge.learning.forest import Forests
from tests.ai.test_reading_features import (
    ROUND_6,
    _on_round_6,
    _walk,
    trained_on_reading_rows,
)

READ = len(NAMES) + len(READING_NAMES)


def _columns(row: np.ndarray) -> dict[str, float]:
    return {name: float(v) for name, v in zip(LAYOUT, row, strict=True)}


def test_the_side_columns_are_the_hand_plus_partner_s_reading():
    deal = next(bank.read(first=6010, limit=1))
    shipped = values.shared(ROUND_6)
    checked = 0
    for made, legal, _, _ in _walk(deal, shipped):
        known = Candidates(made, legal)
        rows = Rows(made, deal.vulnerable, known=known, reader=reading.reading_part)
        calls = [made.action, *known.readings()]
        x = with_side(np.asarray([rows.row(call) for call in calls]))
        assert x.shape == (len(calls), len(LAYOUT))
        for call, row in zip(calls, x, strict=True):
            named = _columns(row)
            assert named["side_hcp"] == pytest.approx(named["hcp"] + named["read_partner_hcp"])
            ours = [named[f"len_{s}"] + named[f"read_partner_{s}"] for s in "cdhs"]
            theirs = [named[f"read_lho_{s}"] + named[f"read_rho_{s}"] for s in "cdhs"]
            assert [named[f"side_{s}"] for s in "cdhs"] == pytest.approx(ours)
            assert named["side_best"] == pytest.approx(max(ours))
            assert named["their_best"] == pytest.approx(max(theirs))
            for which, action in (("cand", call), ("tables", made.action)):
                suit = action.startswith("bid:") and not action.endswith("NT")
                wanted = ours["CDHS".index(action[-1])] if suit else 0.0
                assert named[f"{which}_side"] == pytest.approx(wanted)
            checked += 1
    assert checked > 10


def test_with_side_refuses_rows_of_another_width():
    with pytest.raises(ValueError, match="features wanted"):
        with_side(np.zeros((2, len(NAMES))))
    with pytest.raises(ValueError, match="features wanted"):
        with_side(np.zeros(READ))


def test_the_candidate_s_fit_is_among_the_columns_a_decision_s_rows_differ_in():
    assert LAYOUT.index("cand_side") in CANDIDATE_COLUMNS
    assert LAYOUT.index("tables_side") not in CANDIDATE_COLUMNS
    assert LAYOUT[:len(NAMES)] == NAMES and LAYOUT[READ:] == SIDE_NAMES


@pytest.fixture(scope="module")
def side_model(tmp_path_factory) -> tuple[Path, Path, object]:
    """A round trained with `--side` on `rollouts --reading` rows: the model, its rows
    and LightGBM's booster."""
    out, rows, booster, card = trained_on_reading_rows(tmp_path_factory.mktemp("side"),
                                                       side=True)
    assert card["features"] == list(LAYOUT)
    return out, rows, booster


def test_a_side_round_loads_through_its_card_and_gives_the_booster_s_values(side_model):
    path, rows, booster = side_model
    loaded = values.load(path)
    assert loaded is not None and loaded.side and loaded.reading and not loaded.rubber
    assert loaded.forest.features == len(LAYOUT)
    inner = loaded.forest.left != np.arange(loaded.forest.feature.size)
    assert (loaded.forest.feature[inner] >= READ).any()  # it reads the sums it learned from
    sample = train.matrix(list(rollouts.rows_in(rows))[:300], side=True)
    assert loaded.forest.predict(sample).tolist() == pytest.approx(
        [float(v) for v in booster.predict(sample)], abs=1e-9)


def test_a_side_round_stacked_on_round_6_weighs_on_the_widest_rows(side_model, tmp_path,
                                                                    monkeypatch):
    """Where it cannot reach its margin round 6's chain bids as alone, each of its rounds'
    gains the same on the wider rows; eager, it changes calls."""
    seen: list[int] = []
    predict = Forests.predict

    def recording(self, rows):
        seen.append(len(rows[0]))
        return predict(self, rows)

    monkeypatch.setattr(Forests, "predict", recording)
    path, _, _ = side_model
    stacked = values.load(_on_round_6(path, tmp_path / "side.npz"))
    shipped = values.shared(ROUND_6)
    assert stacked is not None and shipped is not None and stacked.side
    quiet = values.CallValues(stacked.forest, 99.0, "all", shipped, reading=True, side=True)
    eager = values.CallValues(stacked.forest, -99.0, "all", shipped, reading=True, side=True)
    changed = 0
    for number in (6000, 6001, 6004, 6010):
        deal = next(bank.read(first=number, limit=1))
        for made, legal, known, chosen in _walk(deal, shipped):
            assert quiet.better(made, legal, deal.vulnerable, None, known) == chosen
            changed += eager.better(made, legal, deal.vulnerable, None, known) != chosen
            rounds = shipped.acting(made, None)
            alone = shipped._weigh(rounds, made, deal.vulnerable, None, known, made.action)
            joint = quiet._weigh(quiet.acting(made, None), made, deal.vulnerable, None,
                                 known, made.action)
            assert joint[:-1] == alone
    assert changed > 0
    assert set(seen) == {len(NAMES), len(LAYOUT)}


def test_side_sums_need_the_hand_reading_s_means():
    with pytest.raises(ValueError, match="hand reading"):
        row_names(rubber=False, reading=False, side=True)
    forest = values.shared(ROUND_6)
    assert forest is not None
    with pytest.raises(ValueError, match="hand reading"):
        values.CallValues(forest.forest, 1.0, side=True)


def test_train_side_refuses_rows_without_the_reading(tmp_path):
    pytest.importorskip("lightgbm")
    rows = tmp_path / "rows.jsonl"
    assert rollouts.main(["--first", "0", "--deals", "4", "--out", str(rows), "--jobs", "1",
                          "--step", "2"]) == 0
    with pytest.raises(SystemExit, match="--side"):
        train.train([rows], tmp_path / "x.npz", trees=5, leaves=7, held_out=5,
                    command="test", play_deals=3, play_first=100, side=True)
