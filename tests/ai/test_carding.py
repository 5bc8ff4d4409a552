"""What the cards played to others' leads say (`core.carding`), worked out by hand, and
that our card players do play the lowest of equal cards, as the reading assumes."""

from __future__ import annotations

import math

import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge import advanced
from bot.ai.bridge.advanced import AdvancedBridgePlayer, tricks_of
from bot.ai.core.carding import FALSE_CARD, follows_weigh, unheld
from bot.games import create
from bot.games.bridge import ContractBridge
from bot.games.bridge_view import DealRecord
from bot.games.cards import Card, parse_hand
from bot.tables.thinking import think_as_served
from tests.ai.helpers import (
    bridge_play_position,
    searched_with_and_without,
    weighs_asked,
)


def _trick(*plays: str) -> list[tuple[int, Card]]:
    """A trick from 'seat:card' texts, the leader first."""
    return [(int(seat), Card.parse(card)) for seat, card in (p.split(":") for p in plays)]


# North leads ♠2, East plays ♠J, South ♠A, West ♠3; South leads ♠4, West ♠5, North ♠6,
# East ♠Q; East leads ♥K, South ♥2, West ♥9, North ♥3; East leads ♦5, South plays ♦9.
TRICKS = [_trick("0:2S", "1:JS", "2:AS", "3:3S"),
          _trick("2:4S", "3:5S", "0:6S", "1:QS"),
          _trick("1:KH", "2:2H", "3:9H", "0:3H"),
          _trick("1:5D", "2:9D")]


def test_a_card_played_to_another_s_lead_denies_the_next_lower_card_still_out():
    shown = unheld(TRICKS)
    # East's ♠J denies the ♠T; its ♠Q, the ♠J gone, the ♠T again.
    assert shown[1] == {Card.parse("TS")}
    # South's ♠A denies the ♠K, its ♦9 the ♦8; its ♥2 nothing.
    assert shown[2] == {Card.parse("KS"), Card.parse("8D")}
    # West's ♠3 and ♠5 and North's ♠6 and ♥3 sit just above a card on the table (no
    # choice between equal cards); West's ♥9 denies the ♥8.
    assert shown[3] == {Card.parse("8H")}
    assert shown[0] == frozenset()


def test_leads_and_the_lowest_cards_still_out_show_nothing():
    assert unheld([_trick("0:KS")]) == (frozenset(),) * 4
    # North's ♠6 over the ♠5 to the ♠2, gone in an earlier trick: nothing lower is out.
    assert unheld([_trick("0:2S", "1:3S", "2:4S", "3:5S"),
                   _trick("3:AH", "0:6S")]) == (frozenset(),) * 4
    assert follows_weigh([_trick("0:KS", "1:2S")]) is None
    assert follows_weigh([[]]) is None


def test_a_hand_holding_a_denied_card_weighs_false_card_times_as_likely():
    weigh = follows_weigh(TRICKS)
    assert weigh is not None
    with_ten = [*parse_hand("JQT.AK.AK.AKQJ"), Card.parse("9S")]
    without = parse_hand("JQ9.AK.AK.AKQJ")
    assert weigh(1, [with_ten, without]) == pytest.approx([math.log(FALSE_CARD), 0.0])
    # Each denied card held counts.
    assert weigh(2, [parse_hand("AK.2.98.AKQJ98")]) == pytest.approx(
        [2 * math.log(FALSE_CARD)])
    assert weigh(0, [without]) == [0.0]


def _denied_held(record: DealRecord) -> list[tuple[int, Card]]:
    """Each (seat, card) where a seat held a card its plays to others' leads deny."""
    play = list(record.play)
    shown = unheld([play[i:i + 4] for i in range(0, len(play), 4)])
    return [(seat, card) for seat in range(4) for card in shown[seat]
            if card in record.hands[seat]]


@pytest.mark.parametrize("seed", range(8))
def test_the_rule_based_player_plays_the_lowest_of_equal_cards(seed):
    """A whole match by `bridge-basic` in all four seats, checked after every card."""
    game = create("bridge", seed=seed)
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    denials = 0
    while not game.finished:
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
        record = game.deal_record()
        assert _denied_held(record) == []
        play = list(record.play)
        denials += sum(map(len, unheld([play[i:i + 4] for i in range(0, len(play), 4)])))
    assert denials > 0


@pytest.mark.parametrize("seed", [3, 8])
def test_the_card_search_plays_the_lowest_of_equal_cards(seed):
    """Six tricks by `bridge-advanced` in all four seats, as served, at a small budget."""
    game = bridge_play_position(seed)
    assert isinstance(game, ContractBridge)
    players = [make_player("bridge", s, "bridge-advanced") for s in range(4)]
    while len(game.deal_record().play) < 24:
        seat = next(iter(game.to_act()))
        action, players[seat] = think_as_served(players[seat], game.view(seat),
                                                game.legal(seat), Budget(0.2))
        game.apply(seat, action)
    assert _denied_held(game.deal_record()) == []


def _in_trick_five(seed: int = 21) -> tuple:
    game = bridge_play_position(seed, cards_played=17)
    seat = next(iter(game.to_act()))
    return game.view(seat), game.legal(seat)


@pytest.mark.parametrize("read_follows", [True, False])
def test_the_player_weighs_by_the_cards_followed_only_when_it_reads_them(monkeypatch,
                                                                         read_follows):
    view, legal = _in_trick_five()
    asked = weighs_asked(monkeypatch, "follows_weigh", "read_follows", read_follows, view,
                         legal)
    assert asked == ([(tricks_of(view),)] if read_follows else [])


def test_the_player_as_served_reads_the_cards_followed(monkeypatch):
    asked = []
    monkeypatch.setattr(advanced, "follows_weigh", lambda tricks: asked.append(tricks))
    view, legal = _in_trick_five()
    action, back = think_as_served(make_player("bridge", 5, "bridge-advanced"), view, legal,
                                   Budget(5.0))
    assert action in legal and isinstance(back, AdvancedBridgePlayer) and back.read_follows
    assert asked == [tricks_of(view)]


def test_reading_the_cards_followed_changes_the_layouts_and_the_same_seed_chooses_the_same():
    view, legal = _in_trick_five()
    assert follows_weigh(tricks_of(view)) is not None  # some play here denies a card
    outcomes = searched_with_and_without("read_follows", view, legal)
    assert len(outcomes[True]) == 1 and len(outcomes[False]) == 1  # the same seed, the same
    assert outcomes[True] != outcomes[False]  # other layouts, other averages


def test_tricks_of_a_view_end_with_the_trick_in_progress():
    view, _ = _in_trick_five()
    tricks = tricks_of(view)
    assert [len(t) for t in tricks[:-1]] == [4] * (len(view.played) // 4)
    assert tricks[-1] == list(view.trick)
