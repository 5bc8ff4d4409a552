"""How long the double-dummy post-mortem of one deal takes (every card's position solved),
solving the positions one after another (what the bot does) or as one batch.

    python -m bench.postmortem --deals 30

Deals are played out by random legal play (random contracts, random cards: a hard case,
since careless play leaves many positions far from solved). Times are the process's CPU
time (`time.process_time`: DDS solves in its own threads, which thread_time would miss),
so other processes on a shared machine inflate them less than wall time; wall time is
shown too. Each deal is solved both ways, in alternating order.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bot.ai.core.dds import Position, solve
from bot.games.bridge import ContractBridge
from bot.handrecord import HandRecord, replay_deal
from bot.handrecord.postmortem import positions

from .intervals import mean_half


def played_deals(count: int, seed: int) -> list[HandRecord]:
    """`count` finished bridge deals with a contract, from random legal play."""
    rng = random.Random(seed)
    out: list[HandRecord] = []
    while len(out) < count:
        match_seed = rng.getrandbits(32)
        game = ContractBridge({}, seed=match_seed)
        while game.deal_no == 1 and not game.finished:
            seat = min(game.to_act())
            game.apply(seat, rng.choice(game.legal(seat)))
        record = replay_deal("bridge", game.options, match_seed, game.history, 1)
        if record.contract is not None:
            out.append(record)
    return out


def _one_by_one(places: list[Position]) -> None:
    for place in places:
        solve([place])


def _batch(places: list[Position]) -> None:
    solve(places)


def _timed(run: Callable[[list[Position]], None], places: list[Position]
           ) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run(places)
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    solve([positions(played_deals(1, args.seed + 1)[0])[-1]])  # load endplay first
    ways = {"one by one": _one_by_one, "batch": _batch}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
    for i, record in enumerate(played_deals(args.deals, args.seed)):
        places = positions(record)
        order = list(ways) if i % 2 == 0 else list(reversed(ways))
        for name in order:
            times[name].append(_timed(ways[name], places))
    print(f"Post-mortem of one bridge deal (52 positions), {args.deals} deals of random "
          "play; process CPU time (DDS's threads included) and wall time, mean ± 95%:")
    for name, pairs in times.items():
        cpu, cpu_half = mean_half([c * 1000 for c, _ in pairs])
        wall, wall_half = mean_half([w * 1000 for _, w in pairs])
        worst = max(c for c, _ in pairs) * 1000
        print(f"  {name:<11} CPU {cpu:7.1f} ± {cpu_half:5.1f} ms (max {worst:7.1f})   "
              f"wall {wall:7.1f} ± {wall_half:5.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
