"""The opening lead's own budget and two-round search; layouts kept within a trick."""

from __future__ import annotations

import asyncio
import pickle
import random
from types import SimpleNamespace

from bot.ai import Budget, RandomPlayer, decision_seconds, make_player
from bot.ai.bridge import advanced
from bot.ai.bridge.advanced import AdvancedBridgePlayer, auction_ranges, decision
from bot.ai.core import card_search, dds, opening_lead
from bot.ai.core.card_search import MIN_LAYOUTS, search
from bot.ai.core.kept_layouts import keep, reusable
from bot.ai.core.layouts import Knowledge
from bot.ai.core.opening_lead import LEAD_LAYOUTS, planned_lead_layouts, search_lead
from bot.games import create
from bot.games.cards import FULL_DECK, Card, Suit, cards
from bot.tables.thinking import ThinkingPool


def _game_at(cards_played: int, seed: int = 11):
    """A Contract Bridge game after the auction and `cards_played` cards (basic players),
    at a seat with a choice."""
    game = create("bridge", seed=seed)
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    while (game.phase == "bidding" or len(game.deal_record().play) < cards_played
           or len(game.legal(next(iter(game.to_act())))) < 2):
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
    return game


def _at(game):
    seat = next(iter(game.to_act()))
    return game.view(seat), game.legal(seat)


# -- the opening lead's budget ----------------------------------------------------------

def test_the_opening_lead_has_a_budget_of_its_own() -> None:
    lead_view, _ = _at(_game_at(0))
    later_view, _ = _at(_game_at(5))
    player = AdvancedBridgePlayer(1)
    assert decision_seconds(player, lead_view, 0.8) == 0.8 * advanced.LEAD_FACTOR == 2.0
    assert decision_seconds(player, later_view, 0.8) == 0.8
    assert decision_seconds(RandomPlayer(1), lead_view, 0.8) == 0.8  # no seconds_for


class _Recording:
    """A player that records the budget it was given."""

    kind = "recording"

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def seconds_for(self, view: object, seconds: float) -> float:
        return seconds * 3 if view == "lead" else seconds

    def choose(self, view, legal, budget=None) -> str:
        assert budget is not None
        self.seconds.append(budget.seconds)
        return legal[0]


def test_the_tables_give_a_decision_the_budget_its_player_asks_for() -> None:
    pool = ThinkingPool(0.5, processes=0, threads=1)
    told: list[float] = []
    pool.on_decision = lambda kind, took, seconds, ran_out: told.append(seconds)
    player = _Recording()
    try:
        asyncio.run(pool.choose(player, "lead", ["a"]))
        asyncio.run(pool.choose(player, "card", ["a"]))
    finally:
        pool.close()
    assert player.seconds == [1.5, 0.5] and told == [1.5, 0.5]


def test_the_lead_plans_its_layouts_from_its_budget() -> None:
    assert planned_lead_layouts(Budget(2.0)) == LEAD_LAYOUTS >= 100
    assert MIN_LAYOUTS <= planned_lead_layouts(Budget(0.8)) < LEAD_LAYOUTS
    assert planned_lead_layouts(Budget(2.0, thinkers=8)) < LEAD_LAYOUTS  # a busy machine
    assert planned_lead_layouts(None) == 0


# -- the opening lead's two rounds ------------------------------------------------------

def _lead_decision():
    view, legal = _at(_game_at(0))
    return decision(view, legal, auction_ranges(view))


def _stand_in_solver(cost: float, calls: list[tuple[int, bool]]):
    """Scores a lead by its rank alone (the 2 takes 2 tricks, the ace 14 capped at 13)
    and reports `cost` seconds of work a position; `calls` gets (positions, every_card)."""
    def solve_counted(positions, every_card=True):
        calls.append((len(positions), every_card))
        out = []
        for p in positions:
            if not p.trick:
                out.append({c: min(13, int(c.rank)) for c in p.hands[p.leader]})
            else:  # the next hand's best after the lead: the tricks the lead leaves
                reply = p.hands[p.to_play][0]
                out.append({reply: 13 - min(13, int(p.trick[0].rank))})
        return out, round(len(positions) * cost / dds.NODE_SECONDS)
    return solve_counted


def _frozen_thread_clock(monkeypatch) -> None:
    # Dealing counts in the lead's work by the thread's CPU clock: frozen, the stop
    # depends on the solver's reported work alone.
    monkeypatch.setattr(opening_lead, "time", SimpleNamespace(thread_time=lambda: 0.0))


def test_a_cheap_lead_solves_every_planned_layout_for_the_two_best_groups(
        monkeypatch) -> None:
    _frozen_thread_clock(monkeypatch)
    lead = _lead_decision()
    calls: list[tuple[int, bool]] = []
    monkeypatch.setattr(dds, "solve_counted", _stand_in_solver(0.001, calls))
    outcome = search_lead(lead, Budget(2.0, clock=lambda: 0.0), random.Random(4))
    assert outcome is not None and outcome.layouts == LEAD_LAYOUTS
    best = max(lead.legal, key=lambda c: (min(13, int(c.rank)), -int(c.rank)))
    assert outcome.tricks[outcome.card] == outcome.tricks[best]
    every = sum(n for n, whole in calls if whole)
    after = sum(n for n, whole in calls if not whole)
    assert every == opening_lead.FIRST_ROUND  # every lead scored on the first round only
    # Its batches stay small (a layout's cost has a long tail): 1, 2, 3, then 3 at most.
    assert [n for n, whole in calls if whole] == [1, 2, 3, 3, 3]
    assert after == 2 * (LEAD_LAYOUTS - opening_lead.FIRST_ROUND)  # two leads a layout


def test_a_costly_lead_stops_on_the_solvers_measured_work(monkeypatch) -> None:
    _frozen_thread_clock(monkeypatch)
    lead = _lead_decision()
    calls: list[tuple[int, bool]] = []
    monkeypatch.setattr(dds, "solve_counted", _stand_in_solver(0.2, calls))
    outcome = search_lead(lead, Budget(2.0, clock=lambda: 0.0), random.Random(4))
    # 1, 2, 3 layouts (1.2 s of the 1.44 s the lead may fill: LEAD_USE of the budget's
    # 1.8 s planned share); six more would pass it: the first
    # round stops short, and with it the search (no later round on a pruning so thin).
    assert outcome is not None and outcome.layouts == 6
    assert calls == [(1, True), (2, True), (3, True)]


def test_the_same_seed_leads_the_same_card(monkeypatch) -> None:
    _frozen_thread_clock(monkeypatch)
    lead = _lead_decision()
    monkeypatch.setattr(dds, "solve_counted", _stand_in_solver(0.001, []))
    first = search_lead(lead, Budget(2.0, clock=lambda: 0.0), random.Random(8))
    again = search_lead(lead, Budget(2.0, clock=lambda: 0.0), random.Random(8))
    assert first is not None and again is not None
    assert (first.card, first.layouts, first.values) == (again.card, again.layouts,
                                                         again.values)


# -- layouts kept within a trick --------------------------------------------------------

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
    game = _game_at(9)
    view, legal = _at(game)
    now = decision(view, legal, auction_ranges(view))
    fresh = card_search.sample(now.know, 6, random.Random(2)).hands
    outcome = search(now, Budget(0.8, clock=lambda: 0.0), random.Random(5), kept=fresh[:4])
    assert outcome is not None and outcome.hands[:4] == tuple(fresh[:4])


def test_the_player_keeps_its_layouts_within_the_trick_and_still_pickles() -> None:
    # Declarer's two cards of a trick: dummy's, then his own (or the reverse).
    game = _game_at(6)
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
