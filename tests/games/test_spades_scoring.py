"""Spades scoring, row by row (docs/rules.md "Spades": scoring each hand, bags)."""

from __future__ import annotations

import pytest

from bot.games.spades_scoring import (
    DOUBLE_NIL,
    NIL,
    bag_penalty,
    bid_label,
    bid_text,
    score_deal,
    score_side,
)

# (bids of the two partners, their tricks, side points, bags)
SIDE_ROWS = [
    # no nil: one contract, the sum of both bids
    ((3, 4), (3, 4), 70, 0),  # made exactly
    ((3, 4), (5, 4), 72, 2),  # two overtricks
    ((3, 4), (7, 0), 70, 0),  # the partners' tricks pool
    ((3, 4), (2, 4), -70, 0),  # set by one
    ((6, 7), (6, 6), -130, 0),  # set: 10 x contract against
    ((1, 1), (6, 7), 31, 11),  # 11 overtricks
    ((13, 1), (13, 0), -140, 0),
    # a nil bidder is scored alone; their tricks do not help the partner
    ((NIL, 4), (0, 4), 140, 0),
    ((NIL, 4), (0, 6), 142, 2),
    ((NIL, 4), (2, 3), -140, 0),  # nil set, partner set on own tricks
    ((NIL, 4), (3, 4), -60, 0),  # nil set: its three tricks are not bags
    ((4, NIL), (4, 0), 140, 0),  # either partner may bid nil
    ((DOUBLE_NIL, 3), (0, 3), 230, 0),
    ((DOUBLE_NIL, 3), (1, 5), -168, 2),  # -200 + 30 + 2 overtricks (2 bags)
    ((NIL, NIL), (0, 0), 200, 0),
    ((NIL, NIL), (0, 5), 0, 0),
    ((DOUBLE_NIL, NIL), (0, 1), 100, 0),
]


@pytest.mark.parametrize(("bids", "tricks", "points", "bags"), SIDE_ROWS)
def test_side_scores_row_by_row(bids, tricks, points, bags):
    result = score_side(bids, tricks)
    assert result.points == points
    assert result.bags == bags


def test_double_nil_set_partner_overtricks_are_bags():
    result = score_side((DOUBLE_NIL, 3), (1, 5))
    assert result.points == -200 + 32
    assert result.bags == 2


def test_nil_is_scored_alone():
    # The nil bidder's own +100 / -100 and the partner's bid on the partner's tricks only.
    assert score_side((NIL, 5), (0, 5)).points == 100 + 50
    assert score_side((NIL, 5), (1, 4)).points == -100 - 50


def test_nil_bidders_tricks_do_not_count_for_partner():
    # Partner bid 5 and took 4; the nil bidder's 3 tricks would have made it.
    assert score_side((NIL, 5), (3, 4)).points == -100 - 50


def test_nil_bidders_tricks_are_not_bags():
    assert score_side((NIL, 2), (4, 2)).bags == 0
    assert score_side((NIL, NIL), (6, 7)).bags == 0


def test_double_nil_scores_200():
    assert score_side((DOUBLE_NIL, 1), (0, 1)).points == 200 + 10
    assert score_side((DOUBLE_NIL, 1), (2, 1)).points == -200 + 10


def test_set_contract_scores_ten_per_trick_bid_against():
    assert score_side((5, 4), (4, 4)).points == -90


def test_overtricks_score_one_each():
    assert score_side((2, 2), (4, 3)).points == 43
    assert score_side((2, 2), (4, 3)).bags == 3


@pytest.mark.parametrize(("before", "added", "lost"), [
    (0, 9, 0), (0, 10, 100), (9, 1, 100), (9, 0, 0), (8, 13, 200), (10, 9, 0),
    (19, 1, 100), (25, 4, 0), (25, 5, 100),
])
def test_bag_penalty_each_time_bags_reach_a_multiple_of_ten(before, added, lost):
    assert bag_penalty(before, added) == lost


def test_bags_penalty_option_on_and_off_in_a_deal_score():
    bids, tricks = (2, 2, 2, 2), (5, 3, 3, 2)  # N-S 8 on 4: 4 bags; E-W 5 on 4: 1 bag
    off = score_deal(bids, tricks, bags_before=(7, 9), bags_penalty=False)
    on = score_deal(bids, tricks, bags_before=(7, 9), bags_penalty=True)
    assert off.points == (44, 41)
    assert off.bags == on.bags == (4, 1)
    assert on.penalties == (100, 100)
    assert on.points == (44 - 100, 41 - 100)


def test_score_deal_pairs_seats_across_the_table():
    # North (0) and South (2) are partners, East (1) and West (3).
    deal = score_deal((NIL, 3, 4, 2), (0, 3, 6, 4))
    assert deal.points == (100 + 42, 52)
    assert deal.bags == (2, 2)


@pytest.mark.parametrize(("bid", "text", "label"), [
    (NIL, "nil", "Nil"), (DOUBLE_NIL, "double_nil", "Double Nil"), (7, "7", "7")])
def test_bid_texts(bid, text, label):
    assert bid_text(bid) == text
    assert bid_label(bid) == label
