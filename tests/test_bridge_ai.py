"""The bridge computer players' rules: hand evaluation, the documented bidding system, the
card-play principles in constructed positions, and Single Dummy's estimates."""

from __future__ import annotations

import random

import pytest

from bot.ai.bridge_bidding import Bidder
from bot.ai.bridge_eval import hcp, is_balanced, shape, summarize, support_points
from bot.ai.bridge_play import PlaySituation, choose_card, winning_index
from bot.ai.single_dummy_bidding import choose_call as sd_call
from bot.ai.single_dummy_bidding import choose_dummy, hidden_estimate
from bot.games.bridge_auction import Auction, Bid, Call, Strain
from bot.games.cards import Card, Suit, cards, parse_hand

N, E, S, W = 0, 1, 2, 3


def bid(hand: str, calls: str = "", dealer: int = N, me: int = S) -> str:
    """The call chosen by the system for `me` after `calls` (space-separated, from dealer)."""
    auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
    for text in calls.split():
        auction.call(auction.to_call(), Call.parse(text))
    assert auction.to_call() == me
    legal = auction.legal_calls(me)
    call = Bidder(random.Random(0)).choose(parse_hand(hand), auction.calls, me, legal)
    return call.text


# -- hand evaluation -------------------------------------------------------------------

def test_high_card_points_count_a4_k3_q2_j1() -> None:
    assert hcp(parse_hand("AKQJ.AKQJ.AKQJ.A")) == 3 * 10 + 4
    assert hcp(parse_hand("T98.765.432.T9876")) == 0
    summary = summarize(parse_hand("AKJ752.K3.Q4.943"))
    assert (summary.hcp, summary.points) == (13, 15)  # six spades: two length points


def test_support_points_value_shortness_outside_trumps() -> None:
    hand = parse_hand("K.J8752.AT876.98")  # singleton spade, doubleton club
    assert support_points(hand, Suit.DIAMONDS) == 2 + 1
    assert support_points(parse_hand(".J8752.AT8764.98"), Suit.HEARTS) == 3 + 1


def test_balanced_shapes_have_no_singleton_and_at_most_one_doubleton() -> None:
    assert is_balanced(parse_hand("AK3.K32.Q942.943"))
    assert is_balanced(parse_hand("AK32.K32.Q9.9432"))
    assert not is_balanced(parse_hand("AK32.K32.9.QJ432"))  # a singleton
    assert not is_balanced(parse_hand("AK32.K3.Q9.J9432"))  # two doubletons
    assert shape(parse_hand("AKJ752.K3.Q4.943")) == (6, 3, 2, 2)


# -- the bidding system ----------------------------------------------------------------

def test_opens_1nt_with_15_to_17_balanced() -> None:
    assert bid("AQ3.KJ4.Q972.K84", dealer=S) == "bid:1NT"  # 15
    assert bid("AQ3.KJ4.Q972.AK4", dealer=S) == "bid:1D"  # 19: too strong for 1NT


def test_opens_a_five_card_major_else_the_better_minor() -> None:
    assert bid("AKJ74.K32.Q4.943", dealer=S) == "bid:1S"
    assert bid("AK74.KQ32.Q4.943", dealer=S) == "bid:1C"  # no five-card major
    assert bid("AK74.KQ32.Q943.4", dealer=S) == "bid:1D"


def test_opener_passes_with_6_hcp_and_no_long_suit() -> None:
    assert bid("Q74.K32.J954.943", dealer=S) == "pass"


def test_responder_raises_partner_major_with_a_fit_by_points() -> None:
    opened = "bid:1H pass"
    assert bid("K74.Q852.J92.943", opened) == "bid:2H"  # 6-9: simple raise
    assert bid("K74.Q852.AJ92.94", opened) == "bid:3H"  # 10-12 with shortness: limit
    assert bid("A74.Q852.AJ92.K4", opened) == "bid:4H"  # 13+: game


def test_responder_passes_under_6_points() -> None:
    assert bid("974.852.J92.Q943", "bid:1H pass") == "pass"


def test_responder_bids_1nt_with_6_to_9_and_no_fit() -> None:
    assert bid("7.KJ3.Q9542.J943", "bid:1S pass") == "bid:1NT"


