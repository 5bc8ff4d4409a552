from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.cards import (
    FULL_DECK,
    Card,
    Rank,
    Seat,
    Suit,
    card,
    deal_hands,
    deck,
    format_deal,
    format_hand,
    parse_deal,
    parse_hand,
)
from bot.games.tricks import follow_error, legal_follow, trick_winner


def test_every_card_round_trips_through_its_text():
    for c in FULL_DECK:
        assert Card.parse(c.text) is c
        assert str(c) == c.text
    assert len(set(FULL_DECK)) == 52


def test_cards_are_interned_and_ten_has_two_spellings():
    assert Card(Suit.HEARTS, Rank.TEN) is card("TH") is card("10h")
    assert card("QH").label == "Q♥"
    assert card("TS").label == "10♠"


@pytest.mark.parametrize("bad", ["", "1H", "QX", "QHH", "ZZ"])
def test_bad_card_text_is_refused_with_a_reason(bad):
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)


@given(st.permutations(list(FULL_DECK)))
def test_pbn_deal_round_trip(order):
    hands = {Seat(i): order[i * 13:(i + 1) * 13] for i in range(4)}
    text = format_deal(hands)
    back = parse_deal(text)
    for seat in Seat:
        assert sorted(back[seat]) == sorted(hands[seat])
    assert format_hand(parse_hand("AKQ2.J43.T9.8765")) == "AKQ2.J43.T9.8765"


def test_seat_helpers():
    assert Seat.NORTH.next is Seat.EAST
    assert Seat.WEST.next is Seat.NORTH
    assert Seat.EAST.partner is Seat.WEST
    assert Seat.SOUTH.lho is Seat.WEST
    assert Seat.SOUTH.rho is Seat.EAST


def test_seeded_dealing_is_deterministic_and_complete():
    a = deal_hands(random.Random(5), FULL_DECK, 4, 13)
    b = deal_hands(random.Random(5), FULL_DECK, 4, 13)
    assert a == b
    assert sorted(c for h in a for c in h) == sorted(FULL_DECK)
    assert len(deck(r for r in Rank if r >= Rank.NINE)) == 24


def test_trick_winner_without_trump_is_highest_of_suit_led():
    trick = [(0, card("5H")), (1, card("AS")), (2, card("KH")), (3, card("2H"))]
    assert trick_winner(trick) == 2


def test_trick_winner_with_trump_is_highest_trump():
    trick = [(0, card("5H")), (1, card("2S")), (2, card("AH")), (3, card("3S"))]
    assert trick_winner(trick, Suit.SPADES) == 3
    assert trick_winner(trick, Suit.CLUBS) == 2


def test_follow_suit_legality():
    hand = [card("AH"), card("2H"), card("KS")]
    assert legal_follow(hand, Suit.HEARTS) == [card("AH"), card("2H")]
    assert legal_follow(hand, Suit.CLUBS) == hand
    assert legal_follow(hand, None) == hand
    assert follow_error(hand, Suit.HEARTS, card("KS")) == (
        "You must follow suit: you hold a heart (♥).")
    assert follow_error(hand, Suit.HEARTS, card("AH")) is None
    assert "do not hold" in (follow_error(hand, None, card("QD")) or "")
