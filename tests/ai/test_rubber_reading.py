"""A rubber round that reads the hand reading: `rollouts --rubber --reading` rows hold the
part scores, then the hand reading's means (`features.RUBBER_LAYOUT` less our side's
sums); `train --rubber --side` trains a round on them that reads our side's sums after
those, stacked on the shipped rubber chain, whose rounds read a prefix of the same row."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from bot.ai.bridge.bidding.context import empty_auction
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.learning import bank, reading, rollouts, train, values
from bot.ai.bridge.learning.features import (
    CANDIDATE_COLUMNS,
    NAMES,
    READING_NAMES,
    RUBBER_LAYOUT,
    RUBBER_NAMES,
    SIDE_NAMES,
    Candidates,
    with_side,
)
from bot.games.bridge_auction import CALL_BY_TEXT
from tests.ai.test_reading_features import widths  # noqa: F401 (a fixture)

PLAIN = len(NAMES) + len(RUBBER_NAMES)  # a rubber row without the reading
READ = PLAIN + len(READING_NAMES)  # with the hand reading's means


def test_rubber_reading_rows_are_the_rubber_rows_then_the_decision_s_reading_part():
    deal = next(bank.read(first=70, limit=1))
    plain = rollouts.label_deal(deal, rubber=True)
    read = rollouts.label_deal(deal, rubber=True, reading=True)
    assert plain and [(r.decision, r.action, r.gain) for r in read] == [
        (r.decision, r.action, r.gain) for r in plain]
    for wide, narrow in zip(read, plain, strict=True):
        assert len(wide.features) == READ and wide.features[:PLAIN] == narrow.features
    # Each decision's part is the shipped hand reading's means at it, read from the seat.
    score = rollouts.rubber_state(deal.number)
    auction = empty_auction(deal.dealer)
    players = rollouts.Bidders(None, score=score)
    by_decision = {r.decision: r.features[PLAIN:] for r in read}
    decision = 0
    while not auction.finished:
        seat = auction.to_call()
        made, chosen, _ = players.choose(deal, seat, list(auction.calls),
                                         auction.legal_texts(seat))
        if decision in by_decision:
            wanted = reading.reading_part(made.facts, made.ctx,
                                          rollouts.vulnerability(deal, score))
            assert by_decision[decision] == pytest.approx([float(v) for v in wanted])
        auction.call(seat, CALL_BY_TEXT[chosen])
        decision += 1


def test_the_side_columns_of_a_rubber_row_skip_the_part_scores():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 9, size=(6, READ)).astype(np.float64)
    named = [dict(zip(RUBBER_LAYOUT, row, strict=True)) for row in with_side(x, rubber=True)]
    for row in named:
        assert row["side_hcp"] == row["hcp"] + row["read_partner_hcp"]
        assert [row[f"side_{s}"] for s in "cdhs"] == [
            row[f"len_{s}"] + row[f"read_partner_{s}"] for s in "cdhs"]
        assert row["their_best"] == max(row[f"read_lho_{s}"] + row[f"read_rho_{s}"]
                                        for s in "cdhs")
    with pytest.raises(ValueError, match="features wanted"):
        with_side(x, rubber=False)  # a duplicate row is two columns narrower
    assert RUBBER_LAYOUT.index("cand_side") in CANDIDATE_COLUMNS
    assert RUBBER_LAYOUT[READ:] == SIDE_NAMES


@pytest.fixture(scope="module")
def rubber_side(tmp_path_factory) -> tuple[Path, Path, object]:
    """A rubber round trained with `--side` on `rollouts --rubber --reading` rows labelled
    by the shipped rubber chain, stacked on it in a copy of the models' folder: the model,
    its rows and LightGBM's booster."""
    pytest.importorskip("lightgbm")
    folder = tmp_path_factory.mktemp("rubber-side")
    for path in values.MODELS.glob("call_values*"):
        shutil.copy(path, folder / path.name)
    base = folder / "call_values_rubber-base.npz"
    shutil.copy(folder / values.RUBBER.name, base)
    shutil.copy(values.card_path(folder / values.RUBBER.name), values.card_path(base))
    rows = folder / "rows.jsonl"
    assert rollouts.main(["--first", "60", "--deals", "24", "--out", str(rows), "--jobs", "1",
                          "--step", "12", "--model", str(base), "--relative", "--rubber",
                          "--reading"]) == 0
    out = folder / "call_values_rubber-side.npz"
    plain = folder / "plain.jsonl"
    assert rollouts.main(["--first", "60", "--deals", "2", "--out", str(plain), "--jobs", "1",
                          "--model", str(base), "--relative", "--rubber"]) == 0
    with pytest.raises(SystemExit, match="--side"):
        train.train([plain], out, trees=5, leaves=3, held_out=5, command="test",
                    play_deals=3, stack_on=base, play_first=100, rubber=True, side=True)
    card, booster = train.train([rows], out, trees=20, leaves=7, held_out=5, command="test",
                                play_deals=3, stack_on=base, play_first=100, rubber=True,
                                scopes=("all",), play_margins=(25.0,), side=True)
    assert card["features"] == list(RUBBER_LAYOUT) and card["stacked_on"] == base.name
    yield out, rows, booster
    for path in folder.glob("*.npz"):
        values.SHELF.loaded.pop(path, None)


