"""Reading the opening lead: the card search's layouts weighed by the lead model's chance of
leading the card led from the leader's hand in each (`leads.lead_weigh`), worked out by
hand; no weight before the lead, for the leader or without the models; the player asking
for it (and not with it off, and as served, where it is on), and the same seed giving the
same card as served."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge import advanced
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.bidding.system import context_of
from bot.ai.bridge.learning import leads, reading
from bot.ai.core.layouts import joined
from bot.games.bridge_auction import CALL_BY_TEXT, Contract, Strain
from bot.games.cards import Card, parse_hand
from bot.tables.thinking import think_as_served
from tests.ai.helpers import (
    bridge_play_position,
    searched_once_with,
    searched_with_and_without,
)

# 1NT by North, 3NT by South; East (1) is on lead.
CALLS = tuple((seat, CALL_BY_TEXT[text]) for seat, text in (
    (0, "bid:1NT"), (1, "pass"), (2, "bid:3NT"), (3, "pass"), (0, "pass"), (1, "pass")))
CONTRACT = Contract(3, Strain.NOTRUMP, 0)
SOLID_SPADES = parse_hand("KQJT9.732.84.652")
SOLID_HEARTS = parse_hand("K32.KQJT9.84.652")


def _chance(hand: tuple[Card, ...], led: Card) -> float:
    """The model's log-chance of leading `led` from `hand`, worked out from its scores."""
    model = leads.shared()
    assert model is not None
    ctx = context_of(1, CALLS)
    read = leads.read_of(hand, ctx, (False, False))
    assert read is not None
    scores = np.array(model.scores(hand, ctx, CONTRACT, (False, False), hand, read))
    tempered = scores / leads.LEAD_TEMPER
    return float(tempered[hand.index(led)] - math.log(np.exp(tempered).sum()))


def test_a_hand_weighs_the_model_s_chance_of_leading_the_card_led_from_it():
    led = Card.parse("KS")
    weigh = leads.weigh_lead(1, led, CALLS, None, (False, False), CONTRACT)
    spades, hearts = weigh(1, [SOLID_SPADES, list(reversed(SOLID_HEARTS))])
    assert spades == pytest.approx(_chance(tuple(sorted(SOLID_SPADES)), led))
    assert hearts == pytest.approx(_chance(tuple(sorted(SOLID_HEARTS)), led))  # any order
    assert weigh(1, [SOLID_HEARTS]) == [hearts]  # each hand alone as in a batch
    # The king from K-Q-J-10-9 is likelier than from K-3-2 beside solid hearts.
    assert spades > hearts + 1
    assert spades <= 0.0  # a chance
    for seat in (0, 2, 3):  # only the leader's hand is read by the lead
        assert weigh(seat, [SOLID_SPADES, SOLID_HEARTS]) == [0.0, 0.0]
    assert weigh(1, []) == []


def test_a_deal_reads_each_hand_once_and_keeps_a_bounded_number(monkeypatch):
    read = []
    lead_rows = leads.lead_rows

    def counting(hand, *rest):
        read.append(hand)
        return lead_rows(hand, *rest)

    monkeypatch.setattr(leads, "lead_rows", counting)
    monkeypatch.setattr(leads, "KNOWN_HANDS", 2)
    led = Card.parse("KS")
    weigh = leads.weigh_lead(1, led, CALLS, None, (False, False), CONTRACT, 0.123)
    first = weigh(1, [SOLID_SPADES, SOLID_HEARTS, SOLID_SPADES])
    assert first[0] == first[2] and len(read) == 2  # a hand twice in a batch: read once
    assert weigh(1, [list(reversed(SOLID_HEARTS))]) == [first[1]] and len(read) == 2
    other = parse_hand("KJ2.KQJT9.84.652")
    assert len(weigh(1, [other])) == 1 and len(read) == 3  # past the bound: kept anew
    assert weigh(1, [SOLID_SPADES]) == [first[0]] and len(read) == 4
    # A batch of a kept hand and a new one past the bound: the kept ones go, and the
    # whole batch is read anew.
    assert weigh(1, [SOLID_SPADES, SOLID_HEARTS]) == first[:2] and len(read) == 6


