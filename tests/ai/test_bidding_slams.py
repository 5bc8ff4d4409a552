"""The bidding system's slam decisions and contested auctions (issue 15): one test per
rule, a hand and an auction where it speaks, with the explanation people see."""

from __future__ import annotations

import pytest

from tests.ai.test_bridge_bidding import N, S, W, call


@pytest.mark.parametrize(("hand", "calls", "dealer", "expected", "says"), [
    # an artificial 2♣ agrees no clubs: no slam bid in them on the expected points
    ("9872..K843.J9542", "pass pass 2C pass 2D 2H 3NT pass", S, "bid:5C",
     "4+ clubs, to play in game"),
    # Stayman found the fit: 14+ support points opposite 15–17 ask for key cards, and
    # the answer 5♣ agrees no clubs with the Stayman 2♣ (spades stay the trumps)
    ("AT73.J.643.AQJ85", "pass 1NT pass 2C pass 2S pass", W, "bid:4NT",
     "Roman Key Card Blackwood: 4+ spades, 14+ points"),
    ("AT73.J.643.AQJ85", "pass 1NT pass 2C pass 2S pass 4NT pass 5C pass", W, "bid:6S",
     "small slam: at most one key card missing"),
    ("AT73.J86.643.AQ8", "pass 1NT pass 2C pass 2S pass", W, "bid:4S",
     "to play game: 4+ spades, 10+ HCP, up to 13 points"),
    # a major agreed after opener's 2NT (18–19): 32 together ask for key cards
    ("QJ843.Q87.A5.A94", "1D pass 1S pass 2NT pass 3S pass 4S pass", W, "bid:4NT",
     "Roman Key Card Blackwood: asks for the aces and the king of trumps"),
    # with a minor agreed the captain asks for key cards from 32 (3NT is the game it
    # gives up)
    ("63.AK7.AQT73.AJ8", "1C pass 2D pass 2NT pass 3D pass 4D pass", N, "bid:4NT",
     "Roman Key Card Blackwood: asks for the aces and the king of trumps"),
    # 1NT–2♣–2♦–4NT: no suit shown to ask in (Stayman's 2♣ and 2♦ show none), so the
    # 4NT is the quantitative one the table bid, not a key-card ask in diamonds
    ("AQ3.QJ4.J972.AK4", "1NT pass 2C pass 2D pass 4NT pass", N, "bid:6NT",
     "accepts the slam invitation: 16+ HCP"),
    ("AQ3.QJ4.J972.K84", "1NT pass 2C pass 2D pass 4NT pass", N, "pass",
     "declines the slam invitation"),
    # one key card missing: the small slam
    ("QJ843.Q87.A5.A94", "1D pass 1S pass 2NT pass 3S pass 4S pass 4NT pass 5C pass", W,
     "bid:6S", "small slam: at most one key card missing"),
    # game in a major partner has not shown is a long suit
    ("T.QT6543.KT432.5", "pass pass pass 2C 2S", N, "bid:4H",
     "6+ hearts, to play in game"),
])
def test_rule(hand: str, calls: str, dealer: int, expected: str, says: str) -> None:
    assert call(hand, calls, dealer) == (expected, says)


def test_no_key_card_ask_where_partner_would_read_it_in_another_suit() -> None:
    """1♣–1♥–1♠: South's fit is clubs (six opposite three), but the latest suit one of us
    bid is North's spades, and a 4NT would be read as an ask in spades (South holds one):
    the captain bids the club slam itself. (Before: 4NT, then 6♠ in a 4–1 fit.)"""
    made, says = call("5.AQT95.J.KQ7643", "1C pass 1H pass 1S pass", N)
    assert made == "bid:6C" and "slam" in says
