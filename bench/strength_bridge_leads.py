"""The opening lead of `bridge-advanced`: its CPU per decision and the double-dummy tricks
it loses, under the card search's plan and under a fixed plan with other 13-card costs.

    python -m bench.strength bridge-leads [--deals 60] [--first-seed 1] [--think 0.8]
        [--compare-cost 0.12,0.12]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped). For each deal, the opening leader chooses twice
with the same seed and position: once as the card search plans it now, once with the
opening lead's cost per layout (`card_search.solve_cost` for 13 cards) set to
--compare-cost (notrump, trump) and a fixed number of layouts (no stop on the solver's
measured work): the plan before 2026-11-23's session 3 by default. Reported per plan:
process CPU per decision (DDS's threads included; the machine's load inflates it
somewhat) p50, p95 and max, the layouts solved, and the DD tricks the lead loses per deal
with a 95% interval. Budgets run on the thinking thread's CPU clock, so the plan, not the
machine's load, decides the work.
"""

from __future__ import annotations

import argparse
import time
from contextlib import ExitStack
from typing import Any
from unittest import mock

from bot.ai import make_player
from bot.ai.bridge import advanced as bridge_advanced
from bot.ai.core import card_search
from bot.tables.thinking import think_as_served

from .strength_bridge_play import bid_out, budget, dd_scores, deal_set, mean_ci

# A plan: its name, the 13-card costs to use (None: as now), and whether the solver's
# measured work may end the search early.
Plan = tuple[str, dict[int, float] | None, dict[int, float] | None, bool]


def lead(seed: int, think: float, plan: Plan) -> tuple[float, int, int]:
    """(process CPU seconds, layouts solved, DD tricks lost) of deal `seed`'s opening
    lead."""
    game = bid_out(seed)
    assert game is not None
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    scores = dd_scores(game)
    _, notrump, trump, measured = plan
    player = make_player("bridge", seed * 7 + seat, "bridge-advanced")
    solved = [0]

    def counted(*args: Any, **kwargs: Any) -> card_search.Outcome | None:
        outcome = card_search.search(*args, **kwargs)
        solved[0] = 0 if outcome is None else outcome.layouts
        return outcome

    with ExitStack() as patches:
        patches.enter_context(mock.patch.dict(card_search._COST_NOTRUMP, notrump or {}))
        patches.enter_context(mock.patch.dict(card_search._COST_TRUMP, trump or {}))
        patches.enter_context(mock.patch.object(bridge_advanced, "search", counted))
        if not measured:  # no work is ever counted: every planned layout is solved
            patches.enter_context(mock.patch.object(card_search.dds, "NODE_SECONDS", 0.0))
        cpu = time.process_time()
        action, _ = think_as_served(player, view, legal, budget(think))
        cpu = time.process_time() - cpu
    return cpu, solved[0], max(scores.values()) - scores[action]


def percentiles(values: list[float], unit: str = " s", digits: int = 2) -> str:
    ordered = sorted(values)
    n = len(ordered)
    return (f"p50 {ordered[n // 2]:.{digits}f} p95 {ordered[min(n - 1, int(0.95 * n))]:.{digits}f}"
            f" max {ordered[-1]:.{digits}f}{unit}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-leads")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.8)
    parser.add_argument("--compare-cost", default="0.12,0.12",
                        help="13-card cost per layout (notrump,trump) of the fixed plan")
    args = parser.parse_args(argv)
    notrump, trump = (float(x) for x in args.compare_cost.split(","))
    plans: list[Plan] = [
        ("now", None, None, True),
        (f"fixed plan at 13-card cost {notrump}/{trump}", {13: notrump}, {13: trump}, False)]
    seeds = deal_set(args.first_seed, args.deals)
    print(f"Opening leads of bridge-advanced on {len(seeds)} deals (seeds {seeds[0]}.."
          f"{seeds[-1]}), budget {args.think} s on the thinking thread's CPU clock; CPU "
          "below is the process's (DDS's threads included)", flush=True)
    results: dict[str, list[tuple[float, int, int]]] = {plan[0]: [] for plan in plans}
    for seed in seeds:
        for plan in plans:
            results[plan[0]].append(lead(seed, args.think, plan))
    for name, rows in results.items():
        planned = card_search.planned_layouts(budget(args.think), 13, None)
        print(f"  {name}: lead CPU {percentiles([c for c, _, _ in rows])}; layouts "
              f"{percentiles([float(n) for _, n, _ in rows], '', 0)}; DD tricks lost by "
              f"the lead per deal {mean_ci([float(loss) for _, _, loss in rows])}"
              + (f" (at most {planned} notrump layouts planned)" if name == "now" else ""))
    return 0
