"""The bidding system's slam decisions and contested auctions (issue 15): one test per
rule, a hand and an auction where it speaks, with the explanation people see."""

from __future__ import annotations

import pytest

from bot.ai.bridge.bidding import read_auction
from tests.ai.test_bridge_bidding import E, N, S, W, auction_of, call


@pytest.mark.parametrize(("hand", "calls", "dealer", "expected", "says"), [
    # an artificial 2♣ agrees no clubs: no slam bid in them on the expected points
    ("9872..K843.J9542", "pass pass 2C pass 2D 2H 3NT pass", S, "bid:5C",
     "4+ clubs, to play in game"),
    # the captain's game in partner's suit where it could have asked for key cards says
    # it has too little for slam, and partner with no more than it showed leaves it
    ("J7.T2.AQ643.QJ64", "1H pass 2D pass 3H pass", E, "bid:4H",
     "support for hearts, to play in game: no slam interest (up to 12 points)"),
    ("T63.AKJ98743..A3", "1H pass 2D pass 3H pass 4H pass", E, "pass",
     "nothing more to say"),
    # Stayman found the fit: 14+ support points opposite 15–17 ask for key cards, and
    # the answer 5♣ agrees no clubs with the Stayman 2♣ (spades stay the trumps)
    ("AT73.J.643.AQJ85", "pass 1NT pass 2C pass 2S pass", W, "bid:4NT",
     "Roman Key Card Blackwood: 4+ spades, 14+ points"),
    ("AT73.J.643.AQJ85", "pass 1NT pass 2C pass 2S pass 4NT pass 5C pass", W, "bid:6S",
     "small slam: at most one key card missing"),
    ("AT73.J86.643.AQ8", "pass 1NT pass 2C pass 2S pass", W, "bid:4S",
     "to play game: 4+ spades, 10+ HCP, up to 13 points"),
    # opposite opener's 2NT (18–19) five cards of responder's major are shown: the
    # 5–3 fit found, responder judges slam as a suit slam (14 points with the fifth
    # spade, 32 together: key cards)
    ("QJ843.Q87.A5.A94", "1D pass 1S pass 2NT pass", W, "bid:3S",
     "asks for three-card support: 5 spades, forcing"),
    ("AK5.A965.KQJ6.J2", "1D pass 1S pass 2NT pass 3S pass", W, "bid:4S",
     "the 8-card fit: 3+ spades"),
    ("AK.A965.KQJ6.J52", "1D pass 1S pass 2NT pass 3S pass", W, "bid:3NT",
     "notrump: 2 spades"),
    ("QJ843.Q87.A5.A94", "1D pass 1S pass 2NT pass 3S pass 4S pass", W, "bid:4NT",
     "Roman Key Card Blackwood: asks for the aces and the king of trumps"),
    # after our jump shift and opener's 2NT (12–14) the suit again asks for support; with
    # the minor agreed the captain asks for key cards from 32 (3NT is the game it gives
    # up), and with less bids five of it over the forcing raise
    ("63.AK7.AQT73.AJ8", "1C pass 2D pass 2NT pass", N, "bid:3D",
     "asks for three-card support: 5+ diamonds, forcing"),
    ("KQ.Q942.K92.Q542", "1C pass 2D pass 2NT pass 3D pass", N, "bid:4D",
     "the 8-card fit: 3+ diamonds, forcing"),
    ("KQ.Q942.K9.QJ542", "1C pass 2D pass 2NT pass 3D pass", N, "bid:3NT",
     "notrump: 2 diamonds"),
    ("63.AK7.AQT73.AJ8", "1C pass 2D pass 2NT pass 3D pass 4D pass", N, "bid:4NT",
     "Roman Key Card Blackwood: asks for the aces and the king of trumps"),
    ("63.K87.AQT73.AJ8", "1C pass 2D pass 2NT pass 3D pass 4D pass", N, "bid:5D",
     "support for diamonds, to play in game: no slam interest (up to 16 points)"),
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


def test_a_game_that_could_have_asked_is_read_as_below_slam() -> None:
    ranges = read_auction(E, auction_of("1H pass 2D pass 3H pass 4H pass", E).calls)
    assert ranges[W].strength() == (11, 12)  # two over one, 11+; no slam: up to 12
