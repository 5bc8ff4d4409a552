"""The opening lead of `bridge-advanced` as the bot serves it: the layouts it solves, its
time, and the DD tricks it loses.

    python -m bench.strength bridge-leads [--deals 60] [--first-seed 1] [--think 0.8]
        [--leads learned,search] [--bidders bridge-advanced]

The deal set is bridge-play's: the first deals of matches --first-seed, ..., bid by
bridge-basic (passed-out seeds skipped). With `--bidders bridge-advanced` the same deals
are bid as the bot serves its robots instead (each call through a worker's round trip in
the tables' 0.8 s), so the lead reads the auctions it meets at a table of robots, which
the lead model and the hand reading learned from; it costs about 0.1 s of CPU a deal
more. For each deal, the opening leader chooses through
`think_as_served` (the player crosses pickled, as to a worker), in the card's budget of
--think seconds: `card_search.search` like any card. --think takes several budgets
(`0.8,2`): each deal's lead is then chosen once per budget with the same seed and
position, and each budget is compared with the first, paired deal by deal. --leads names
how the lead is chosen: `learned` (the model of `bot.ai.bridge.learning.leads`, as the
bot serves it where the model loads) or `search` (the card search alone); several are
compared the same way, each way at each budget. `--record FILE` keeps each deal's tricks
lost by the first way and budget; `--paired-with FILE`, in another checkout (another
model) on the same seeds, prints this run's first way less the recorded one, paired by
deal. `--compare THESE THOSE` merges record files (each a comma-separated list, one file
a run) and prints the first's tricks lost less the second's, paired by deal over the deals
both hold, without playing: several runs' deal sets pooled.

Reported per budget: the layouts solved per lead p50 / p95 / max, the lead's wall time and
process CPU (DDS's threads included) p50 / p95 / max, and the DD tricks the lead loses
per deal with a 95% interval. Budgets run on the thinking thread's CPU clock and the
solver stops on its measured work, so the budget, not the machine's load, decides the
work; the wall times do depend on the load.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bot.ai import make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.games.bridge import ContractBridge
from bot.tables.thinking import think_as_served

from .strength_bridge_play import (
    add_bidders,
    budget,
    dd_scores,
    deal_set,
    difference_ci,
    mean_ci,
    spans,
)


def lead(seed: int, game: ContractBridge, think: float, learned: bool = True
         ) -> tuple[float, float, int, int]:
    """(wall seconds, process CPU seconds, layouts solved, DD tricks lost) of the opening
    lead of deal `seed` (`game`, bid) in a budget of `think` seconds (`learned`: by the
    learned model where it loads, else by the card search)."""
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    scores = dd_scores(game)
    player = make_player("bridge", seed * 7 + seat, "bridge-advanced")
    assert isinstance(player, AdvancedBridgePlayer)
    player.learned_leads = learned
    wall, cpu = time.perf_counter(), time.process_time()
    action, back = think_as_served(player, view, legal, budget(think))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    layouts = getattr(back, "last_layouts", 0)
    return wall, cpu, layouts, max(scores.values()) - scores[action]


LEADS = {"learned": True, "search": False}


def percentiles(values: list[float], unit: str = " s", digits: int = 2) -> str:
    ordered = sorted(values)
    n = len(ordered)
    return (f"p50 {ordered[n // 2]:.{digits}f} p95 {ordered[min(n - 1, int(0.95 * n))]:.{digits}f}"
            f" max {ordered[-1]:.{digits}f}{unit}")


def record(path: Path) -> dict[int, int]:
    """Each deal's tricks lost in a `--record` file."""
    try:
        return {int(k): int(v) for k, v in json.loads(path.read_text()).items()}
    except (OSError, ValueError, AttributeError) as error:
        raise SystemExit(f"{path}: not a record of bridge-leads ({error})") from error


def merged_records(files: str) -> dict[int, int]:
    """Each deal's tricks lost, from comma-separated `--record` files (one run each)."""
    merged: dict[int, int] = {}
    for name in (f for f in files.split(",") if f):
        merged.update(record(Path(name)))
    return merged


