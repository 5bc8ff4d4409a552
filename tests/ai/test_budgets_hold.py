"""The searching players keep to their budget, read on an injected clock that moves only
as they work: each play-out or exact search (each double-dummy layout or table for the
bridge games) costs one tick. In every kind of decision of whole matches (bids, double
nil, crib, placements, exchange, cards), a decision goes past its budget by at most the
work of one layout (one batch of layouts, no larger than the work before it, for the
double-dummy players), and the budget does cut the work short."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import bot.ai.core.dds
import bot.ai.core.search
from bot.ai import Budget, make_player
from bot.ai.bidfair.advanced import AdvancedBidFairPlayer
from bot.ai.bidfair.search import BidFairPosition
from bot.ai.spades.advanced import AdvancedSpadesPlayer
from bot.ai.spades.search import Position
from bot.ai.tennis.advanced import AdvancedTennisPlayer
from bot.ai.tennis.search import TennisPosition
from bot.games import create
from bot.games.base import Game

TICK = 0.01  # seconds on the injected clock per play-out or exact search
BUDGET = 0.2  # 20 ticks: well under what the players' counts ask for early in a deal
# The most ticks one layout costs: a Bid Fair crib weighs up to 15 plans, each played on
# both kept and exchanged.
LAYOUT_TICKS = 30


class WorkClock:
    """A clock that advances only when the search does a unit of work."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def tick(self) -> None:
        self.now += TICK


def charge(monkeypatch: pytest.MonkeyPatch, clock: WorkClock, owner: Any, name: str) -> None:
    """Make each call of `owner.name` cost one tick of `clock`."""
    work = getattr(owner, name)

    def charged(*args: Any, **kwargs: Any) -> Any:
        clock.tick()
        return work(*args, **kwargs)

    monkeypatch.setattr(owner, name, charged)


def play_on_budgets(game: Game, players: list[Any], clock: WorkClock,
                    stop: Callable[[Game], bool], seconds: float = BUDGET,
                    overrun: float = LAYOUT_TICKS * TICK) -> tuple[int, int]:
    """Play with a fresh budget on `clock` per decision, checking each overrun; returns
    (decisions, decisions the budget cut short)."""
    decisions = cut = 0
    while not game.finished and not stop(game):
        for seat in sorted(game.to_act()):
            if seat not in game.to_act():
                continue
            legal = game.legal(seat)
            budget = Budget(seconds, clock=clock)
            action = players[seat].choose(game.view(seat), legal, budget)
            assert action in legal
            assert budget.elapsed() <= seconds + overrun + 1e-9
            cut += budget.spent()
            decisions += 1
            game.apply(seat, action)
    return decisions, cut


# Per game: its look-ahead player, the work to charge (the fast play-out of its search
# positions, the exact search its card play calls), options, and deals to play.
GAMES = {
    "spades": (AdvancedSpadesPlayer, [(Position, "play_out"),
                                      (bot.ai.core.search, "exact_value")],
               {"target": 150}, 2),
    "tennis": (AdvancedTennisPlayer, [(TennisPosition, "play_out"),
                                      (bot.ai.core.search, "exact_value")], {}, 2),
    "bidfair": (AdvancedBidFairPlayer, [(BidFairPosition, "play_out"),
                                        (bot.ai.core.search, "exact_value")],
                {"target": 300}, 3),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_decisions_keep_to_their_budget(monkeypatch, name):
    player, work, options, deals = GAMES[name]
    clock = WorkClock()
    for owner, attribute in work:
        charge(monkeypatch, clock, owner, attribute)
    game = create(name, options, 3)
    players = [player(seat) for seat in range(game.SEATS)]
    decisions, cut = play_on_budgets(game, players, clock, lambda g: g.deal_no > deals)
    assert decisions > 40 and cut > decisions // 4


def charge_per_item(monkeypatch: pytest.MonkeyPatch, clock: WorkClock, name: str,
                    ticks: int = 1) -> None:
    """Make each position (or deal) that `dds.name` solves cost `ticks` of `clock`."""
    work = getattr(bot.ai.core.dds, name)

    def charged(items: Any, *args: Any) -> Any:
        for _ in range(ticks * len(items)):
            clock.tick()
        return work(items, *args)

    monkeypatch.setattr(bot.ai.core.dds, name, charged)


def test_bridge_card_play_keeps_to_its_budget(monkeypatch):
    # Every layout solved for a card (and every DD table of the bidding simulation) costs
    # a tick. The budget is asked before each batch, and a batch is never larger than what
    # was solved before it (past a small probe), so a decision passes its budget by less
    # than the budget again; late in a deal, where 48 layouts are planned, it is cut.
    clock = WorkClock()
    charge_per_item(monkeypatch, clock, "solve_counted")
    charge_per_item(monkeypatch, clock, "trick_tables")
    game = create("bridge", {}, 5)
    players = [make_player("bridge", seat) for seat in range(4)]
    decisions, cut = play_on_budgets(game, players, clock, lambda g: g.deal_no > 1,
                                     overrun=BUDGET)
    assert decisions > 40 and cut > decisions // 4


def test_the_single_dummy_estimate_keeps_to_its_budget(monkeypatch):
    # A DD table of the estimate costs 25 ticks (a loaded machine's 0.25 s): a 1 s budget
    # plans 3 samples (2 tables each) and is spent after 2; each call passes its budget by
    # at most one batch of samples, no larger than the ones solved before it. The play is
    # solved exactly (one layout) and stays well inside.
    clock = WorkClock()
    charge_per_item(monkeypatch, clock, "solve_counted")
    charge_per_item(monkeypatch, clock, "trick_tables", ticks=25)
    game = create("single_dummy", {}, 5)
    players = [make_player("single_dummy", seat) for seat in range(2)]
    decisions, cut = play_on_budgets(game, players, clock, lambda g: g.deal_no > 2,
                                     seconds=1.0, overrun=1.0)
    assert decisions > 40 and cut >= 2
