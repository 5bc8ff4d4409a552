"""What one double-dummy solve costs, as the bridge bidding simulation plans it
(`simulation.COST_PER_SOLVE`: one declarer's tricks in one strain) and as the solver's
reported work measures it (`dds.NODE_SECONDS`: CPU seconds per search node).

    python -m bench.solves --deals 30

Whole random deals, each solved for one declarer in notrump and in spades (the opening
leader's best card only, `dds.solve_counted(..., every_card=False)`: what the simulation
asks for), one solve at a time. Times are the process's CPU time (`time.process_time`:
DDS solves in its own threads, which thread_time would miss).
"""

from __future__ import annotations

import argparse
import random
import time

from bot.ai.bridge.bidding.simulation import COST_PER_SOLVE
from bot.ai.core import dds
from bot.games.cards import FULL_DECK, Card, Suit

from .intervals import mean_half

STRAINS: dict[str, Suit | None] = {"notrump": None, "spades": Suit.SPADES}


def deals(count: int, seed: int) -> list[tuple[tuple[Card, ...], ...]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        out.append(tuple(tuple(sorted(cards[13 * seat:13 * seat + 13])) for seat in range(4)))
    return out


def _timed(positions: list[dds.Position]) -> tuple[float, int]:
    cpu = time.process_time()
    _, nodes = dds.solve_counted(positions, every_card=False)
    return time.process_time() - cpu, nodes


def _line(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    mean, half = mean_half(ms)
    return (f"  {name:<24} {mean:7.1f} ± {half:5.1f} ms "
            f"(min {min(ms):6.1f}, max {max(ms):7.1f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    played = deals(args.deals, args.seed)
    _timed([dds.Position(played[0], None, 1)])  # load endplay first
    by_strain: dict[str, list[float]] = {name: [] for name in STRAINS}
    nodes_total = 0
    for i, hands in enumerate(played):
        order = list(STRAINS) if i % 2 == 0 else list(reversed(STRAINS))
        for name in order:
            cpu, nodes = _timed([dds.Position(hands, STRAINS[name], (i + 1) % 4)])
            by_strain[name].append(cpu)
            nodes_total += nodes
    every = [s for seconds in by_strain.values() for s in seconds]
    print(f"# solves: {args.deals} random deals (--seed {args.seed}); process CPU of one "
          "declarer's tricks in one strain, mean ± 95%:")
    for name, times in by_strain.items():
        print(_line(name, times))
    print(_line("both", every))
    print(f"  {'planned (COST_PER_SOLVE)':<24} {COST_PER_SOLVE * 1000:7.1f} ms")
    print(f"  {'CPU a search node':<24} {sum(every) / max(nodes_total, 1):.2e} s "
          f"(dds.NODE_SECONDS {dds.NODE_SECONDS:.2e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
