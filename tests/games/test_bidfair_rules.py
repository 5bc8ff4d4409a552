"""One test per Bid Fair ruling in docs/rules.md (deal, crib, bidding, contract, trump,
exchange)."""

from __future__ import annotations

import pytest

from bot.games import create
from bot.games.base import IllegalAction, InvalidOptions
from bot.games.bidfair import BidFair
from bot.games.bidfair_rank import CONTRACT_VALUES
from bot.games.cards import Rank, Suit, card, cards
from tests.games.bidfair_helpers import (
    A_CRIB_NORTH,
    A_CRIB_SOUTH,
    A_NORTH,
    A_SOUTH,
    NORTH,
    SOUTH,
    build_crib,
    deal_a,
    game_with,
    play_out,
    run,
)

# -- the deal and the crib ------------------------------------------------------------


def test_pack_is_24_cards_nine_to_ace_and_twelve_each() -> None:
    g = create("bidfair", seed=3)
    assert isinstance(g, BidFair)
    dealt = g.dealt[0] + g.dealt[1]
    assert len(g.dealt[0]) == len(g.dealt[1]) == 12
    assert len(set(dealt)) == 24
    assert {c.rank for c in dealt} == {Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN,
                                       Rank.KING, Rank.ACE}


def test_first_dealer_is_random_from_the_seed() -> None:
    dealers = {BidFair(seed=s).dealer for s in range(20)}
    assert dealers == {0, 1}
    assert all(BidFair(seed=s).dealer == BidFair(seed=s).dealer for s in range(5))


def test_stacked_hands_are_dealt_north_then_south() -> None:
    g = game_with(A_NORTH, A_SOUTH)
    assert set(g.view(NORTH).hand) == set(cards(A_NORTH))
    assert set(g.view(SOUTH).hand) == set(cards(A_SOUTH))


def test_both_players_build_the_crib_at_once() -> None:
    g = game_with(A_NORTH, A_SOUTH)
    assert g.to_act() == frozenset({NORTH, SOUTH})
    assert g.view(None).phase == "crib"
    assert g.view(None).turn is None
    for c in cards(A_CRIB_NORTH):
        g.apply(NORTH, f"crib:{c.text}")
    assert g.to_act() == frozenset({SOUTH})
    assert g.legal(NORTH) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        g.apply(NORTH, "crib:AS")


def test_each_player_puts_four_cards_in_the_crib_then_bidding_starts() -> None:
    g = game_with(A_NORTH, A_SOUTH)
    with pytest.raises(IllegalAction, match="do not hold"):
        g.apply(NORTH, "crib:AD")
    kinds = []
    for c_n, c_s in zip(cards(A_CRIB_NORTH), cards(A_CRIB_SOUTH), strict=True):
        kinds += [e.kind for e in g.apply(NORTH, f"crib:{c_n.text}")]
        kinds += [e.kind for e in g.apply(SOUTH, f"crib:{c_s.text}")]
    assert "crib_done" in kinds
    assert g.phase == "bidding"
    assert g.view(None).crib_count == 8
    assert len(g.hands[NORTH]) == len(g.hands[SOUTH]) == 8


# -- bidding paths --------------------------------------------------------------------


def test_bid_then_answer_the_dealer_outbids() -> None:
    g = deal_a(dealer=NORTH)
    assert g.to_act() == frozenset({SOUTH})  # the non-dealer places first
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS")])
    assert (g.bidder, g.holder, g.high, g.value) == (NORTH, SOUTH, Rank.KING, 80)
    assert g.phase == "exchange"


def test_bid_then_answer_the_dealer_places_face_down() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:QD"), (NORTH, "down:AS")])
    assert (g.bidder, g.holder, g.high, g.value) == (SOUTH, NORTH, Rank.QUEEN, 70)


def test_no_bid_then_the_dealer_may_bid_any_rank() -> None:
    g = deal_a(dealer=NORTH, cut="9S")
    run(g, [(SOUTH, "down:AD")])
    assert "pass" not in g.legal(NORTH)
    assert {a for a in g.legal(NORTH) if a.startswith("up:")} == {
        f"up:{c.text}" for c in g.hands[NORTH]}
    run(g, [(NORTH, "up:JH")])
    assert (g.bidder, g.holder, g.high, g.value) == (NORTH, SOUTH, Rank.JACK, 60)


def test_no_bid_twice_means_no_contract() -> None:
    g = deal_a(dealer=NORTH)
    kinds = run(g, [(SOUTH, "down:AD"), (NORTH, "down:AS")])
    assert g.holder is None and g.bidder is None and g.value is None and g.high is None
    assert "contract" in kinds and "trump" in kinds
    assert g.phase == "play"  # no exchange without a contract