def test_weights_join_by_adding_their_log_weights():
    def one(seat, hands):
        return [float(seat)] * len(hands)

    def two(seat, hands):
        return [float(len(cards)) for cards in hands]

    both = joined(one, None, two)
    assert both is not None and both(3, [SOLID_SPADES, SOLID_SPADES[:5]]) == [16.0, 8.0]
    assert joined(None, one, None) is one
    assert joined(None, None) is None


def _after_the_lead(seed: int = 1):
    """A deal just after its opening lead, where the next seat has a choice."""
    while True:
        game = bridge_play_position(seed)
        leader = next(iter(game.to_act()))
        view, legal = game.view(leader), game.legal(leader)
        assert leads.is_opening_lead(view)
        assert leads.lead_weigh(view) is None  # no lead yet
        game.apply(leader, legal[0])
        if len(game.legal(next(iter(game.to_act())))) > 1:
            break
        seed += 1
    assert leads.lead_weigh(game.view(leader)) is None  # the leader knows its own hand
    return game, leader, Card.parse(legal[0][5:])


def test_after_the_lead_the_others_weigh_the_leader_s_hand_by_it():
    game, leader, led = _after_the_lead()
    for seat in range(4):
        if seat == leader:
            continue
        weigh = leads.lead_weigh(game.view(seat))
        assert weigh is not None
        view = game.view(seat)
        dealt = [game.dealt[leader]]
        assert weigh(leader, dealt) == leads.weigh_lead(
            leader, led, tuple(view.calls), None, view.vulnerable, view.contract)(leader, dealt)
        assert weigh(leader, dealt)[0] < 0.0
        assert weigh((leader + 1) % 4, dealt) == [0.0]


def test_without_the_lead_model_or_the_hand_reading_there_is_no_lead_weight(monkeypatch):
    game, leader, _ = _after_the_lead()
    view = game.view((leader + 1) % 4)
    monkeypatch.setattr(leads.SHELF, "loaded", {leads.DEFAULT: None})
    assert leads.lead_weigh(view) is None
    monkeypatch.setattr(leads.SHELF, "loaded", {})
    monkeypatch.setattr(reading.SHELF, "loaded", {reading.DEFAULT: None})
    assert leads.lead_weigh(view) is None


def _in_trick_five(seed: int = 2):
    """A position after four tricks: the search plans its most layouts at once there, so a
    budget larger than it needs costs no more time (and the test's load cannot spend it)."""
    game = bridge_play_position(seed, 16)
    seat = next(iter(game.to_act()))
    return game.view(seat), game.legal(seat)


@pytest.fixture
def asked(monkeypatch) -> list:
    """The views the player asks the lead's weight for."""
    views = []
    lead_weigh = leads.lead_weigh

    def spy(v):
        views.append(v)
        return lead_weigh(v)

    monkeypatch.setattr(advanced.leads, "lead_weigh", spy)
    return views


@pytest.mark.parametrize("read_lead", [True, False])
def test_the_player_asks_for_the_lead_s_weight_only_when_it_reads_the_lead(asked, read_lead):
    view, legal = _in_trick_five()
    searched_once_with("read_lead", read_lead, view, legal)
    assert len(asked) == int(read_lead)


def test_the_lead_s_weight_changes_the_layouts_and_the_same_seed_chooses_the_same():
    # Seed 3's position: at seed 2's, with the defenders' signals read as served, the
    # lead's weight leaves every card's average as it was.
    view, legal = _in_trick_five(3)
    outcomes = searched_with_and_without("read_lead", view, legal)
    assert len(outcomes[True]) == 1 and len(outcomes[False]) == 1  # the same seed, the same
    assert outcomes[True] != outcomes[False]  # other layouts, other averages


def test_the_player_as_served_reads_the_lead(asked):
    view, legal = _in_trick_five()
    action, back = think_as_served(make_player("bridge", 5, "bridge-advanced"), view, legal,
                                   Budget(5.0))
    assert action in legal and isinstance(back, AdvancedBridgePlayer) and back.read_lead
    assert len(asked) == 1