def _three_places(lost: dict[int, int], seeds: list[int]) -> str:
    return mean_ci([float(lost[seed]) for seed in seeds], places=3)


def compare(these: str, those: str) -> int:
    """Print `these` records' tricks lost less `those`', paired by the deals both hold."""
    ours, theirs = merged_records(these), merged_records(those)
    common = sorted(ours.keys() & theirs.keys())
    diffs = [float(ours[seed] - theirs[seed]) for seed in common]
    print(f"{these} - {those}, paired by deal ({len(common)} deals, seeds {spans(common)}): "
          f"{_three_places(ours, common)} - {_three_places(theirs, common)} = "
          f"{difference_ci(diffs)} "
          "(DD tricks a lead)")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-leads")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--think", default="0.8",
                        help="the card's budget in seconds; several (0.8,2) are compared")
    parser.add_argument("--leads", default="learned",
                        help="how the lead is chosen: learned, search, or both (learned,search)")
    add_bidders(parser)
    parser.add_argument("--record", type=Path,
                        help="write each deal's DD tricks lost by the first way to FILE")
    parser.add_argument("--paired-with", type=Path,
                        help="compare the first way with a --record FILE, paired by deal")
    parser.add_argument("--compare", nargs=2, metavar=("THESE", "THOSE"),
                        help="record files (comma-separated) of one way and of another: "
                             "print the first less the second, paired by deal, and stop")
    args = parser.parse_args(argv)
    if args.compare is not None:
        return compare(*args.compare)
    ways = [w for w in args.leads.split(",") if w]
    if not ways or any(w not in LEADS for w in ways) or len(set(ways)) < len(ways):
        parser.error("--leads: learned, search, comma-separated")
    try:
        thinks = [float(t) for t in args.think.split(",") if t]
    except ValueError:
        parser.error("--think: seconds, comma-separated")
    if not thinks or any(t <= 0 for t in thinks):
        parser.error("--think: seconds, comma-separated")
    deals = deal_set(args.first_seed, args.deals, args.bidders)
    seeds = list(deals)
    print(f"Opening leads of bridge-advanced on {len(seeds)} deals (seeds {spans(seeds)}), "
          f"by {', '.join(ways)}, budget {', '.join(f'{t:g}' for t in thinks)} s on the "
          f"thinking thread's CPU clock; auctions by {args.bidders}; CPU below is the "
          "process's (DDS's threads included)", flush=True)
    configs = [(way, think) for way in ways for think in thinks]
    name = {c: f"{c[0]} {c[1]:g} s" for c in configs}
    results: dict[tuple[str, float], list[tuple[float, float, int, int]]] = {
        c: [] for c in configs}
    for done, (seed, game) in enumerate(deals.items(), start=1):
        for way, think in configs:
            results[(way, think)].append(lead(seed, game, think, LEADS[way]))
        if done % 10 == 0:
            print(f"  {done} deals: " + "; ".join(
                f"{name[c]} {mean_ci([float(r[3]) for r in rows])}"
                for c, rows in results.items()), flush=True)
    for c, rows in results.items():
        print(f"  {name[c]}: layouts {percentiles([float(r[2]) for r in rows], '', 0)}; "
              f"wall {percentiles([r[0] for r in rows])}; CPU "
              f"{percentiles([r[1] for r in rows])}; DD tricks lost by the lead per deal "
              f"{mean_ci([float(r[3]) for r in rows])}")
    first = configs[0]
    for c in configs[1:]:
        diffs = [float(a[3] - b[3]) for a, b in zip(results[c], results[first], strict=True)]
        print(f"  {name[c]} - {name[first]}, paired by deal: {difference_ci(diffs)} "
              "(DD tricks a lead)")
    lost = {seed: r[3] for seed, r in zip(seeds, results[first], strict=True)}
    if args.record is not None:
        args.record.write_text(json.dumps(lost))
    if args.paired_with is not None:
        other = record(args.paired_with)
        common = [seed for seed in seeds if seed in other]
        diffs = [float(lost[seed] - other[seed]) for seed in common]
        print(f"  {name[first]} - {args.paired_with}, paired by deal ({len(common)} "
              f"deals): {difference_ci(diffs)} (DD tricks a lead)")
    return 0