def test_pass_then_the_dealer_bids_then_the_non_dealer_answers() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "pass")])
    assert g.to_act() == frozenset({NORTH})
    assert "pass" in g.legal(NORTH)
    run(g, [(NORTH, "up:QS")])
    assert g.to_act() == frozenset({SOUTH})
    assert "pass" not in g.legal(SOUTH)
    with pytest.raises(IllegalAction, match="outrank the Q♠"):
        g.apply(SOUTH, "up:JD")
    run(g, [(SOUTH, "up:AD")])
    assert (g.bidder, g.holder, g.high, g.value) == (SOUTH, NORTH, Rank.ACE, 90)


def test_pass_then_the_dealer_places_face_down_then_the_non_dealer_bids_any_rank() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "pass"), (NORTH, "down:AS")])
    assert "up:JD" in g.legal(SOUTH)
    run(g, [(SOUTH, "up:JD")])
    assert (g.bidder, g.holder, g.value) == (SOUTH, NORTH, 60)


def test_pass_pass_redeals_by_the_same_dealer() -> None:
    g = deal_a(dealer=SOUTH)
    before = g.dealt
    events = g.apply(NORTH, "pass") + g.apply(SOUTH, "pass")
    redeal = [e for e in events if e.kind == "redeal"]
    assert len(redeal) == 1 and redeal[0].dealer == SOUTH
    assert g.dealer == SOUTH and g.deal_no == 1 and g.redeals == 1
    assert g.phase == "crib" and g.to_act() == frozenset({NORTH, SOUTH})
    assert g.dealt != before  # collected and dealt again from the seeded generator
    assert len(set(g.dealt[0] + g.dealt[1])) == 24
    assert g.lines == []


def test_pass_pass_throws_the_deal_in_with_a_fixed_number_of_deals() -> None:
    g = deal_a(dealer=SOUTH, deals=3)
    events = g.apply(NORTH, "pass") + g.apply(SOUTH, "pass")
    assert [e.kind for e in events] == ["action", "action", "thrown_in", "deal_end", "deal_start"]
    assert g.lines[0].points == (0, 0) and "thrown in" in g.lines[0].note
    assert g.deal_no == 2 and g.redeals == 0 and not g.finished
    assert g.dealer == NORTH  # level scores: the deal alternates
    assert g.packs_dealt == 0  # a plain seed (fair deals count one pack a deal)


def test_dealers_answer_to_a_bid_must_outrank_it() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:QD")])
    msg = "Your bid must outrank the Q♦: play a king or an ace face up, or place a card face down."
    for weaker in ("up:QS", "up:JS"):  # equal rank does not outrank; suits do not matter
        with pytest.raises(IllegalAction) as err:
            g.apply(NORTH, weaker)
        assert str(err.value) == msg
        assert weaker not in g.legal(NORTH)
    assert {"up:KS", "up:AS", "up:KH", "up:AH"} <= set(g.legal(NORTH))
    assert g.placed[NORTH] is None  # the refusal changed nothing


def test_nothing_outranks_an_ace_bid() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:AD")])
    assert not [a for a in g.legal(NORTH) if a.startswith("up:")]
    with pytest.raises(IllegalAction, match="Nothing outranks the A♦"):
        g.apply(NORTH, "up:AS")


def test_only_the_non_dealer_passes_first_and_only_once() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:JD")])
    with pytest.raises(IllegalAction, match="may not pass"):
        g.apply(NORTH, "pass")
    g2 = deal_a(dealer=NORTH)
    run(g2, [(SOUTH, "pass"), (NORTH, "up:JS")])
    with pytest.raises(IllegalAction, match="may not pass"):
        g2.apply(SOUTH, "pass")


def test_each_player_places_exactly_one_card_and_keeps_seven() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "pass"), (NORTH, "down:AS"), (SOUTH, "down:AD")])
    assert len(g.hands[NORTH]) == len(g.hands[SOUTH]) == 7
    assert all(p is not None for p in g.placed)


# -- the contract ---------------------------------------------------------------------


def test_higher_face_up_bid_is_the_bidder_and_the_other_holds_the_contract() -> None:
    g = deal_a(dealer=SOUTH)  # North is the non-dealer here
    run(g, [(NORTH, "up:JS"), (SOUTH, "up:QD")])
    assert g.bidder == SOUTH and g.holder == NORTH
    assert g.high == Rank.QUEEN  # the high rank is the bidder's card rank


@pytest.mark.parametrize(("rank", "value"), [
    ("9", 40), ("T", 50), ("J", 60), ("Q", 70), ("K", 80), ("A", 90)])
