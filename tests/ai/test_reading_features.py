"""Reading features: a round of the call values may read the learned hand reading's means
(`features.READING_NAMES`), appended to its rows; the shipped rounds read none, pay for
none and weigh as they did; a tiny round trained on `rollouts --reading` rows loads and
weighs stacked on the shipped chain; without the hand reading such a round is skipped; and
a rubber round never reads it."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from bot.ai.bridge.bidding.context import empty_auction
from bot.ai.bridge.bidding.system import decide
from bot.ai.bridge.learning import bank, reading, rollouts, train, values
from bot.ai.bridge.learning.features import NAMES, READING_NAMES, Candidates, Rows
from bot.ai.bridge.learning.forest import Forest
from bot.games.bridge_auction import CALL_BY_TEXT
from tests.ai.helpers import broken_copy
from tests.ai.test_learned_bidding import _decision

ROUND_6 = values.MODELS / "call_values-round6.npz"  # the last round reading no hand reading
WIDE = len(NAMES) + len(READING_NAMES)

# Bank deals the shipped chain (its four players) bid at 0241a0e, before reading
# features, each changing at least one of the tables' calls: its calls, in order.
RECORDED = {
    6000: ["pass", "bid:3C", "double", "pass", "bid:3H", "pass", "bid:4D", "pass", "pass",
           "pass"],
    6001: ["pass", "bid:1D", "pass", "bid:1H", "bid:1S", "bid:3NT", "pass", "pass", "pass"],
    6004: ["pass", "bid:1C", "pass", "pass", "double", "redouble", "pass", "pass", "bid:1S",
           "pass", "pass", "pass"],
    6010: ["pass", "bid:1C", "pass", "bid:1S", "bid:4H", "double", "pass", "bid:4S", "pass",
           "pass", "pass"],
}
# At deal 6010's sixth call (the tables pass; the chain doubles), each shipped round's
# gains over the tables' pass, the first base first, as read at 0241a0e.
GAINS_6010_5 = (
    [3.3630646769745587, -1.840680678769083, -0.1736040088874855],
    [-0.07771128558426876, -3.5628805050273247, -0.9510874297910274],
    [0.17295701696223553, -3.018110946396432, -4.4883788533200555],
    [0.43959388984128966, -3.6533600848900623, -3.2347073183758277],
    [1.2047643507346368, -2.9122013906056274, -4.885861843476352],
)


def _walk(deal: bank.BankDeal, chain: values.CallValues | None):
    """Each decision of the deal bid by four players using `chain`: the decision, its
    legal calls, its candidates as the players worked them out, and the call made."""
    players = rollouts.Bidders(chain)
    auction = empty_auction(deal.dealer)
    while not auction.finished:
        seat = auction.to_call()
        legal = auction.legal_texts(seat)
        made, chosen, known = players.choose(deal, seat, list(auction.calls), legal)
        yield made, legal, known, chosen
        auction.call(seat, CALL_BY_TEXT[chosen])


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """How many readings the hand reading makes (each one a call of its forest)."""
    calls: list[int] = []
    means = reading.HandReading.means

    def counting(self, rows):
        calls.append(len(rows))
        return means(self, rows)

    monkeypatch.setattr(reading.HandReading, "means", counting)
    return calls


@pytest.fixture
def widths(monkeypatch) -> list[int]:
    """The width of the rows each joint read of the rounds' forests was given."""
    seen: list[int] = []
    predict = values.Forests.predict

    def recording(self, rows):
        seen.append(len(rows[0]))
        return predict(self, rows)

    monkeypatch.setattr(values.Forests, "predict", recording)
    return seen


def test_the_reading_columns_are_the_hand_reading_s_targets_in_their_order():
    assert len(READING_NAMES) == 15
    assert [name.removeprefix("read_") for name in READING_NAMES] == [
        target.replace("len_", "") for target in reading.TARGETS]
    assert READING_NAMES[:6] == ("read_lho_hcp", "read_lho_c", "read_lho_d", "read_lho_h",
                                 "read_lho_s", "read_partner_hcp")


