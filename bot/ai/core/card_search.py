"""Choosing a card by sampling and double-dummy solving, under a time budget.

For one decision: deal layouts of the unseen cards that agree with what the seat knows
(`layouts.sample`), solve each with DDS on the trick in progress (`dds.solve`), turn each
card's tricks into what the deal would score for the side to play (`value`: the contract
knows that making it is worth more than an overtrick, and defeating it more than holding
declarer to it), and play the card with the best average. Ties go to the card the
rule-based player would choose when it is among the best, else to the lowest.

How many layouts is planned before any work, from the budget's share of the machine and
a cost model of the solver (CPU per layout by cards left in each hand, measured on this
2-core machine with endplay 0.5.12). They are solved by `dds.solve_within`: a probe
batch first (one layout at the opening lead, whose layouts cost 0.01 to 0.9 s each; an
eighth of the plan later), then batches as large as the work already measured, and the
work DDS reports (its search nodes turned into CPU seconds; a thread's CPU clock would
miss DDS's own threads) stops it before a batch that would take it past the budget's
planned share. A deal as cheap as the model says never reaches that stop, so its
decision is the same every time for the same seed; a costly one may stop a batch earlier
or later from one run to the next (the node counts vary a little with what the solver's
threads solved before). The budget's own clock is asked before every batch only as a
safety net: when it is spent, or too few layouts were affordable or solved to be worth
a search (no budget at all included), `search` returns None and the caller plays its
rule-based card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.cards import Card, Suit

from . import dds
from .budget import Budget
from .layouts import Knowledge, sample

# CPU seconds of one solve by the cards left in the hand with the most (13 = first trick),
# notrump and trump; a trick in progress is between two rows. The opening lead's layouts
# cost 0.06 s (notrump) and 0.085 s (trump) of process CPU on average, but up to 0.86 s
# (120 layouts of the opening leads of bench/strength's first 20 deals): it is planned at
# 0.18 s (4 layouts in a 0.8 s budget: on bench/strength bridge-leads' 60 leads they
# lose no more DD tricks than 6 or 14) and the solver's measured work ends it early on a
# costly deal. (The decision's CPU p95: 3.2 s at a fixed 14 layouts, 1.0 to 1.3 s at 6
# by the machine's load, 0.8 s at 4 but up to 2.8 s on a costly deal without the stop.)
_COST_NOTRUMP = {13: 0.180, 12: 0.020, 11: 0.008, 10: 0.003, 9: 0.0025, 8: 0.0012}
_COST_TRUMP = {13: 0.180, 12: 0.045, 11: 0.010, 10: 0.0035, 9: 0.0025, 8: 0.0012}
_COST_FLOOR = 0.0006  # seven cards or fewer, with our own sampling overhead
MIN_LAYOUTS = 4  # fewer is not worth a search: the rule-based card is as good
MAX_LAYOUTS = 48  # more changes almost nothing and costs the others' time
PROBE_SHARE = 8  # the first batch is this part of the plan (its cost is not yet known)
COSTLY = 0.05  # a layout planned at this or more (the opening lead) is probed alone
SOLVER_THREADS = 2  # DDS solves a batch's layouts in parallel, one per thread


def solve_cost(cards_left: int, trump: Suit | None) -> float:
    """Planned CPU seconds to solve one layout with `cards_left` in the longest hand."""
    table = _COST_NOTRUMP if trump is None else _COST_TRUMP
    return table.get(cards_left, _COST_FLOOR if cards_left < 8 else table[13])


def planned_layouts(budget: Budget | None, cards_left: int, trump: Suit | None,
                    cores: int = 2, cap: int = MAX_LAYOUTS) -> int:
    """How many layouts to solve: the budget's share over the cost of one, at most `cap`.
    No budget means no time to think (simulations, quick tests): none."""
    if budget is None:
        return 0
    return min(cap, budget.affordable(solve_cost(cards_left, trump), cores))


@dataclass(frozen=True, slots=True)
class Decision:
    """A card to choose, as the seat to play sees it (compass seats N, E, S, W = 0..3)."""

    know: Knowledge
    trump: Suit | None
    leader: int  # who led the trick in progress (or leads now)
    trick: tuple[Card, ...]
    legal: tuple[Card, ...]
    value: tuple[float, ...]  # what the deal scores for the side to play, by its total tricks
    tricks_won: int  # tricks the side to play has already taken

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 4


@dataclass(frozen=True, slots=True)
class Outcome:
    """The searched card with each legal card's average value and tricks, and how those
    tricks vary over the layouts: the share of layouts where the card takes as many as
    the layout's best card (ties count for each), and their standard deviation (0 for one
    layout). An average can hide a card that is best on most layouts and costly on a few,
    or one that is never best but never far from it. `equals`: the legal cards that take as
    many tricks as the searched card on every layout (it among them), between which the
    choice is free to say something (a count signal, `carding.count_signal`)."""

    card: Card
    values: dict[Card, float]
    tricks: dict[Card, float]
    layouts: int
    best_share: dict[Card, float]
    spread: dict[Card, float]
    equals: frozenset[Card] = frozenset()


def search(decision: Decision, budget: Budget | None, rng: random.Random,
           preferred: Card | None = None, cap: int = MAX_LAYOUTS) -> Outcome | None:
    """The best card by sampled double-dummy value over at most `cap` layouts, or None to
    play the rule-based card."""
    legal = decision.legal
    if len(legal) == 1:
        return Outcome(legal[0], {legal[0]: 0.0}, {legal[0]: 0.0}, 0, {legal[0]: 1.0},
                       {legal[0]: 0.0}, frozenset(legal))
    longest = max(decision.know.sizes)
    count = planned_layouts(budget, longest, decision.trump, cap=cap)
    if len(decision.know.hidden) <= 1:
        count = min(count, 1)  # three hands seen: the fourth is known, one layout is exact
    elif count < MIN_LAYOUTS:
        return None
    if count < 1:
        return None
    hands = sample(decision.know, count, rng).hands
    if not hands:
        return None
    positions = [dds.Position(layout, decision.trump, decision.leader, decision.trick)
                 for layout in hands]
    assert budget is not None  # no budget plans no layouts
    # A costly decision probes one layout first: a deal whose layouts cost more than the
    # budget is found after one of them, not several.
    costly = solve_cost(longest, decision.trump) >= COSTLY
    probe = 1 if costly else math.ceil(len(positions) / PROBE_SHARE)
    results = dds.solve_within(positions, dds.solve_measured, budget.planned_seconds(),
                               first=probe, least=max(probe, SOLVER_THREADS),
                               spent=budget.spent)
    if len(results) < len(positions) and budget.spent():
        return None  # the safety net: the budget ran out before the plan did
    if len(results) < min(MIN_LAYOUTS, len(positions)):
        return None  # the deal is too costly to solve enough layouts in the budget
    return _best(decision, results, preferred)


def _best(decision: Decision, results: Sequence[dict[Card, int]],
          preferred: Card | None) -> Outcome | None:
    values: dict[Card, float] = {}
    tricks: dict[Card, float] = {}
    best_share: dict[Card, float] = {}
    spread: dict[Card, float] = {}
    top = len(decision.value) - 1
    if any(card not in r for r in results for card in decision.legal):
        return None  # the solver disagrees with the engine about what is legal
    layout_best = [max(r[card] for card in decision.legal) for r in results]
    for card in decision.legal:
        scores = [r[card] for r in results]
        totals = [min(top, decision.tricks_won + s) for s in scores]
        values[card] = sum(decision.value[t] for t in totals) / len(totals)
        tricks[card] = sum(totals) / len(totals)
        best_share[card] = sum(s == b for s, b in zip(scores, layout_best, strict=True)
                               ) / len(scores)
        spread[card] = math.sqrt(sum((t - tricks[card]) ** 2 for t in totals) / len(totals))
    best_value = max(values.values())
    good = [c for c in decision.legal if values[c] >= best_value - 1e-9]
    best_tricks = max(tricks[c] for c in good)
    good = [c for c in good if tricks[c] >= best_tricks - 1e-9]
    card = preferred if preferred in good else min(good, key=lambda c: (c.rank, c.suit))
    assert card is not None
    equals = frozenset(c for c in decision.legal if all(r[c] == r[card] for r in results))
    return Outcome(card, values, tricks, len(results), best_share, spread, equals)
