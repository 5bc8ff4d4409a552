"""The bidding system's game and part-score decisions in auctions the opponents leave to
us (issue 15): one test per rule, with the explanation people see."""

from __future__ import annotations

import pytest

from bot.ai.bridge.bidding import explain_calls, read_auction
from bot.ai.bridge.bidding.captain import fit_points
from bot.ai.bridge.bidding.rules import Hand
from bot.ai.core.hand_range import HandRange
from bot.games.cards import Suit, parse_hand
from tests.ai.test_bridge_bidding import N, auction_of, call


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
    # a new suit over a two-over-one response is not a jump; the jump shift is one higher
    ("AQJ75.4.K3.KQ94", "1S pass 2D pass", "bid:3C", "4+ clubs, 12–18 points"),
    ("AKJ7.4.AQ3.KQJ94", "1C pass 1H pass", "bid:2S",
     "jump shift: 4+ spades, 19+ points, forcing to game"),
    # responder's second call with invitational values and no fit: 2NT over partner's
    # suit; opener accepts with more than it was counted for (15+ of 12–18)
    ("K4.98754.A2.K752", "1D pass 1H pass 1S pass", "bid:2NT", "invites 3NT: 8–10 points"),
    ("QT76.4.A974.A653", "1C pass 1S pass 2C pass", "bid:2NT", "invites 3NT: 8–10 points"),
    ("AT63.K3.KJ873.AT", "1D pass 1H pass 1S pass 2NT pass", "bid:3NT", "to play in game"),
    ("AT63.K3.KJ873.QT", "1D pass 1H pass 1S pass 2NT pass", "pass", "nothing more to say"),
    # ... with three of partner's major and the values to accept (15+ support points
    # opposite 8–10), opener shows them: partner's 2NT may hold five of it
    ("AT63.KT3.KJ873.Q", "1D pass 1H pass 1S pass 2NT pass", "bid:3H",
     "3 hearts, accepts: game in hearts opposite five, else 3NT (forcing)"),
    ("AT63.K93.KJ87.Q3", "1D pass 1H pass 1S pass 2NT pass", "pass", "nothing more to say"),
    ("K4.98754.A2.K752", "1D pass 1H pass 1S pass 2NT pass 3H pass", "bid:4H",
     "support for hearts, to play in game: no slam interest (up to 13 points)"),
    ("K4.9875.A2.K7524", "1D pass 1H pass 1S pass 2NT pass 3H pass", "bid:3NT",
     "to play in game"),
    # a minor's limit raise: 3NT on high cards (a doubleton does not count there); with
    # four trumps (nine together at least) the doubleton counts, in five of the minor
    ("T964.QJT.K85.AKT", "1C pass 3C pass", "pass",
     "declines the invitation: 12–13 high-card points"),
    ("T964.QJT.K8.AKT5", "1C pass 3C pass", "bid:5C",
     "accepts in clubs: 4+ trumps, 14+ support points"),
    ("T964.QJT2.K8.AKT", "1C pass 3C pass", "pass",
     "declines the invitation: 12–13 high-card points"),
    ("T964.QJT.K8.AKJ5", "1C pass 3C pass", "bid:3NT",
     "accepts the invitation: 14+ high-card points"),
    # opener raised once counts its trumps past the fourth as well as its shortness:
    # 13 high cards, two doubletons and five trumps make a game try, partner with a void
    # and four trumps accepts
    ("K8752.T2.AK96.K9", "1S pass 2S pass", "bid:3S", "game try: 16–18 points"),
    ("K8752.T32.AK9.K9", "1S pass 2S pass", "pass", "minimum: 12–15 points"),
    ("AJT3.J98543.T73.", "1S pass 2S pass 3S pass", "bid:4S",
     "accepts the game try: 9–10 points"),
    # ... and over the limit raise, 12–13 with shortness and a fifth trump accept
    ("KQ852.T32.AK9.95", "1S pass 3S pass", "bid:4S", "accepts the invitation: 14+ points"),
    ("KQ85.T32.AK92.95", "1S pass 3S pass", "pass",
     "declines the invitation: 12–13 points"),
    # a minimum with a singleton or void does not pass partner's 2NT invitation (without
    # or over their overcall): it shows its second suit, forcing, and partner places game
    ("AJ93.QJ3.5.QJ976", "1C pass 2NT pass", "bid:3S",
     "4+ spades, a singleton or void: not for notrump, forcing"),
    ("AJ93.QJ3.54.QJ97", "1C pass 2NT pass", "pass", "minimum: 12–13 points"),
    ("5.AKJ96.J4.QT876", "1H 2S 2NT pass", "bid:3C",
     "4+ clubs, a singleton or void: not for notrump, forcing"),
    ("AJ93.QJT3..QJ976", "1C 1D 2NT pass", "bid:3H",
     "4+ hearts, a singleton or void: not for notrump, forcing"),
    ("A963.T8.K63.A532", "1H 2S 2NT pass 3C pass", "bid:3NT", "to play in game"),
    # 2♣–2♦–2NT (22–24): Stayman and transfers as over a 2NT opening
    ("JT76.AKQ.AK3.AQJ", "2C pass 2D pass 2NT pass 3C pass", "bid:3S",
     "4+ spades, not four hearts"),
    ("Q8532.T985.962.2", "2C pass 2D pass 2NT pass 3C pass 3S pass", "bid:4S",
     "4+ spades, to play game"),
    ("JT7.AKQ6.AK3.AQJ", "2C pass 2D pass 2NT pass 3H pass", "bid:3S",
     "completes the transfer (2+ spades)"),
    ("AQ832.T95.962.82", "2C pass 2D pass 2NT pass 3H pass 3S pass", "bid:3NT",
     "exactly 5 spades, game values: choose"),
])
def test_rule(hand: str, calls: str, expected: str, says: str) -> None:
    assert call(hand, calls, N) == (expected, says)