def test_a_decision_s_reading_part_is_the_shipped_hand_reading_s_means_in_order():
    """North opens 1♥ and East passes; South's reading part is the shipped model's means,
    LHO (West) first, then partner (North: five hearts or more), then RHO (East)."""
    made, _ = _decision("AKJ4.K87.Q62.854", [(0, "bid:1H"), (1, "pass")], seat=2)
    model = reading.shared()
    assert model is not None
    read = model.read(made.facts, made.ctx, (True, False))
    part = reading.reading_part(made.facts, made.ctx, (True, False))
    assert part == [float(v) for seat in read.mean for v in seat]
    named = dict(zip(READING_NAMES, part, strict=True))
    assert named["read_partner_h"] == read.mean[1][3] >= 5
    assert named["read_partner_hcp"] > max(named["read_lho_hcp"], named["read_rho_hcp"])
    assert named["read_rho_hcp"] == read.mean[2][0]
    # The vulnerability is read as given (the model's input holds it).
    assert reading.reading_part(made.facts, made.ctx, (False, True)) == [
        float(v) for seat in model.read(made.facts, made.ctx, (False, True)).mean
        for v in seat]
    # A row with the reading part: the row as before, then the part.
    plain = Rows(made, (True, False)).row("pass")
    wide = Rows(made, (True, False), reader=reading.reading_part).row("pass")
    assert len(plain) == len(NAMES) and wide == plain + part


def test_a_decision_is_read_once_however_many_rows_read_it():
    made, legal = _decision("AKJ4.K87.Q62.854", [(0, "bid:1H"), (1, "pass")], seat=2)
    asked: list[int] = []

    def reader(facts, ctx, vulnerable):
        asked.append(ctx.seat)
        return [float(i) for i in range(15)]

    known = Candidates(made, legal)
    for reference in (None, "bid:2H", "bid:4H"):
        rows = Rows(made, (False, False), reference, known=known, reader=reader)
        assert rows.row("pass")[len(NAMES):] == [float(i) for i in range(15)]
    assert asked == [2]
    with pytest.raises(ValueError, match="14 numbers"):
        Rows(made, (False, False), reader=lambda *_: [0.0] * 14)


def test_round_6_s_chain_bids_as_recorded_reading_nothing_on_rows_as_wide_as_before(
        counted, widths):
    # Round 6 and the rounds under it, as they shipped at 0241a0e before any round read
    # the hand reading: the same calls and gains on rows of the old width.
    shipped = values.shared(ROUND_6)
    assert shipped is not None
    assert not any(link.reading for link in shipped.chain())
    for number, calls in RECORDED.items():
        deal = next(bank.read(first=number, limit=1))
        walked = list(_walk(deal, shipped))
        assert [chosen for *_, chosen in walked] == calls
        assert any(chosen != made.action for made, *_, chosen in walked)
        if number == 6010:
            made, _, known, _ = walked[5]
            rounds = shipped.acting(made, None)
            weighed = shipped._weigh(rounds, made, deal.vulnerable, None, known, made.action)
            assert [gains for _, gains in weighed] == [
                pytest.approx(gains, abs=1e-12) for gains in GAINS_6010_5]
    assert counted == [] and widths and set(widths) == {len(NAMES)}


def trained_on_reading_rows(folder: Path, side: bool = False
                            ) -> tuple[Path, Path, object, dict]:
    """A round trained on `rollouts --reading` rows of 40 bank deals in `folder` (a few
    seconds; `side`: `train --side`): the model, its rows, LightGBM's booster, its card."""
    pytest.importorskip("lightgbm")  # the "learn" extra; the players need numpy only
    rows = folder / "rows.jsonl"
    assert rollouts.main(["--first", "0", "--deals", "40", "--out", str(rows), "--jobs", "1",
                          "--step", "20", "--reading"]) == 0
    out = folder / "round.npz"
    card, booster = train.train([rows], out, trees=20, leaves=7, held_out=5, command="test",
                                play_deals=3, play_first=100, scopes=("all",),
                                play_margins=(1.0,), side=side)
    return out, rows, booster, card


@pytest.fixture(scope="module")
def reading_model(tmp_path_factory) -> tuple[Path, Path, object]:
    """A round trained on `rollouts --reading` rows: the model, its rows and LightGBM's
    booster."""
    out, rows, booster, card = trained_on_reading_rows(tmp_path_factory.mktemp("reading"))
    assert card["features"] == [*NAMES, *READING_NAMES]
    return out, rows, booster


