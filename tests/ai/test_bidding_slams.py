"""The bidding system's slam decisions and contested auctions (issue 15): one test per
rule, a hand and an auction where it speaks, with the explanation people see."""

from __future__ import annotations

import pytest

from bot.ai.bridge.learning.features import honest, honest_candidates
from tests.ai.test_bridge_bidding import N, S, W, call
from tests.ai.test_learned_bidding import _decision


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
     "Roman Key Card Blackwood: asks for the aces and the king of trumps, "
     "slam values: 11+ points"),
    # with a minor agreed the captain asks for key cards from 32 (3NT is the game it
    # gives up)
    ("63.AK7.AQT73.AJ8", "1C pass 2D pass 2NT pass 3D pass 4D pass", N, "bid:4NT",
     "Roman Key Card Blackwood: asks for the aces and the king of trumps, "
     "slam values: 17+ points"),
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


def test_a_key_card_ask_shows_slam_values_so_a_weak_hand_is_never_offered_it() -> None:
    """The captain asks from 30 points together (partner counted at what it is expected
    to hold), so the ask's reading promises the rest: a 4NT chosen by value, not by the
    captain, from a hand with none (before: a 3–7 HCP hand bid 4NT, then 6♦) is outside
    its explanation and never a candidate; the captain's own ask stays inside it."""
    # 1♥ (2♦) 2♥ (4♦) pass: 4NT is the cheapest notrump bid, a candidate by that alone
    calls = [(0, "bid:1H"), (1, "bid:2D"), (2, "bid:2H"), (3, "bid:4D"), (0, "pass"),
             (1, "pass")]
    weak, legal = _decision("83.K954.J8732.54", calls, seat=2)
    assert "bid:4NT" in legal and not honest(weak, "bid:4NT")
    assert "bid:4NT" not in honest_candidates(weak, legal)
    strong, _ = _decision("QJ843.Q87.A5.A94", [(0, "bid:1D"), (1, "pass"), (2, "bid:1S"),
                                              (3, "pass"), (0, "bid:2NT"), (1, "pass"),
                                              (2, "bid:3S"), (3, "pass"), (0, "bid:4S"),
                                              (1, "pass")], seat=2)
    assert strong.action == "bid:4NT" and honest(strong, "bid:4NT")