def test_a_new_suit_over_two_over_one_is_read_as_12_to_18_points() -> None:
    """1♠–2♦–3♣ is the cheapest club bid: it shows 12–18, not a 19+ jump shift."""
    auction = auction_of("1S pass 2D pass 3C pass", N)
    assert explain_calls(auction.calls)[4] == "4+ clubs, 12–18 points"
    assert read_auction(N, auction.calls)[N].max_points == 18


def test_2nt_over_partners_overcall_is_not_read_as_the_uncontested_invitation() -> None:
    """The captain's 2NT over partner's suit is an invitation only when the opponents
    have left the auction to us."""
    auction = auction_of("pass 1D 2C double 2NT pass", N)
    assert explain_calls(auction.calls)[4] == "natural: notrump"


def test_the_captain_counts_shortness_only_in_dummy_and_not_in_partners_suit() -> None:
    """With a fit, the hand holding the trumps counts their length (not its shortness),
    and dummy's shortness in a suit partner bid is a misfit, worth nothing."""
    hand = Hand.of(parse_hand("K4.98754.A2.K752"))  # 10 high cards
    assert fit_points(hand, Suit.HEARTS, HandRange(min_len=(0, 0, 3, 0))) == 11
    three = Hand.of(parse_hand("K4.98754.A32.K75"))  # 10 high cards, three clubs
    assert fit_points(three, Suit.CLUBS, HandRange(min_len=(5, 0, 0, 0))) == 11
    assert fit_points(three, Suit.CLUBS, HandRange(min_len=(5, 0, 0, 4))) == 10


def test_dummy_with_two_trumps_counts_no_shortness() -> None:
    """Opposite a six-card suit, a doubleton trump is a fit but no ruffing value:
    1♠–1NT–3♠ with two spades and 7 high cards declines (it bid 4♠ counting a doubleton)."""
    hand = Hand.of(parse_hand("J9.J6.A87.J87653"))
    assert fit_points(hand, Suit.SPADES, HandRange(min_len=(0, 0, 0, 6))) == 7
    assert call("J9.J6.A87.J87653", "1S pass 1NT pass 3S pass", N)[0] == "pass"