def _on_round_6(model: Path, copy: Path, **told: object) -> Path:
    """`model` copied to `copy` in a copy of the shipped models' folder, its card stacked on
    round 6 and changed by `told`."""
    for shipped in values.MODELS.glob("call_values*"):
        shutil.copy(shipped, copy.parent / shipped.name)
    shutil.copy(model, copy)
    card = json.loads(values.card_path(model).read_text())
    card.update(stacked_on=ROUND_6.name, **told)
    values.card_path(copy).write_text(json.dumps(card))
    return copy


def test_reading_rows_are_the_plain_rows_then_the_decision_s_reading_part(reading_model):
    _, rows, _ = reading_model
    written = [row for row in rollouts.rows_in(rows) if row.deal == 3]
    plain = rollouts.label_deal(next(bank.read(first=3, limit=1)))
    assert written and all(len(row.features) == WIDE for row in written)
    assert [(r.decision, r.action, r.gain, r.features[:len(NAMES)]) for r in written] == [
        (r.decision, r.action, r.gain, r.features) for r in plain]
    # The first decision's part: the dealer's reading before any call.
    deal = next(bank.read(first=3, limit=1))
    legal = empty_auction(deal.dealer).legal_texts(deal.dealer)
    made = decide(deal.hands[deal.dealer], deal.dealer, [], legal)
    first = [row for row in written if row.decision == 0]
    assert first and all(row.features[len(NAMES):] == reading.reading_part(
        made.facts, made.ctx, deal.vulnerable) for row in first)


def test_a_reading_round_loads_through_its_card_and_gives_the_booster_s_values(
        reading_model):
    path, rows, booster = reading_model
    loaded = values.load(path)
    assert loaded is not None and loaded.reading and not loaded.rubber
    assert loaded.forest.features == WIDE
    # It splits on the reading columns: what it learned from is read back.
    assert (loaded.forest.feature[loaded.forest.left != np.arange(loaded.forest.feature.size)]
            >= len(NAMES)).any()
    sample = [row.features for row in rollouts.rows_in(rows)][:300]
    assert loaded.forest.predict(sample).tolist() == pytest.approx(
        [float(v) for v in booster.predict(np.asarray(sample))], abs=1e-9)


def test_a_reading_round_stacked_on_round_6_reads_once_a_decision(
        reading_model, tmp_path, counted, widths):
    """Its card stacked on round 6 (in a copy of the shipped models' folder): it loads
    with round 6's chain under it; where it cannot reach its margin the chain's calls
    stand, each of those rounds' gains the same on the wider rows; eager, it changes
    calls; either way one reading a decision where it acts."""
    path, _, _ = reading_model
    stacked = values.load(_on_round_6(path, tmp_path / "reading.npz"))
    shipped = values.shared(ROUND_6)
    assert stacked is not None and shipped is not None and stacked.base is not None
    assert stacked.reading and not any(link.reading for link in stacked.base.chain())
    quiet = values.CallValues(stacked.forest, 99.0, "all", shipped, reading=True)
    eager = values.CallValues(stacked.forest, -99.0, "all", shipped, reading=True)
    changed = decisions = 0
    for number in RECORDED:
        deal = next(bank.read(first=number, limit=1))
        for made, legal, known, chosen in _walk(deal, shipped):
            before = len(counted)
            assert quiet.better(made, legal, deal.vulnerable, None, known) == chosen
            assert stacked.better(made, legal, deal.vulnerable, None, known) is not None
            changed += eager.better(made, legal, deal.vulnerable, None, known) != chosen
            decisions += 1
            assert len(counted) - before <= 1  # once, for all three and every reference
            rounds = shipped.acting(made, None)
            alone = shipped._weigh(rounds, made, deal.vulnerable, None, known, made.action)
            joint = quiet._weigh(quiet.acting(made, None), made, deal.vulnerable, None,
                                 known, made.action)
            assert joint[:-1] == alone
    assert changed > 0 and 0 < len(counted) <= decisions
    assert set(widths) == {len(NAMES), WIDE}


