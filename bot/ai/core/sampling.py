"""The sampling evaluator that Spades', Tennis' and Bid Fair's look-ahead and bid searches use.

A decision under hidden cards is valued by dealing layouts the view allows and scoring
every candidate on each of them: candidates × sampled layouts → values. The caller says
how to draw a layout (its random generator and what it knows) and how to value a
candidate on one; the evaluator keeps the order (a layout is drawn, then every candidate
is valued on it, in order), so the same seed gives the same values, and stops when the
budget is spent.

The bridge games search otherwise, because a double-dummy solve is costly and is bounded
by the work the solver reports, batch by batch (`dds.solve_within`), not layout by
layout: Contract Bridge's and Single Dummy's card play go through `card_search`, the
bridge bidding simulation (`bridge/bidding/simulation.py`) and Single Dummy's trick
estimate (`single_dummy/estimate.py`) have loops of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from .budget import Budget

C = TypeVar("C", bound=Hashable)  # a candidate: a card, a bid, a plan
L = TypeVar("L")  # a layout: the hidden cards dealt (and whatever else was drawn)
V = TypeVar("V")  # a candidate's value on one layout


def sample_values(candidates: Sequence[C], layouts: int, draw: Callable[[], L],
                  value: Callable[[L, C], V],
                  budget: Budget | None = None) -> dict[C, list[V]] | None:
    """Each candidate's values on `layouts` layouts from `draw`, in the order drawn; None
    when `budget` is spent before all were drawn (the caller falls back to its rules)."""
    values: dict[C, list[V]] = {c: [] for c in candidates}
    for _ in range(layouts):
        if budget is not None and budget.spent():
            return None
        layout = draw()
        for c in candidates:
            values[c].append(value(layout, c))
    return values


def sample_totals(candidates: Sequence[C], layouts: int, draw: Callable[[], L],
                  value: Callable[[L, C], float],
                  budget: Budget | None = None) -> dict[C, float] | None:
    """Each candidate's total value over the sampled layouts (`sample_values`, summed)."""
    values = sample_values(candidates, layouts, draw, value, budget)
    if values is None:
        return None
    return {c: sum(v, 0.0) for c, v in values.items()}