def test_responder_bids_a_new_suit_at_the_one_level_with_6_plus() -> None:
    assert bid("KJ74.Q32.943.943", "bid:1C pass") == "bid:1S"


def test_responder_bids_game_over_1nt_with_the_combined_points() -> None:
    assert bid("K74.Q852.AJ2.943", "bid:1NT pass") == "bid:3NT"  # 10 + 16 = 26
    assert bid("K74.Q852.J92.943", "bid:1NT pass") == "pass"  # 6 + 16 = 22


def test_opener_bids_game_after_a_raise_when_the_combined_points_are_there() -> None:
    raised = "bid:1S pass bid:2S pass"
    assert bid("AKJ74.AK3.Q4.943", raised, dealer=S) == "bid:4S"  # 18 + 7.5
    assert bid("AKJ74.K32.Q4.943", raised, dealer=S) == "pass"  # 14 + 7.5


def test_small_slam_needs_33_points() -> None:
    assert bid("AK4.KQ52.AQ2.K43", "bid:1NT pass") == "bid:6NT"  # 21 + 16
    assert bid("AK4.Q852.AJ2.K43", "bid:1NT pass") == "bid:6NT"  # 17 + 16
    assert bid("AK4.Q852.J92.K43", "bid:1NT pass") == "bid:3NT"  # 13 + 16


def test_overcall_needs_a_good_five_card_suit() -> None:
    assert bid("AQJ74.K32.94.943", "bid:1C", dealer=E) == "bid:1S"
    assert bid("97432.AK2.K4.Q43", "bid:1C", dealer=E) == "pass"  # a poor suit


def test_doubles_the_opponents_with_a_trump_stack() -> None:
    stack = "32.KQT9.Q954.A32"
    # Partner (North) opened, East overcalled 2H, South holds K Q T 9 of hearts.
    assert bid(stack, "bid:1S bid:2H", dealer=N) == "double"
    assert bid("32.8765.Q954.A32", "bid:1S bid:2H", dealer=N) != "double"


def test_bidding_is_deterministic_for_a_seed() -> None:
    hand = "AKJ74.K32.Q4.943"
    assert len({bid(hand, "bid:1H pass") for _ in range(3)}) == 1


# -- card play ---------------------------------------------------------------------------

def situation(hand: str, trick: str = "", trump: Suit | None = None, declaring: bool = False,
              **extra: object) -> PlaySituation:
    held = tuple(cards(hand))
    played = tuple(cards(trick))
    led = played[0].suit if played else None
    legal = tuple(c for c in held if c.suit == led) if led is not None else held
    return PlaySituation(hand=held, legal=legal or held, trick=played, trump=trump,
                         declaring=declaring, **extra)  # type: ignore[arg-type]


def test_second_hand_plays_low() -> None:
    sit = situation("KH 7H 2H AS 5C", trick="5H")
    assert choose_card(sit) == Card.parse("2H")


def test_third_hand_plays_high_with_the_cheapest_of_equal_cards() -> None:
    sit = situation("KD QD 3D 7S", trick="4D 9D")
    assert choose_card(sit) == Card.parse("QD")


def test_fourth_hand_wins_as_cheaply_as_possible() -> None:
    sit = situation("AS QS 4S 2H", trick="5S 3S JS")
    assert choose_card(sit) == Card.parse("QS")


def test_does_not_overtake_partners_winning_card() -> None:
    sit = situation("AC 2C 7D", trick="4C KC 7C")
    assert choose_card(sit) == Card.parse("2C")


def test_third_hand_does_not_overtake_partners_master() -> None:
    sit = situation("KC 2C 7D", trick="AC 3C")
    assert choose_card(sit) == Card.parse("2C")


def test_discards_from_the_weakest_suit() -> None:
    sit = situation("AS KS 9D 3D 2D QH", trick="4C KC 7C")  # void in clubs, partner wins
    assert choose_card(sit) == Card.parse("2D")


def test_ruffs_with_the_lowest_trump_when_void() -> None:
    sit = situation("9S 4S 2D QH", trick="AC", trump=Suit.SPADES)
    assert choose_card(sit) == Card.parse("4S")


