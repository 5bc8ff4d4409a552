"""A forest read split by columns, and a chain of rounds read together, give exactly what
the plain descent gives: the same leaves, the same sums, the same calls."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.bridge.bidding.context import empty_auction
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.bidding.system import decide
from bot.ai.bridge.learning import values
from bot.ai.bridge.learning.features import CANDIDATE_COLUMNS, NAMES, Candidates, Rows
from bot.ai.bridge.learning.forest import Forest, Forests
from bot.games.bridge_auction import CALL_BY_TEXT
from bot.games.cards import FULL_DECK


def _little_forest() -> Forest:
    """Two trees over three features, in preorder, worked out by hand:
    tree 0: x0 <= 1.5 ? (x2 <= 0.5 ? 10 : 20) : 30
    tree 1: x1 <= 2.5 ? 1 : (x2 <= 3.0 ? 2 : 3)"""
    #                 0    1    2    3    4    5    6    7    8    9
    feature = [0, 2, 0, 0, 0, 1, 0, 2, 0, 0]
    threshold = [1.5, 0.5, np.inf, np.inf, np.inf, 2.5, np.inf, 3.0, np.inf, np.inf]
    left = [1, 2, 2, 3, 4, 6, 6, 8, 8, 9]
    right = [4, 3, 2, 3, 4, 7, 6, 9, 8, 9]
    value = [0, 0, 10, 20, 30, 0, 1, 0, 2, 3]
    return Forest(np.asarray(feature), np.asarray(threshold), np.asarray(left),
                  np.asarray(right), np.asarray(value, dtype=np.float64),
                  np.asarray([0, 5]), 3, 3)


def test_a_little_forest_read_split_by_columns_gives_the_leaves_worked_out_by_hand():
    forest = _little_forest()
    rows = np.asarray([[1, 0, 0], [1, 9, 1], [1, 3, 3], [1, 2, 4]], dtype=np.float64)
    # Rows 1-3 share column 0 alone; rows 0 and 1 differ in columns 1 and 2.
    wanted = [[10, 1], [20, 2], [20, 2], [20, 1]]
    assert forest.leaves(rows).tolist() == wanted  # the descent
    assert forest.leaves(rows, (1, 2)).tolist() == wanted  # split by columns
    assert forest.predict(rows, (1, 2)).tolist() == [11, 22, 22, 21]
    assert forest.leaves([[2, 0, 0]], ()).tolist() == [[30, 1]]


def test_rows_that_differ_outside_the_columns_named_are_read_by_the_descent():
    forest = _little_forest()
    rows = [[1, 0, 0], [2, 9, 1]]
    split = forest.split_by((1, 2))
    assert split is not None and split.readable(np.asarray(rows, dtype=np.float64)) is None
    assert np.array_equal(forest.leaves(rows, (1, 2)), forest.leaves(rows))


@pytest.mark.parametrize("rows, wanted", [
    # x2 <= 0.5 and x1 <= 2.5 exactly at the thresholds; NaN goes right in both trees.
    ([[1, 0, 0.5], [1, 9, 3.0], [1, 2.5, 3.5], [1, 2.6, np.nan]],
     [[10, 1], [20, 2], [20, 1], [20, 3]]),
    ([[1, 0, np.nan]], [[20, 1]]),
    ([[1, 0, -40000], [1, 9, 1e9]], [[10, 1], [20, 3]]),  # beyond 16 bits
])
def test_rows_not_of_small_whole_numbers_are_read_split_with_the_leaves_worked_out_by_hand(
        rows, wanted, monkeypatch):
    """The hand reading's means are fractions: a chain that reads them is read split by
    columns too, compared as they are, never by the descent."""
    forest = _little_forest()
    assert forest.leaves(rows).tolist() == wanted  # the descent

    def refused(self, x):
        raise AssertionError("read by the descent")

    monkeypatch.setattr(Forest, "_descend", refused)
    assert forest.leaves(rows, (1, 2)).tolist() == wanted


def test_a_forest_not_in_preorder_is_read_by_the_descent():
    forest = _little_forest()
    # Tree 1 with its children's places swapped in the arrays: the same tree, other order.
    order = [0, 1, 2, 3, 4, 5, 7, 6, 9, 8]
    moved = {old: new for new, old in enumerate(order)}
    shuffled = Forest(forest.feature[order], forest.threshold[order],
                      np.asarray([moved[int(n)] for n in forest.left[order]]),
                      np.asarray([moved[int(n)] for n in forest.right[order]]),
                      forest.value[order], forest.roots, 3, 3)
    rows = [[1, 0, 0], [1, 9, 1], [1, 3, 4]]
    assert shuffled.split_by((1, 2)) is None
    assert np.array_equal(shuffled.leaves(rows, (1, 2)), forest.leaves(rows))


def _shipped_forests() -> list[Forest]:
    chain = values.load(values.RUBBER)
    assert chain is not None
    forests = []
    link: values.CallValues | None = chain
    while link is not None:
        forests.append(link.forest)
        link = link.base
    return forests


def test_the_shipped_forests_read_split_and_together_give_the_descent_s_sums_to_the_bit():
    forests = _shipped_forests()
    assert {f.features for f in forests} == {len(NAMES), len(NAMES) + 2}  # both widths
    together = Forests(forests, CANDIDATE_COLUMNS)
    assert together.split is not None
    rng = np.random.default_rng(11)
    vary = [c for c in CANDIDATE_COLUMNS if c < together.features]  # the widest row's
    for n in (1, 2, 5, 13):
        for _ in range(20):
            x = np.tile(rng.integers(-1, 40, size=together.features), (n, 1)).astype(float)
            x[:, vary] = rng.integers(-1, 12, size=(n, len(vary)))
            alone = [f._descend(x[:, :f.features]).sum(axis=1) for f in forests]
            for f, sums in zip(forests, alone, strict=True):
                assert np.array_equal(f.predict(x[:, :f.features], CANDIDATE_COLUMNS), sums)
            assert all(np.array_equal(a, b)
                       for a, b in zip(together.predict(x), alone, strict=True))


def test_the_shipped_chain_that_reads_the_hand_reading_is_read_split_to_the_bit():
    """The duplicate chain's later rounds read the reading's means and our side's sums,
    which are fractions: read together and split by columns, each round's sums are the
    descent's."""
    chain = values.load(values.DEFAULT)
    assert chain is not None and chain.reading
    forests = []
    link: values.CallValues | None = chain
    while link is not None:
        forests.append(link.forest)
        link = link.base
    together = Forests(forests, CANDIDATE_COLUMNS)
    assert together.split is not None
    rng = np.random.default_rng(12)
    vary = [c for c in CANDIDATE_COLUMNS if c < together.features]
    fractions = list(range(len(NAMES), together.features))
    for n in (1, 4, 11):
        for _ in range(20):
            x = np.tile(rng.integers(-1, 40, size=together.features), (n, 1)).astype(float)
            x[:, vary] = rng.integers(-1, 12, size=(n, len(vary)))
            x[:, fractions] += rng.random(len(fractions)).round(3)
            x[:, [c for c in vary if c in fractions]] += 0.5
            split = together.split.readable(x)
            assert split is not None and split.dtype == np.float64
            alone = [f._descend(x[:, :f.features]).sum(axis=1) for f in forests]
            assert all(np.array_equal(a, b)
                       for a, b in zip(together.predict(x), alone, strict=True))


