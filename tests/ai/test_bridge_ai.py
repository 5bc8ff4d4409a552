"""The bridge computer players' rules: hand evaluation, the documented bidding system, the
card-play principles in constructed positions, and Single Dummy's estimates."""

from __future__ import annotations

import random

import pytest

from bot.ai.bridge.bidding import choose_call
from bot.ai.core.bridge_eval import hcp, is_balanced, shape, summarize, support_points
from bot.ai.core.bridge_play import PlaySituation, choose_card, winning_index
from bot.ai.single_dummy.bidding import choose_call as sd_call
from bot.ai.single_dummy.bidding import choose_dummy, hidden_estimate
from bot.games.bridge_auction import Auction, Bid, Call, Strain
from bot.games.cards import Card, Suit, cards, parse_hand

N, E, S, W = 0, 1, 2, 3


def bid(hand: str, calls: str = "", dealer: int = N, me: int = S) -> str:
    """The call chosen by the system for `me` after `calls` (space-separated, from dealer)."""
    auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
    for text in calls.split():
        auction.call(auction.to_call(), Call.parse(text))
    assert auction.to_call() == me
    return choose_call(parse_hand(hand), me, auction.calls, auction.legal_texts(me))[0]


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


# The bidding system's rules are tested in test_bridge_bidding.py.

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
