"""The bidding system's game and part-score decisions in auctions the opponents leave to
us (issue 15): one test per rule, with the explanation people see."""

from __future__ import annotations

import pytest

from bot.ai.bridge.bidding import explain_calls, read_auction
from tests.ai.test_bridge_bidding import N, auction_of, call


@pytest.mark.parametrize(("hand", "calls", "expected", "says"), [
    # 1NT–2NT, and 2NT after Stayman found no fit: game with 16–17, pass with 15
    ("AKJ2.A9.QJ85.Q83", "1NT pass 2NT pass", "bid:3NT", "accepts the invitation: 16+ HCP"),
    ("AKJ2.A9.QJ85.T83", "1NT pass 2NT pass", "pass", "declines the invitation"),
    ("KJ6.K95.AJ97.KJ9", "1NT pass 2C pass 2D pass 2NT pass", "bid:3NT",
     "accepts the invitation: 16+ HCP"),
    # Stayman answered 2♠, then 2NT: partner holds four hearts, not spades
    ("AKJ2.A9.QJ85.T83", "1NT pass 2C pass 2S pass 2NT pass", "pass",
     "declines the invitation"),
    ("AKJ2.A9.QJ85.Q83", "1NT pass 2C pass 2S pass 2NT pass", "bid:3NT",
     "accepts the invitation: 16+ HCP"),
    # a transfer to hearts then notrump is about hearts, whatever opener's spades
    ("AKJ2.Q92.KJ5.Q83", "1NT pass 2D pass 2H pass 3NT pass", "bid:4H",
     "the 8-card fit: 3+ hearts"),
    ("AKJ2.Q9.KJ54.Q83", "1NT pass 2D pass 2H pass 3NT pass", "pass",
     "notrump: 2 hearts"),
    # a new suit over a two-over-one response is not a jump; the jump shift is one higher
    ("AQJ75.4.K3.KQ94", "1S pass 2D pass", "bid:3C", "4+ clubs, 12–18 points"),
    ("AKJ7.4.AQ3.KQJ94", "1C pass 1H pass", "bid:2S",
     "jump shift, forcing to game: 4+ spades, 19+ points"),
    # a minor's limit raise: 3NT on high cards (a doubleton does not count there)
    ("T964.QJT.K8.AKT5", "1C pass 3C pass", "pass",
     "declines the invitation: up to 13 HCP"),
    ("T964.QJT.K8.AKJ5", "1C pass 3C pass", "bid:3NT",
     "accepts the invitation: 14+ HCP"),
])
def test_rule(hand: str, calls: str, expected: str, says: str) -> None:
    assert call(hand, calls, N) == (expected, says)


def test_a_new_suit_over_two_over_one_is_read_as_12_to_18_points() -> None:
    """1♠–2♦–3♣ is the cheapest club bid: it shows 12–18, not a 19+ jump shift."""
    auction = auction_of("1S pass 2D pass 3C pass", N)
    assert explain_calls(auction.calls)[4] == "4+ clubs, 12–18 points"
    assert read_auction(N, auction.calls)[N].max_points == 18