def test_contract_values_table(rank: str, value: int) -> None:
    assert CONTRACT_VALUES[Rank.parse(rank)] == value
    g = game_with(A_NORTH, A_SOUTH, dealer=NORTH, cut="TS")
    build_crib(g, "KS QS JS TS", "KD QD JD TD")  # South keeps every club
    run(g, [(SOUTH, f"up:{rank}C"), (NORTH, "down:AS")])
    assert g.value == value and g.high == Rank.parse(rank)


# -- trump ----------------------------------------------------------------------------


def test_trump_is_the_suit_of_the_crib_top_card() -> None:
    g = deal_a(dealer=NORTH, cut="TH")
    events = run(g, [(SOUTH, "up:QD"), (NORTH, "down:AS")])
    assert g.cut == card("TH") and g.trump == Suit.HEARTS
    assert "trump" in events
    crib = set(cards(A_CRIB_NORTH) + cards(A_CRIB_SOUTH))
    assert set(g.remaining) == crib - {card("TH")} and len(g.remaining) == 7


def test_the_crib_shuffle_comes_from_the_seed() -> None:
    cuts = set()
    for seed in range(12):
        g = game_with(A_NORTH, A_SOUTH, dealer=NORTH, seed=seed)
        build_crib(g, A_CRIB_NORTH, A_CRIB_SOUTH)
        run(g, [(SOUTH, "down:AD"), (NORTH, "down:AS")])
        cuts.add(g.cut)
        assert g.cut in set(cards(A_CRIB_NORTH) + cards(A_CRIB_SOUTH))
    assert len(cuts) > 1


def test_trump_bid_bonus_40_goes_to_each_face_up_bid_of_the_trump_suit() -> None:
    g = deal_a(dealer=NORTH, cut="9D")
    events = []
    for seat, action in [(SOUTH, "up:QD"), (NORTH, "up:KS")]:
        events += g.apply(seat, action)
    trump = next(e for e in events if e.kind == "trump")
    assert trump.bonus == (SOUTH,)  # the holder's face-up bid counts too
    g.apply(SOUTH, "keep")
    play_out(g)
    line = g.lines[0]
    summary = g.previous
    assert summary is not None
    captured = summary.captured
    assert line.points[SOUTH] - captured[SOUTH] >= 40
    assert "40 for a face-up trump bid card: South" in line.note


# -- exchange and the lead ------------------------------------------------------------


def test_holder_may_exchange_hand_with_the_seven_remaining_crib_cards() -> None:
    g = deal_a(dealer=NORTH, cut="9D")
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS")])
    assert g.to_act() == frozenset({SOUTH})
    assert g.legal(SOUTH) == ["exchange", "keep"]
    old_hand = set(g.hands[SOUTH])
    crib = set(g.remaining)
    run(g, [(SOUTH, "exchange")])
    assert set(g.hands[SOUTH]) == crib and len(crib) == 7
    assert set(g.remaining) == old_hand
    assert g.view(SOUTH).set_aside and set(g.view(SOUTH).set_aside) == old_hand
    assert g.view(NORTH).set_aside == ()


def test_holder_may_keep_the_hand() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS")])
    hand = list(g.hands[SOUTH])
    run(g, [(SOUTH, "keep")])
    assert g.hands[SOUTH] == hand and g.exchanged is False


def test_the_bidder_may_not_exchange() -> None:
    g = deal_a(dealer=NORTH)
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS")])
    assert g.legal(NORTH) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        g.apply(NORTH, "exchange")


def test_holder_leads_the_first_trick() -> None:
    g = deal_a(dealer=SOUTH)  # North, the non-dealer, bids: South holds the contract
    run(g, [(NORTH, "up:KS"), (SOUTH, "down:AD"), (SOUTH, "keep")])
    assert g.holder == SOUTH and g.to_act() == frozenset({SOUTH})
    assert g.view(None).turn == SOUTH


def test_no_contract_the_non_dealer_leads() -> None:
    for dealer in (NORTH, SOUTH):
        g = deal_a(dealer=dealer)
        non_dealer = 1 - dealer
        run(g, [(non_dealer, "down:" + ("AS" if non_dealer == NORTH else "AD")),
                (dealer, "down:" + ("AS" if dealer == NORTH else "AD"))])
        assert g.to_act() == frozenset({non_dealer})


# -- options --------------------------------------------------------------------------


def test_game_target_is_800_by_default_and_bounded() -> None:
    assert BidFair().target == 800
    assert BidFair(options={"target": 300}).target == 300
    for bad in (0, 99, 5001):
        with pytest.raises(InvalidOptions):
            BidFair(options={"target": bad})


def test_class_attributes() -> None:
    assert (BidFair.NAME, BidFair.TITLE, BidFair.SEATS) == ("bidfair", "Bid Fair", 2)
    assert BidFair.SEAT_NAMES == ("North", "South") and BidFair.SIDES == ((0,), (1,))