def test_declarer_draws_trumps_while_the_opponents_hold_some() -> None:
    sit = situation("AS KS QS 4S AH 7H 3D 2C", trump=Suit.SPADES, declaring=True,
                    partner=tuple(cards("JS 8S 3S KH 5D 4C 3C")))
    lead = choose_card(sit)
    assert lead.suit == Suit.SPADES and lead.rank >= 12


def test_declarer_cashes_winners_once_trumps_are_drawn() -> None:
    gone = frozenset(c for c in cards("TS 9S 7S 6S 5S 2S") + cards("JS 8S 3S"))
    sit = situation("AH 7H 3D 2C", trump=Suit.SPADES, declaring=True,
                    partner=tuple(cards("KH 5D 4C 3C")), played=gone)
    assert choose_card(sit) == Card.parse("AH")


def test_declarer_ruffs_a_loser_in_the_short_hand() -> None:
    sit = situation("7H 6H 4C", trump=Suit.SPADES, declaring=True,
                    partner=tuple(cards("9S 5D 3C")),
                    played=frozenset(cards("AS KS QS JS TS")))
    assert choose_card(sit).suit == Suit.HEARTS  # North has no hearts but a trump


def test_opening_lead_top_of_a_sequence() -> None:
    sit = situation("KS QS JS 4S 8H 4H 3H TD 9D 2D QC 5C 3C", first_lead=True)
    assert choose_card(sit) == Card.parse("KS")


def test_opening_lead_fourth_best_against_notrump() -> None:
    sit = situation("KS 9S 7S 5S 2S 8H 4H 3H QD 6D 2D AC 3C", first_lead=True)
    assert choose_card(sit) == Card.parse("5S")


def test_opening_lead_in_partners_suit() -> None:
    sit = situation("KS 9S 7S 5S 2S 8H 4H QD 6D 2D AC 3C 2C", first_lead=True,
                    partner_suits=(Suit.HEARTS,))
    assert choose_card(sit).suit == Suit.HEARTS


def test_winning_index_knows_trumps() -> None:
    assert winning_index(cards("AH 2S KH"), Suit.SPADES) == 1
    assert winning_index(cards("AH 2S KH"), None) == 0


# -- Single Dummy estimates ---------------------------------------------------------------

def test_hidden_dummy_is_half_of_the_unseen_cards() -> None:
    mine = parse_hand("AKQ.AKQ.AKQJ.AKQ")
    shown = parse_hand("JT9.JT9.T98.JT9")
    estimate = hidden_estimate(mine, shown)
    assert estimate.hcp == 0 and estimate.lengths == (3.5, 3.0, 3.5, 3.5)


def test_takes_the_revealed_dummy_when_it_fits_the_strain() -> None:
    mine = parse_hand("AQ974.K32.Q4.943")
    assert choose_dummy(mine, parse_hand("KJ83.A54.K82.J72"), Strain.SPADES) == "dummy:revealed"
    assert choose_dummy(mine, parse_hand("2.9876.98765.T65"), Strain.SPADES) == "dummy:hidden"


def test_single_dummy_bids_with_strength_and_passes_without() -> None:
    legal = [Call.parse("pass")] + [Call.of(Bid(level, s)) for level in range(1, 8)
                                    for s in Strain]
    rng = random.Random(1)
    strong = sd_call(parse_hand("AKQ74.KQ2.A4.943"), parse_hand("J83.A54.K82.QJ72"),
                     None, True, 0, legal, rng)
    assert strong.bid is not None and strong.bid.level >= 1
    weak = sd_call(parse_hand("9874.852.J92.943"), parse_hand("J83.654.832.J762"),
                   None, True, 0, legal, rng)
    assert weak.kind == "pass"


@pytest.mark.parametrize("seed", [0, 1])
def test_single_dummy_never_outbids_itself(seed: int) -> None:
    legal = [Call.parse("pass")] + [Call.of(Bid(level, s)) for level in range(3, 8)
                                    for s in Strain]
    call = sd_call(parse_hand("AKQ74.KQ2.A4.943"), parse_hand("J83.A54.K82.QJ72"),
                   Bid(2, Strain.SPADES), False, 0, legal, random.Random(seed))
    assert call.kind == "pass"
