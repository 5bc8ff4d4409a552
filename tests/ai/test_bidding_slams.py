"""The bidding system's slam decisions and contested auctions (issue 15): one test per
rule, a hand and an auction where it speaks, with the explanation people see."""

from __future__ import annotations

import pytest

from bot.ai.bridge.bidding import read_auction
from tests.ai.test_bridge_bidding import E, N, S, W, auction_of, call


@pytest.mark.parametrize(("hand", "calls", "dealer", "expected", "says"), [
    # an artificial 2♣ agrees no clubs (6♣ was bid on the expected points), and the weak
    # hand leaves slam to the 2♣ opener's open range
    ("9872..K843.J9542", "pass pass 2C pass 2D 2H 3NT pass", S, "pass",
     "nothing more to say"),
    # the captain's game in partner's suit where it could have asked for key cards says
    # it has too little for slam, and partner with no more than it showed leaves it
    ("J7.T2.AQ643.QJ64", "1H pass 2D pass 3H pass", E, "bid:4H",
     "support for hearts, to play in game: no slam interest (up to 12 points)"),
    ("T63.AKJ98743..A3", "1H pass 2D pass 3H pass 4H pass", E, "pass",
     "nothing more to say"),
    # the weaker hand opposite an open range bids game and leaves slam to the strong one
    ("T832.AQJ42.T62.7", "2D double pass 2H pass 2S pass", S, "bid:4S",
     "support for spades, to play in game: no slam interest (up to 17 points)"),
    ("AK954.K7.AJ95.KJ", "2D double pass 2H pass 2S pass 4S pass", S, "pass",
     "nothing more to say"),
    # contested raises: with no room for the jump below game, the simple raise invites too
    ("KJ2.8.Q743.K9732", "pass pass 1S 3H", N, "bid:3S", "3+ spades, 6–12 points"),
    # a raise to game over their overcall stops below the key-card ask, which 17+ makes
    ("AJ3.JT74.AQ95.Q6", "1H 3C", W, "bid:4H", "game: 3+ hearts, 13–16 points"),
    ("542.AKQ96.72.A83", "1H 3C 4H pass", W, "pass", "nothing more to say"),
    ("AJ3.KJT4.AQ95.Q6", "1H 3C", W, "bid:4NT",
     "Roman Key Card Blackwood: 3+ hearts, 17+ points"),
    # 2 key cards and a void answer 5NT; the asker with the trump king and one ace
    # missing bids the grand slam
    ("A642.AKJ87..KQ82", "1H pass 1S pass 4S pass 4NT pass", S, "bid:5NT",
     "Roman Key Card answer: 2 key cards and a void outside spades"),
    ("KQ975.T65.KJ3.A6", "1H pass 1S pass 4S pass 4NT pass 5NT pass", S, "bid:7S",
     "grand slam: partner's void covers the one missing ace"),
    ("QJ975.T65.KJ3.A6", "1H pass 1S pass 4S pass 4NT pass 5NT pass", S, "bid:6S",
     "small slam: at most one key card missing"),
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
    # the takeout doubler opposite a forced four-level answer (0–11, over a pre-empt)
    # asks only with 26+ support points (30 with what the answer shows), not 17+
    ("A.AK74.AK5.A9765", "pass pass 3S double pass 4H pass", S, "pass",
     "nothing more to say"),
    ("A.AK74.AKQ5.AK76", "pass pass 3S double pass 4H pass", S, "bid:4NT",
     "Roman Key Card Blackwood, extras opposite partner's game: 3+ hearts, 26+ support points and "
     "4+ hearts, or 26+ high-card points"),
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
    # every key card and the queen with 9+ trumps together: the grand slam (4 opposite
    # the opener's 5+ after Jacoby); with 8 the kings are asked for, or the small slam
    ("KQT.AKJ7.AJ93.K9", "1H pass 2NT pass 4H pass 4NT pass 5S pass", N, "bid:7H",
     "grand slam: all five key cards, the queen of hearts and 9+ trumps together"),
    ("QJ843.Q87.A5.A94", "1D pass 1S pass 2NT pass 3S pass 4S pass 4NT pass 5C pass", W,
     "bid:6S", "small slam: at most one key card missing"),
    # every key card but the queen not known, 9+ trumps: the cheapest other suit asks
    # for it; without it the trump suit, with it the next bid up; the grand with it
    ("K863.JT753.6.AJ5", "1D pass 1H pass 4H pass 4NT pass 5D pass", N, "bid:5S",
     "asks for the queen of hearts: all five key cards, 9+ trumps together, the queen not known"),
    ("A2.AKQ2.AQJ72.63", "1D pass 1H pass 4H pass 4NT pass 5D pass 5S pass", N, "bid:6S",
     "the queen of hearts"),
    ("A2.AKJ2.AQJ72.Q3", "1D pass 1H pass 4H pass 4NT pass 5D pass 5S pass", N, "bid:6H",
     "no queen of hearts"),
    ("K863.JT753.6.AJ5", "1D pass 1H pass 4H pass 4NT pass 5D pass 5S pass 6S pass", N,
     "bid:7H", "grand slam: every key card, the queen of hearts and 9+ trumps together"),
    ("K863.JT753.6.AJ5", "1D pass 1H pass 4H pass 4NT pass 5D pass 5S pass 6H pass", N,
     "pass", "small slam: the queen of trumps is missing"),
    ("K86.AT7532.6.AJ5", "1S pass 2H pass 4H pass 4NT pass 5C pass", N, "bid:5D",
     "asks for the queen of hearts: all five key cards, 9+ trumps together, the queen not known"),
    # game in a major partner has not shown is a long suit: opposite it the 2♣ opener
    # with four trumps and every key card counts 10 and asks for the queen
    ("T.QT6543.KT432.5", "pass pass pass 2C 2S", N, "bid:4H",
     "6+ hearts, to play in game"),
    ("AK.AK98.AJ75.AJ9", "pass pass pass 2C 2S 4H pass 4NT pass 5C pass", N, "bid:5D",
     "asks for the queen of hearts: all five key cards, 9+ trumps together, the queen not known"),
])
def test_rule(hand: str, calls: str, dealer: int, expected: str, says: str) -> None:
    assert call(hand, calls, dealer) == (expected, says)


def test_a_game_that_could_have_asked_is_read_as_below_slam() -> None:
    ranges = read_auction(E, auction_of("1H pass 2D pass 3H pass 4H pass", E).calls)
    assert ranges[W].strength() == (11, 12)  # two over one, 11+; no slam: up to 12
