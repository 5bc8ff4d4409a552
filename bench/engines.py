"""Engine throughput: whole deals of random legal play and of computer-player play.

    python -m bench.engines [--deals N] [--ai-deals N] [--rounds R] [--games g1,g2]

For each game, `--deals` fresh deals are played with a uniformly random legal action at
every step, and `--ai-deals` with the game's default computer player in every seat. When
OpenSpiel (`pip install -e .[bench]`) is importable, the same random loop is run over its
`bridge(use_double_dummy_result=false)` and `spades` in the same process, and the ratio
ours/theirs is printed.

What one "deal" is, on both sides (the compared loop):
- ours: the deals of running matches, one after another (a match deals its next deal
  when one ends, so each deal is shuffled and dealt exactly once; a finished match is
  replaced by a new `create(game, seed)`): until the deal ends (a `DealEnded` event, which
  also covers a thrown-in bridge deal), pick a seat from `to_act()`, `legal(seat)`,
  `rng.choice`, `apply(seat, text)`; scoring the deal is part of it;
- OpenSpiel: `new_initial_state()`, then until the state is terminal (its game is one
  deal): chance nodes (the deal, card by card) take `rng.choice(chance_outcomes())`,
  player nodes `rng.choice(legal_actions())`, both `apply_action`.
So both sides include dealing, legal-move generation, applying and scoring the deal;
"actions" counts player decisions only (not OpenSpiel's 52 chance steps). Our Spades
also has `look` decisions (a hand is picked up before bidding, rule of docs/rules.md), which
OpenSpiel's Spades does not model; they are counted as actions, so deals/s is the figure
to compare. Times are CPU seconds of this process (`time.process_time`), best of
`--rounds` rounds, ours and theirs interleaved, so other load on the machine distorts
them as little as possible; the ratio is the median over the rounds of ours/theirs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from bot.ai import make_player
from bot.games import GAMES, create
from bot.games.events import DealEnded


@dataclass(frozen=True, slots=True)
class Figure:
    label: str
    deals: int
    actions: int
    cpu: float  # seconds
    wall: float  # seconds

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.cpu if self.cpu > 0 else float("inf")

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.cpu if self.cpu > 0 else float("inf")


def _timed(label: str, deals: int, body: Callable[[], int]) -> Figure:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = body()
    return Figure(label, deals, actions, time.process_time() - cpu,
                  time.perf_counter() - wall)


def random_deals(game_name: str, deals: int, seed: int = 1) -> int:
    """Play `deals` fresh deals with random legal actions; returns the actions taken."""
    rng = random.Random(seed)
    actions = 0
    matches = 0
    game = create(game_name, seed=seed * 100_003)
    for _ in range(deals):
        if game.finished:
            matches += 1
            game = create(game_name, seed=seed * 100_003 + matches)
        over = False
        while not over:
            # Several seats may act at once (Spades looks, Tennis bids): pick one of them.
            seats = game.to_act()
            seat = next(iter(seats)) if len(seats) == 1 else rng.choice(sorted(seats))
            action = rng.choice(game.legal(seat))
            actions += 1
            for event in game.apply(seat, action):
                if isinstance(event, DealEnded):
                    over = True
    return actions


def ai_deals(game_name: str, deals: int, seed: int = 1) -> int:
    """Play `deals` fresh deals with the default computer player in every seat."""
    actions = 0
    matches = 0
    game = create(game_name, seed=seed * 100_003)
    players = [make_player(game_name, s) for s in range(game.SEATS)]
    for _ in range(deals):
        if game.finished:
            matches += 1
            game = create(game_name, seed=seed * 100_003 + matches)
            players = [make_player(game_name, matches * 31 + s) for s in range(game.SEATS)]
        over = False
        while not over:
            seat = min(game.to_act())
            action = players[seat].choose(game.view(seat), game.legal(seat))
            actions += 1
            for event in game.apply(seat, action):
                if isinstance(event, DealEnded):
                    over = True
    return actions


OPEN_SPIEL_GAMES: dict[str, str] = {
    "bridge": "bridge(use_double_dummy_result=false)",
    "spades": "spades",
}


def open_spiel_deals(spec: str, deals: int, seed: int = 1) -> int:
    """The same random loop over an OpenSpiel game (one deal per episode)."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    game = pyspiel.load_game(spec)
    rng = random.Random(seed)
    actions = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return actions


def have_open_spiel() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def best(figures: Sequence[Figure]) -> Figure:
    return min(figures, key=lambda f: f.cpu)


def machine_line() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return (f"python {sys.version.split()[0]}, {os.cpu_count()} cores, "
            f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="random-play deals per game")
    parser.add_argument("--ai-deals", type=int, default=100,
                        help="computer-player deals per game")
    parser.add_argument("--rounds", type=int, default=3, help="repeat and keep the best")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--no-open-spiel", action="store_true")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    compare = not args.no_open_spiel and have_open_spiel()

    rows: list[tuple[str, str, Figure]] = []
    ratios: list[tuple[str, float, float, float]] = []
    for name in games:
        ours: list[Figure] = []
        theirs: list[Figure] = []
        spec = OPEN_SPIEL_GAMES.get(name) if compare else None
        for _ in range(max(1, args.rounds)):
            ours.append(_timed(name, args.deals, partial(random_deals, name, args.deals)))
            if spec is not None:
                theirs.append(_timed(f"open_spiel {name}", args.deals,
                                     partial(open_spiel_deals, spec, args.deals)))
        rows.append((name, "random", best(ours)))
        if theirs:
            rows.append((f"open_spiel:{name}", "random", best(theirs)))
            # Each round ran ours then theirs back to back: the median of the rounds'
            # ratios is steadier than a ratio of bests when the machine's load moves.
            ratio = statistics.median(o.deals_per_s / t.deals_per_s
                                      for o, t in zip(ours, theirs, strict=True))
            ratios.append((name, best(ours).deals_per_s, best(theirs).deals_per_s, ratio))
        if args.ai_deals > 0:
            rows.append((name, "ai", best([
                _timed(name, args.ai_deals, partial(ai_deals, name, args.ai_deals))
                for _ in range(max(1, args.rounds))])))

    print(f"# engines: {machine_line()}")
    print(f"{'engine':<20} {'play':<7} {'deals':>6} {'actions':>8} {'cpu s':>7} "
          f"{'deals/s':>9} {'actions/s':>10}")
    for engine, play, fig in rows:
        print(f"{engine:<20} {play:<7} {fig.deals:>6} {fig.actions:>8} {fig.cpu:>7.3f} "
              f"{fig.deals_per_s:>9.0f} {fig.actions_per_s:>10.0f}")
    if ratios:
        print()
        print(f"{'ours/OpenSpiel':<20} {'ours deals/s':>12} {'theirs':>8} {'ratio':>6}"
              "  (ratio: median over rounds of ours/theirs run back to back)")
        for name, mine, other, ratio in ratios:
            print(f"{name:<20} {mine:>12.0f} {other:>8.0f} {ratio:>6.2f}")
    elif not args.no_open_spiel:
        print("\n(OpenSpiel not installed: pip install -e '.[bench]' for the comparison)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
