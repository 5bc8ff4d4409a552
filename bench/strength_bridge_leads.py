"""The opening lead of `bridge-advanced`: its CPU per decision and the double-dummy tricks
it loses, under the card search's plan and under a plan with other 13-card costs.

    python -m bench.strength bridge-leads [--deals 60] [--first-seed 1] [--think 0.8]
        [--compare-cost 0.05,0.085]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped). For each deal, the opening leader chooses twice
with the same seed and position: once as the card search plans it now, once with the
opening lead's cost per layout (`card_search.solve_cost` for 13 cards) set to
--compare-cost (notrump, trump), the previous plan by default. Reported per plan: process
CPU per decision (DDS's threads included; the machine's load inflates it somewhat) p50,
p95 and max, and the DD tricks the lead loses per deal with a 95% interval. Budgets run
on the thinking thread's CPU clock, so the plan, not the machine's load, decides the work.
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

from bot.ai import card_search, make_player

from .strength_bridge_play import bid_out, budget, dd_scores, deal_set, mean_ci

Plan = tuple[str, dict[int, float] | None, dict[int, float] | None]


def lead(seed: int, think: float, plan: Plan) -> tuple[float, int]:
    """(process CPU seconds, DD tricks lost) of the opening lead of deal `seed`."""
    game = bid_out(seed)
    assert game is not None
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    scores = dd_scores(game)
    _, notrump, trump = plan
    player = make_player("bridge", seed * 7 + seat, "bridge-advanced")
    with mock.patch.dict(card_search._COST_NOTRUMP, notrump or {}), \
            mock.patch.dict(card_search._COST_TRUMP, trump or {}):
        cpu = time.process_time()
        action = player.choose(view, legal, budget(think))
        cpu = time.process_time() - cpu
    return cpu, max(scores.values()) - scores[action]


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    n = len(ordered)
    return (f"p50 {ordered[n // 2]:.2f} p95 {ordered[min(n - 1, int(0.95 * n))]:.2f} "
            f"max {ordered[-1]:.2f} s")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-leads")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.8)
    parser.add_argument("--compare-cost", default="0.05,0.085",
                        help="13-card cost per layout (notrump,trump) of the other plan")
    args = parser.parse_args(argv)
    notrump, trump = (float(x) for x in args.compare_cost.split(","))
    plans: list[Plan] = [("now", None, None),
                         (f"13-card cost {notrump}/{trump}", {13: notrump}, {13: trump})]
    seeds = deal_set(args.first_seed, args.deals)
    print(f"Opening leads of bridge-advanced on {len(seeds)} deals (seeds {seeds[0]}.."
          f"{seeds[-1]}), budget {args.think} s on the thinking thread's CPU clock; CPU "
          "below is the process's (DDS's threads included)", flush=True)
    results: dict[str, list[tuple[float, int]]] = {name: [] for name, _, _ in plans}
    for seed in seeds:
        for plan in plans:
            results[plan[0]].append(lead(seed, args.think, plan))
    for name, rows in results.items():
        planned = card_search.planned_layouts(budget(args.think), 13, None)
        print(f"  {name}: lead CPU {percentiles([c for c, _ in rows])}; DD tricks lost by "
              f"the lead per deal {mean_ci([float(loss) for _, loss in rows])}"
              + (f" ({planned} notrump layouts planned)" if name == "now" else ""))
    return 0
