"""The opening lead of `bridge-advanced`: the layouts it solves, its time, and the DD
tricks it loses, as the bot serves it and under the plans it replaced.

    python -m bench.strength bridge-leads [--deals 60] [--first-seed 1] [--think 0.8]
        [--plans served,unpruned,before]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped). For each deal, the opening leader chooses once per
plan with the same seed and position, each through `think_as_served` (the player crosses
pickled, as to a worker):

- served: as the bot serves it: the lead's own budget (`decision_seconds`: 2.5 times
  --think, 2 s at 0.8) and `opening_lead.search_lead`'s two rounds;
- unpruned: the same budget and layouts, every lead scored on every layout;
- before: the plan before 2026-12-02: --think seconds, `card_search.search` (4 layouts
  at 0.8 s).

Reported per plan: the layouts solved per lead p50 / p95, the lead's wall time and process
CPU (DDS's threads included) p50 / p95 / max, and the DD tricks the lead loses per deal
with a 95% interval; then served against before, paired deal by deal. Budgets run on the
thinking thread's CPU clock and the solver stops on its measured work, so the plan, not
the machine's load, decides the work; the wall times do depend on the load.
"""

from __future__ import annotations

import argparse
import time
from contextlib import ExitStack
from unittest import mock

from bot.ai import decision_seconds, make_player
from bot.ai.bridge import advanced as bridge_advanced
from bot.ai.core import opening_lead
from bot.tables.thinking import think_as_served

from .strength_bridge_play import bid_out, budget, dd_scores, deal_set, mean_ci, spans

PLANS = ("served", "unpruned", "before")


def lead(seed: int, think: float, plan: str) -> tuple[float, float, int, int]:
    """(wall seconds, process CPU seconds, layouts solved, DD tricks lost) of deal
    `seed`'s opening lead under `plan`."""
    game = bid_out(seed)
    assert game is not None
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    scores = dd_scores(game)
    player = make_player("bridge", seed * 7 + seat, "bridge-advanced")
    with ExitStack() as patches:
        if plan == "unpruned":
            patches.enter_context(mock.patch.object(opening_lead, "CANDIDATES", 0))
        elif plan == "before":
            patches.enter_context(mock.patch.object(bridge_advanced, "LEAD_FACTOR", 1.0))
            patches.enter_context(mock.patch.object(bridge_advanced, "is_opening_lead",
                                                    lambda _: False))
        seconds = decision_seconds(player, view, think)
        wall, cpu = time.perf_counter(), time.process_time()
        action, back = think_as_served(player, view, legal, budget(seconds))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    layouts = getattr(back, "last_layouts", 0)
    return wall, cpu, layouts, max(scores.values()) - scores[action]


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
    parser.add_argument("--plans", default=",".join(PLANS),
                        help=f"which of {', '.join(PLANS)} to run")
    args = parser.parse_args(argv)
    plans = [p for p in args.plans.split(",") if p]
    if not plans or any(p not in PLANS for p in plans):
        parser.error(f"--plans: some of {', '.join(PLANS)}")
    seeds = deal_set(args.first_seed, args.deals)
    print(f"Opening leads of bridge-advanced on {len(seeds)} deals (seeds {spans(seeds)}), "
          f"budget {args.think} s a card on the thinking thread's CPU clock; CPU below is "
          "the process's (DDS's threads included)", flush=True)
    results: dict[str, list[tuple[float, float, int, int]]] = {p: [] for p in plans}
    for done, seed in enumerate(seeds, start=1):
        for plan in plans:
            results[plan].append(lead(seed, args.think, plan))
        if done % 10 == 0:
            print(f"  {done} deals: " + "; ".join(
                f"{p} {mean_ci([float(r[3]) for r in rows])}" for p, rows in results.items()),
                flush=True)
    for name, rows in results.items():
        print(f"  {name}: layouts {percentiles([float(r[2]) for r in rows], '', 0)}; "
              f"wall {percentiles([r[0] for r in rows])}; CPU "
              f"{percentiles([r[1] for r in rows])}; DD tricks lost by the lead per deal "
              f"{mean_ci([float(r[3]) for r in rows])}")
    if "served" in results and "before" in results:
        diffs = [float(a[3] - b[3]) for a, b in zip(results["served"], results["before"],
                                                    strict=True)]
        print(f"  served - before, paired by deal: {mean_ci(diffs)} DD tricks a lead")
    return 0