def _round_alone(link: values.CallValues, made, legal, vulnerable, score, known) -> str:
    """A round's call as each round read alone by the descent makes it (the chain as it
    was read before the rounds were read together)."""
    if score is None and link.rubber:
        return made.action if link.base is None else _round_alone(
            link.base, made, legal, vulnerable, score, known)
    if score is not None and not link.rubber and score.parts != (0, 0):
        return made.action
    reference = (made.action if link.base is None
                 else _round_alone(link.base, made, legal, vulnerable, score, known))
    if link.scope == "captain" and made.by_rule:
        return reference
    if link.scope == "contested" and not made.ctx.contested():
        return reference
    candidates = link.candidates(made, known, reference)
    if not candidates:
        return reference
    rows = Rows(made, vulnerable, reference, score if link.rubber else None, known)
    gains = link.forest.predict([rows.row(call) for call in candidates])
    best = max(range(len(candidates)), key=lambda i: (gains[i], -i))
    return candidates[best] if gains[best] >= link.margin else reference


def test_the_chain_read_together_makes_the_calls_of_its_rounds_read_one_by_one():
    """Over the decisions of random deals, on duplicate boards and at rubber scores with and
    without part scores, the shipped rubber chain's call is that of its rounds read alone."""
    chain = values.load(values.RUBBER)
    assert chain is not None
    rng = random.Random(21)
    decisions = changed = 0
    for n in range(36):
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        hands = [sorted(cards[i * 13:(i + 1) * 13]) for i in range(4)]
        score = (None, Score((0, 0), (0, 0)), Score((1, 0), (40, 0)),
                 Score((0, 1), (0, 60)))[n % 4]
        vulnerable = (n % 3 == 1, n % 2 == 1) if score is None else (
            score.vulnerable(0), score.vulnerable(1))
        auction = empty_auction(n % 4)
        while not auction.finished:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            made = decide(hands[seat], seat, auction.calls, legal, None, score)
            call = chain.better(made, legal, vulnerable, score)
            assert call == _round_alone(chain, made, legal, vulnerable, score,
                                        Candidates(made, legal))
            decisions += 1
            changed += call != made.action
            auction.call(seat, CALL_BY_TEXT[call])
    assert decisions > 300 and changed > 0
