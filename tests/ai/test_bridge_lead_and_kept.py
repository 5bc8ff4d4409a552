"""Layouts kept within a trick."""

from __future__ import annotations

import pickle
import random

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer, auction_ranges, decision
from bot.ai.core import card_search
from bot.ai.core.card_search import search
from bot.ai.core.kept_layouts import keep, reusable
from bot.ai.core.layouts import Knowledge
from bot.games.cards import FULL_DECK, Card, Suit, cards
from tests.ai.helpers import bridge_play_position


def _at(game):
    seat = next(iter(game.to_act()))
    return game.view(seat), game.legal(seat)


def _deal() -> tuple[tuple[Card, ...], ...]:
    deck = list(FULL_DECK)
    random.Random(3).shuffle(deck)
    return tuple(tuple(deck[i::4]) for i in range(4))


def _knowledge(hands, gone: dict[int, list[Card]], voids=None) -> Knowledge:
    """What South (2) knows with North (0) as dummy, after the cards `gone` by seat."""
    now = [tuple(c for c in hand if c not in gone.get(s, [])) for s, hand in enumerate(hands)]
    return Knowledge(known=(now[0], None, now[2], None), unseen=now[1] + now[3],
                     sizes=tuple(len(h) for h in now),
                     voids=voids or (frozenset(),) * 4)


def _swapped(hands, east_card: Card, west_card: Card):
    """The deal with one card of East and one of West exchanged."""
    east = tuple(west_card if c == east_card else c for c in hands[1])
    west = tuple(east_card if c == west_card else c for c in hands[3])
    return (hands[0], east, hands[2], west)


def test_a_card_played_by_a_hidden_seat_keeps_only_the_layouts_that_gave_it_that_card(
        ) -> None:
    hands = _deal()
    played = hands[1][0]  # East plays it
    wrong = _swapped(hands, played, hands[3][0])  # a layout with it in West's hand
    kept = keep(deal=1, trick=2, played=0, layouts=[hands, wrong])
    trick = [(0, hands[0][0]), (1, played)]
    know = _knowledge(hands, {0: [hands[0][0]], 1: [played]})
    again = reusable(kept, 1, 2, trick, know)
    assert len(again) == 1
    assert [set(h) for h in again[0]] == [set(h) for h in (
        know.known[0], tuple(c for c in hands[1] if c != played), know.known[2], hands[3])]


def test_a_shown_void_drops_the_layouts_that_hold_the_suit() -> None:
    hands = tuple(tuple(cards(text)) for text in (
        "2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 8D 9D TD",  # North (dummy)
        "JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH",  # East: no club
        "6C 7C 8C 9C TC JH QH KH AH 2S 3S 4S 5S",  # South
        "JC QC KC AC 6S 7S 8S 9S TS JS QS KS AS"))  # West
    wrong = _swapped(hands, Card.parse("AD"), Card.parse("JC"))  # East with the jack
    kept = keep(1, 0, 0, [hands, wrong])
    lead, discard = Card.parse("2C"), Card.parse("QD")  # East shows out of clubs
    voids = (frozenset(), frozenset({Suit.CLUBS}), frozenset(), frozenset())
    know = _knowledge(hands, {0: [lead], 1: [discard]}, voids)
    again = reusable(kept, 1, 0, [(0, lead), (1, discard)], know)
    assert len(again) == 1 and Card.parse("JC") in again[0][3]


def test_a_new_trick_or_deal_drops_the_kept_layouts() -> None:
    hands = _deal()
    kept = keep(1, 2, 0, [hands])
    know = _knowledge(hands, {})
    assert len(reusable(kept, 1, 2, [], know)) == 1
    assert reusable(kept, 1, 3, [], know) == []
    assert reusable(kept, 2, 2, [], know) == []
    assert reusable(None, 1, 2, [], know) == []


def test_the_search_solves_the_kept_layouts_first(monkeypatch) -> None:
    game = bridge_play_position(cards_played=9)
    view, legal = _at(game)
    now = decision(view, legal, auction_ranges(view))
    fresh = card_search.sample(now.know, 6, random.Random(2)).hands
    outcome = search(now, Budget(0.8, clock=lambda: 0.0), random.Random(5), kept=fresh[:4])
    assert outcome is not None and outcome.hands[:4] == tuple(fresh[:4])


def test_the_player_keeps_its_layouts_within_the_trick_and_still_pickles() -> None:
    # Declarer's two cards of a trick: dummy's, then his own (or the reverse).
    game = bridge_play_position(cards_played=6)
    record = game.deal_record()
    assert record.contract is not None
    declarer = record.contract.declarer
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    while next(iter(game.to_act())) != declarer or len(game.legal(declarer)) < 2:
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
    view, legal = game.view(declarer), game.legal(declarer)
    player = AdvancedBridgePlayer(3)
    action = player.choose(view, legal, Budget(0.8, clock=lambda: 0.0))
    assert player.kept is not None and player.kept.trick == len(view.played) // 4
    assert len(player.kept.masks) == player.last_layouts > 0
    back = pickle.loads(pickle.dumps(player))
    assert back.kept == player.kept and len(pickle.dumps(player.kept)) < 4000
    # The same seed at the same position (its kept layouts with it) plays the same card.
    assert AdvancedBridgePlayer(3).choose(view, legal, Budget(0.8, clock=lambda: 0.0)) \
        == action
    # At the next trick, nothing kept is reused: a fresh decision's layouts replace them.
    while len(game.deal_record().play) // 4 == len(view.played) // 4 or \
            next(iter(game.to_act())) != declarer or len(game.legal(declarer)) < 2:
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
    later = game.view(declarer)
    know = decision(later, game.legal(declarer), auction_ranges(later)).know
    assert reusable(back.kept, later.deal_no, len(later.played) // 4, later.trick, know) == []