def test_a_rubber_round_reading_our_side_loads_and_gives_the_booster_s_values(rubber_side):
    path, rows, booster = rubber_side
    loaded = values.load(path)
    assert loaded is not None and loaded.rubber and loaded.reading and loaded.side
    assert loaded.base is not None and loaded.base.rubber and not loaded.base.reading
    assert loaded.forest.features == len(RUBBER_LAYOUT)
    sample = train.matrix(list(rollouts.rows_in(rows))[:300], side=True, rubber=True)
    assert loaded.forest.predict(sample).tolist() == pytest.approx(
        [float(v) for v in booster.predict(sample)], abs=1e-9)


def test_a_rubber_round_reading_our_side_weighs_at_a_part_score_on_the_widest_rows(
        rubber_side, widths):  # noqa: F811 (the fixture imported above)
    """Where it cannot reach its margin the rubber chain bids as alone, its rounds' gains
    the same on the wider rows; eager, it changes calls. On a board it never acts."""
    path, _, _ = rubber_side
    stacked = values.load(path)
    assert stacked is not None and stacked.base is not None
    base = stacked.base
    kw = {"rubber": True, "reading": True, "side": True}
    quiet = values.CallValues(stacked.forest, 99999.0, "all", base, **kw)
    eager = values.CallValues(stacked.forest, -99999.0, "all", base, **kw)
    score = Score((0, 1), (40, 60))
    changed = decisions = 0
    for deal in bank.read(first=100, limit=6):
        players = rollouts.Bidders(base, score=score)
        auction = empty_auction(deal.dealer)
        vulnerable = rollouts.vulnerability(deal, score)
        while not auction.finished:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            made, chosen, known = players.choose(deal, seat, list(auction.calls), legal)
            assert quiet.better(made, legal, vulnerable, score, known) == chosen
            changed += eager.better(made, legal, vulnerable, score, known) != chosen
            rounds = base.acting(made, score)
            alone = base._weigh(rounds, made, vulnerable, score, known, made.action)
            joint = quiet._weigh(quiet.acting(made, score), made, vulnerable, score, known,
                                 made.action)
            assert joint[:-1] == alone
            auction.call(seat, CALL_BY_TEXT[chosen])
            decisions += 1
    assert decisions > 20 and changed > 0
    assert len(RUBBER_LAYOUT) in widths
    # On a board the rubber rounds leave the call to the duplicate rounds under them.
    widths.clear()
    deal = next(bank.read(first=100, limit=1))
    made, chosen, known = rollouts.Bidders(base).choose(
        deal, deal.dealer, [], empty_auction(deal.dealer).legal_texts(deal.dealer))
    assert eager.better(made, known.legal, deal.vulnerable, None, Candidates(
        made, known.legal)) == base.better(made, known.legal, deal.vulnerable, None)
    assert len(RUBBER_LAYOUT) not in widths
