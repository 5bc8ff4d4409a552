"""The opening lead: many layouts in its own, longer budget, by solving in two rounds.

The opening lead is where a layout costs most to solve (13 cards a hand: 25 to 230 ms of
CPU with every lead scored, measured on bench/strength's first deals) and where a wrong
card loses most often, so the player gives it a budget of its own (2 s at the tables'
0.8 s: `AdvancedBridgePlayer.seconds_for`) and this search spends it in two rounds:

1. every lead is scored on the first `FIRST_ROUND` layouts (`dds.solve_counted` with
   every card: one solve a layout, equal cards grouped by DDS);
2. the leads are grouped by their scores on those layouts (equal cards, and cards that
   did alike everywhere), and only the best `CANDIDATES` groups go on: on each later
   layout, one card of each is solved from the position after it with a best card only
   (`every_card=False`), about half the CPU of scoring every lead again for two groups.

Both rounds stop on the solver's measured work (`dds.solve_within` on DDS's node counts),
not on a cost model: the plan is `LEAD_LAYOUTS` layouts dealt by the sampler (which also
weights them by the hand reading when it does), a cheap deal (under 10 ms a layout)
solves all of them, and a costlier one stops when its work would pass `LEAD_USE` of the
budget's planned share (on 20 deals from seed 71001: 52 layouts at the median, 6 on the
costliest). A deal whose layouts all fit is decided the same way every time for the
same seed; where dealing's CPU clock enters the stop, a costly one may vary by a batch.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TypeVar

from bot.games.cards import Card

from . import dds
from .budget import Budget
from .card_search import MIN_LAYOUTS, SOLVER_THREADS, Decision, Outcome
from .layouts import sample

LEAD_LAYOUTS = 128  # the plan in a 2 s budget (a cheap deal solves all of them)
# The CPU a layout is planned at: a cheap deal's, pruned to two leads, with its dealing
# (7 to 14 ms measured; the median deal's is nearer 35 ms, and its measured work stops
# it at about 40 layouts). A shorter budget plans fewer layouts.
PLAN_COST = 0.014
FIRST_ROUND = 12  # layouts on which every lead is scored before pruning
PROBE_MOST = 3  # the first round's batches after its first six layouts (1, 2, 3)
CANDIDATES = 2  # groups of leads kept for the later layouts (0: never prune)
# The part of the budget's planned share the measured work may fill: DDS's node count
# reads 10 to 30% under the process's CPU at the opening lead, and the decision's own
# work (the auction's reading, the rule-based card, the crossing) comes on top. At the
# full share the lead's CPU p95 was 2.3 s in its 2 s budget (20 deals from seed 71001).
LEAD_USE = 0.8

Layout = tuple[tuple[Card, ...], ...]
Item = TypeVar("Item")


def is_opening_lead(decision: Decision) -> bool:
    """No card played yet and this seat is to lead."""
    return not decision.trick and all(size == 13 for size in decision.know.sizes)


def planned_lead_layouts(budget: Budget | None) -> int:
    """How many layouts the opening lead deals: the budget's share at the typical cost
    after pruning, capped. No budget: none."""
    if budget is None:
        return 0
    return min(LEAD_LAYOUTS, budget.affordable(PLAN_COST))


def search_lead(decision: Decision, budget: Budget | None, rng: random.Random,
                preferred: Card | None = None) -> Outcome | None:
    """The opening lead by sampled double-dummy value, or None for the rule-based card."""
    legal = decision.legal
    count = planned_lead_layouts(budget)
    if len(legal) == 1 or count < MIN_LAYOUTS or budget is None:
        return None if len(legal) > 1 else Outcome(legal[0], {}, {}, 0)
    allowance = budget.planned_seconds() * LEAD_USE
    # Dealing a layout costs 0.5 to 13 ms of this thread's CPU by how the calls' check
    # binds (measured at the opening lead): it counts in the work, dealt round by round.
    clock = time.thread_time
    started = clock()
    layouts = sample(decision.know, min(FIRST_ROUND, count), rng).hands
    dealt = clock() - started
    if len(layouts) < MIN_LAYOUTS:
        return None
    positions = [_position(decision, hands) for hands in layouts]
    # One layout first: a deal whose layouts cost more than the budget is found after it.
    # Then batches of at most PROBE_MOST: a layout's cost has a long tail (one of six cost
    # 2.4 s of CPU on seed 73004), and a batch is solved before its work is known.
    head = positions[:2 * PROBE_MOST]
    scored, work = _within(head, _every_card, allowance - dealt, SOLVER_THREADS, budget)
    if len(scored) == len(head) < len(positions) \
            and allowance - dealt - work >= work / len(scored) * PROBE_MOST:
        more, more_work = _within(positions[len(head):], _every_card,
                                  allowance - dealt - work, PROBE_MOST, budget,
                                  first=PROBE_MOST)
        scored, work = scored + more, work + more_work
    if len(scored) < MIN_LAYOUTS:
        return None  # too costly to score enough layouts, or the budget ran out
    if any(set(r) != set(legal) for r in scored):
        return None  # the solver disagrees with the engine about what is legal
    groups = _groups(decision, scored)
    kept = groups if CANDIDATES <= 0 else groups[:CANDIDATES]
    later: list[dict[Card, int]] = []
    if len(scored) == len(layouts) == FIRST_ROUND:
        cards = [group[0] for group in kept]

        def solver(batch: Sequence[Layout]) -> tuple[list[dict[Card, int]], float]:
            if CANDIDATES <= 0:
                return _every_card([_position(decision, hands) for hands in batch])
            return _after_leads(decision, cards, batch)

        # The first round's cost a layout bounds the later round's first batch.
        later = _later_round(decision, solver, count - len(layouts), rng, budget,
                             allowance - dealt - work, (dealt + work) / len(scored))
    return _choose(decision, scored, later, kept, preferred)


def _position(decision: Decision, hands: Layout) -> dds.Position:
    return dds.Position(hands, decision.trump, decision.leader, ())


def _later_round(decision: Decision, solver: dds.BatchSolver[Layout, dict[Card, int]],
                 count: int, rng: random.Random, budget: Budget, allowance: float,
                 per_layout: float) -> list[dict[Card, int]]:
    """Up to `count` more layouts, dealt and solved a batch at a time while the dealing
    and solving measured fit `allowance` (as `dds.solve_within` does, the last batch cut
    to fit rather than left out)."""
    out: list[dict[Card, int]] = []
    work = 0.0
    while len(out) < count and not budget.spent():
        # As many as solved so far (at least one a solver thread), cut to what the
        # measured work a layout says is left: the last batch fills the allowance.
        each = work / len(out) if out else per_layout
        size = min(max(SOLVER_THREADS, len(out)), count - len(out),
                   int((allowance - work) / each) if each > 0 else count)
        if size < 1:
            break
        started = time.thread_time()
        batch = sample(decision.know, size, rng).hands
        work += time.thread_time() - started
        if not batch:
            break
        solved, cost = solver(batch)
        out.extend(solved)
        work += cost
    return out


def _within(items: Sequence[Item], solver: dds.BatchSolver[Item, dict[Card, int]],
            allowance: float, least: int, budget: Budget, first: int = 1,
            ) -> tuple[list[dict[Card, int]], float]:
    """`dds.solve_within`, and the work it measured (for the next round's allowance)."""
    work = [0.0]

    def counted(batch: Sequence[Item]) -> tuple[list[dict[Card, int]], float]:
        solved, cost = solver(batch)
        work[0] += cost
        return solved, cost

    done = dds.solve_within(items, counted, allowance, first=first, least=least,
                            spent=budget.spent)
    return done, work[0]


def _every_card(batch: Sequence[dds.Position]) -> tuple[list[dict[Card, int]], float]:
    solved, nodes = dds.solve_counted(batch)
    return solved, nodes * dds.NODE_SECONDS


def _after_leads(decision: Decision, cards: Sequence[Card], batch: Sequence[Layout],
                 ) -> tuple[list[dict[Card, int]], float]:
    """Each layout's tricks for the leader's side after each of `cards`: the next hand's
    best from the position after the lead, taken from the tricks left."""
    left = decision.know.sizes[decision.leader]
    positions = []
    for layout in batch:
        for card in cards:
            hands = tuple(tuple(c for c in hand if c != card) for hand in layout)
            positions.append(dds.Position(hands, decision.trump, decision.leader, (card,)))
    solved, nodes = dds.solve_counted(positions, every_card=False)
    out = []
    for i in range(len(batch)):
        replies = solved[i * len(cards):(i + 1) * len(cards)]
        out.append({card: left - max(reply.values(), default=0)
                    for card, reply in zip(cards, replies, strict=True)})
    return out, nodes * dds.NODE_SECONDS


def _groups(decision: Decision, scored: Sequence[dict[Card, int]]) -> list[list[Card]]:
    """The leads grouped by their tricks on every scored layout (equal cards, and cards
    that did alike everywhere), the best group first by value, then tricks."""
    by_scores: dict[tuple[int, ...], list[Card]] = {}
    for card in decision.legal:
        by_scores.setdefault(tuple(r[card] for r in scored), []).append(card)
    return sorted(by_scores.values(), key=lambda g: _average(decision, scored, g[0]),
                  reverse=True)


def _average(decision: Decision, results: Sequence[dict[Card, int]], card: Card,
             ) -> tuple[float, float]:
    """(value, tricks) of `card` averaged over the layouts that scored it."""
    top = len(decision.value) - 1
    totals = [min(top, decision.tricks_won + r[card]) for r in results if card in r]
    if not totals:
        return (float("-inf"), float("-inf"))
    return (sum(decision.value[t] for t in totals) / len(totals), sum(totals) / len(totals))


def _choose(decision: Decision, scored: Sequence[dict[Card, int]],
            later: Sequence[dict[Card, int]], kept: Sequence[Sequence[Card]],
            preferred: Card | None) -> Outcome | None:
    """The best of the kept groups over every layout solved for them; the others keep
    their first round's averages (for the record). Ties as `card_search`: the rule-based
    card when it is among the best, else the lowest."""
    values: dict[Card, float] = {}
    tricks: dict[Card, float] = {}
    for card in decision.legal:
        values[card], tricks[card] = _average(decision, scored, card)
    for group in kept:  # a group's cards scored alike: each has its first card's average
        key = _average(decision, [*scored, *later], group[0])
        for card in group:
            values[card], tricks[card] = key
    good = [c for group in kept for c in group]
    best_value = max(values[c] for c in good)
    good = [c for c in good if values[c] >= best_value - 1e-9]
    best_tricks = max(tricks[c] for c in good)
    good = [c for c in good if tricks[c] >= best_tricks - 1e-9]
    card = preferred if preferred in good else min(good, key=lambda c: (c.rank, c.suit))
    assert card is not None
    return Outcome(card, values, tricks, len(scored) + len(later))
