"""The bidding system's game and part-score decisions in auctions the opponents leave to
us (issue 15): one test per rule, with the explanation people see."""

from __future__ import annotations

import pytest

from tests.ai.test_bridge_bidding import N, call


@pytest.mark.parametrize(("hand", "calls", "expected", "says"), [
    # 1NT–2NT, and 2NT after Stayman found no fit: game with 16–17, pass with 15
    ("AKJ2.A9.QJ85.Q83", "1NT pass 2NT pass", "bid:3NT", "accepts the invitation: a maximum"),
    ("AKJ2.A9.QJ85.T83", "1NT pass 2NT pass", "pass", "declines the invitation: a minimum"),
    ("KJ6.K95.AJ97.KJ9", "1NT pass 2C pass 2D pass 2NT pass", "bid:3NT",
     "accepts the invitation: a maximum"),
    # Stayman answered 2♠, then 2NT: partner holds four hearts, not spades
    ("AKJ2.A9.QJ85.T83", "1NT pass 2C pass 2S pass 2NT pass", "pass",
     "declines the invitation: a minimum"),
    ("AKJ2.A9.QJ85.Q83", "1NT pass 2C pass 2S pass 2NT pass", "bid:3NT",
     "accepts the invitation: a maximum"),
    # a transfer to hearts then notrump is about hearts, whatever opener's spades
    ("AKJ2.Q92.KJ5.Q83", "1NT pass 2D pass 2H pass 3NT pass", "bid:4H",
     "3+ hearts: the 8-card fit"),
    ("AKJ2.Q9.KJ54.Q83", "1NT pass 2D pass 2H pass 3NT pass", "pass",
     "2 hearts: notrump"),
])
def test_rule(hand: str, calls: str, expected: str, says: str) -> None:
    assert call(hand, calls, N) == (expected, says)