def test_without_the_hand_reading_a_reading_round_is_skipped_and_the_rest_bid(
        reading_model, tmp_path, caplog, monkeypatch):
    path, _, _ = reading_model
    broken = broken_copy(reading.DEFAULT, tmp_path / "hand_reading.npz", "truncated")
    monkeypatch.setattr(reading.SHELF, "default", broken)
    monkeypatch.setattr(reading.SHELF, "loaded", {})
    with caplog.at_level(logging.ERROR):
        loaded = values.load(path)
    lines = [r.getMessage() for r in caplog.records]
    assert loaded is not None and len(lines) == 2
    assert "hand reading off" in lines[0] and "reads the hand reading" in lines[1]
    shipped = values.shared(values.DEFAULT)
    assert shipped is not None
    eager = values.CallValues(loaded.forest, -99.0, "all", shipped, reading=True)
    for number in (6000, 6010):
        deal = next(bank.read(first=number, limit=1))
        for made, legal, known, chosen in _walk(deal, shipped):
            assert eager.acting(made, None) == shipped.acting(made, None)
            assert eager.better(made, legal, deal.vulnerable, None, known) == chosen
    with pytest.raises(SystemExit, match="hand reading cannot be used"):
        rollouts.main(["--first", "0", "--deals", "1", "--out", str(tmp_path / "r.jsonl"),
                       "--reading"])


def test_a_reading_round_names_the_hand_reading_it_learned_from(reading_model):
    path, _, _ = reading_model
    told = json.loads(values.card_path(path).read_text())
    assert told["hand_reading"] == reading.digest() is not None
    shipped = json.loads(values.card_path(values.DEFAULT).read_text())
    assert shipped["hand_reading"] == reading.digest()
    loaded = values.shared(values.DEFAULT)
    assert loaded is not None and loaded.reading and loaded.usable


def test_a_reading_round_of_another_hand_reading_is_skipped_and_the_rest_bid(
        reading_model, tmp_path, caplog):
    """A round that learned from another hand reading than the shipped one (its inputs
    would be another model's means): one log line, and the rounds under it bid as they
    do alone."""
    path, _, _ = reading_model
    # Eager (margin -99): were it asked, it would change calls.
    other = _on_round_6(path, tmp_path / "other.npz", hand_reading="0123456789abcdef",
                        margin=-99.0)
    with caplog.at_level(logging.ERROR, logger=values.__name__):
        stale = values.load(other)
    lines = [r.getMessage() for r in caplog.records if r.name == values.__name__]
    assert stale is not None and stale.reading and not stale.usable
    assert len(lines) == 1 and "another hand reading (0123456789abcdef)" in lines[0]
    round6 = stale.base  # round 6's chain, loaded from the copied folder
    assert round6 is not None and not round6.reading
    deal = next(bank.read(first=6010, limit=1))
    for made, legal, known, chosen in _walk(deal, round6):
        assert stale.acting(made, None) == round6.acting(made, None)
        assert stale.better(made, legal, deal.vulnerable, None, known) == chosen
    for model in tmp_path.glob("*.npz"):
        values.SHELF.loaded.pop(model, None)


def test_a_duplicate_round_that_reads_the_hand_reading_never_shares_a_chain_with_a_rubber_round(
        reading_model, tmp_path):
    """A rubber row holds the part scores where a duplicate round's reading starts, so
    neither may stand on the other; duplicate reading rows are not rubber rows."""
    _, rows, _ = reading_model
    with pytest.raises(SystemExit, match="not rubber rows"):
        train.train([rows], tmp_path / "rubber.npz", trees=5, leaves=3, held_out=5,
                    command="test", play_deals=3, play_first=100, rubber=True)
    forest = Forest.load(values.DEFAULT)
    reads = values.CallValues(forest, 1.0, reading=True)
    with pytest.raises(ValueError, match="cannot share a chain"):
        values.CallValues(forest, 25.0, base=reads, rubber=True)
    with pytest.raises(ValueError, match="cannot share a chain"):
        values.CallValues(forest, 1.0, base=values.CallValues(forest, 25.0, rubber=True),
                          reading=True)
    # A rubber round that reads it stands on rubber rounds that do not.
    plain = values.CallValues(forest, 25.0, rubber=True)
    assert values.CallValues(forest, 25.0, base=plain, rubber=True, reading=True,
                             side=True).chain()[1] is plain
