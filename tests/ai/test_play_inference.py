"""Weighing layouts by the play: the position a card was played in, rebuilt on a layout;
which cards are read; a layout on which a card read was a double-dummy mistake weighs less;
the opening lead read by the rules that would have led it."""

from __future__ import annotations

import pytest

from bot.ai import make_player
from bot.ai.bridge.advanced import auction_ranges, decision
from bot.ai.core import dds, play_inference
from bot.ai.core.play_inference import Reading, position_before, readable, weights
from bot.games import create
from bot.games.cards import FULL_DECK, Card, cards

N, E, S, W = 0, 1, 2, 3


def _history(text: str, leader: int) -> list[tuple[int, Card]]:
    """Cards played in order, in turn from `leader` (enough here: only the seats of the
    first trick, and who chose each card, matter)."""
    played = cards(text)
    return [((leader + i) % 4, card) for i, card in enumerate(played)]


# One trick played (N led ♠2, E ♠3, S ♠6, W ♠4); three cards each now, notrump.
HISTORY = _history("2S 3S 6S 4S", N)
NOW_W_HELD_THE_ACE = (cards("KH QH JH"), cards("2H 3H 4H"), cards("2D 3D 4D"),
                      cards("AS 5H 6H"))
NOW_W_WAS_VOID = (cards("KH QH JH"), cards("2H 3H 4H"), cards("2D 3D 4D"),
                  cards("AH 5H 6H"))


def _hands(layout):
    return tuple(tuple(hand) for hand in layout)


def test_the_position_a_card_was_played_in_is_rebuilt_on_the_layout() -> None:
    position = position_before(HISTORY, _hands(NOW_W_HELD_THE_ACE), 3, None)
    assert position is not None
    assert position.leader == N and position.trick == tuple(cards("2S 3S 6S"))
    assert position.to_play == W and set(position.hands[W]) == set(cards("AS 4S 5H 6H"))
    dds.check_position(position)  # sizes agree with the trick in progress


def test_a_forced_card_is_not_read() -> None:
    # West held no other spade: the ♠4 was forced and tells nothing.
    assert position_before(HISTORY, _hands(NOW_W_WAS_VOID), 3, None) is None


def test_the_cards_read_are_the_hidden_hands_choices_newest_first() -> None:
    history = _history("2S 3S 4S 5S 6H 7H", N)
    declarer_sees = (cards("KH"), None, cards("2D"), None)  # South declarer, North dummy
    assert [r.index for r in readable(history, declarer_sees, S)] == [5, 3, 1]
    # East, a defender, sees dummy (North): declarer's choices from dummy are read too.
    defender_sees = (cards("KH"), cards("2H"), None, None)
    assert [r.index for r in readable(history, defender_sees, E)] == [4, 3, 2]


def test_a_layout_on_which_a_card_read_threw_a_trick_away_weighs_less() -> None:
    # Where West held the ♠A beside the ♠4, the ace takes this trick, which the four
    # leaves to South's ♠6 (and South then runs its diamonds): the four does not fit it.
    reading = [Reading(3, W, Card.parse("4S"))]
    layouts = [_hands(NOW_W_HELD_THE_ACE), _hands(NOW_W_WAS_VOID)]
    out = weights(HISTORY, reading, layouts, None, allowance=10.0, cost=lambda held: 0.01)
    assert out == [pytest.approx(play_inference.MISFIT), 1.0]


def test_the_opening_lead_is_read_by_the_rules_that_would_have_led_it() -> None:
    # After a rule-based opening lead, declarer weighs a layout by whether the rules lead
    # that suit from the leader's hand as dealt: the real hand fits; a hand without the
    # suit cannot.
    game = create("bridge", seed=3)
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    while game.phase == "bidding":
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
    leader = next(iter(game.to_act()))
    dealt = game.deal_record().hands[leader]
    lead = basic[leader].choose(game.view(leader), game.legal(leader))
    game.apply(leader, lead)
    declarer = (leader + 3) % 4
    view = game.view(declarer)
    now = decision(view, game.legal(declarer) if declarer in game.to_act() else
                   [f"play:{c.text}" for c in view.hand], auction_ranges(view))
    assert now.lead_fits is not None and now.lead_fits(tuple(dealt))
    led = Card.parse(lead[5:]).suit
    others = tuple(c for c in FULL_DECK if c.suit != led)[:13]
    assert not now.lead_fits(others)
    assert now.history == ((leader, Card.parse(lead[5:])),)
