"""Spades, Tennis and Bid Fair: whole-match win rates of a game's default computer player.

    python -m bench.strength games [--games spades,tennis,bidfair] [--matches 200]
        [--opponents random,greedy,basic] [--seed 1] [--spades-target 200] [--bags]
        [--bidfair-target 400] [--jobs 2] [--player KIND] [--think 0.8] [--every 25]

For each game and opponent, `--matches` whole matches from fixed seeds (seed, seed + 1, ...),
the tested player's side alternating between the two sides (seats) from match to match.
Prints the win rate (a draw counts half) with its 95% Wilson interval, the points (Spades,
Bid Fair) or errors (Tennis) per deal of each side, and the tested player's decision times:
CPU seconds of its `choose` calls (p50 / p95 / max; the machine's load does not inflate CPU
time as it does wall time), then the wall seconds of the same calls with the 1-minute load
averages seen as the matches ended (on a shared machine the load inflates them). Matches
are played to a lower target than the default when the output says so, for speed. The
opponents: `random` (uniform among legal actions), `greedy` (bench/baselines.py) and the
game's `-basic` player.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.ai import Budget, RandomPlayer, make_player, player_kinds
from bot.games import GAMES as ALL_GAMES
from bot.games import create
from bot.tables.thinking import think_as_served

from .baselines import GREEDY
from .intervals import wilson

# The games measured here: those with a greedy baseline (the bridge games have sections of
# their own), in the registry's order.
GAMES = tuple(name for name in ALL_GAMES if name in GREEDY)
OPPONENTS = ("random", "greedy", "basic")


@dataclass(frozen=True, slots=True)
class MatchResult:
    seed: int
    score: float  # 1 win, 0.5 draw, 0 loss, for the tested player
    deals: int
    ours: float  # points (errors for Tennis) of the tested side over the match
    theirs: float
    times: tuple[float, ...]  # CPU seconds of each tested decision
    walls: tuple[float, ...]  # wall seconds of the same decisions
    load: float  # the 1-minute load average when the match ended


def opponent(game: str, name: str) -> Callable[[int], Any]:
    if name == "random":
        return RandomPlayer
    if name == "greedy":
        return GREEDY[game]
    kind = f"{game}-basic"
    return lambda seed: make_player(game, seed, kind)


def play(job: tuple[str, str, str | None, int, dict[str, object], float]) -> MatchResult:
    """One match: the tested kind against `opp`, on side seed % 2. Each decision gets a
    Budget of `think` seconds of the thinking thread's CPU time, so a loaded machine does
    not cut the players short."""
    game_name, opp, kind, seed, options, think = job
    game = create(game_name, options, seed)
    sides = game.SIDES
    tested_side = seed % 2
    make_opp = opponent(game_name, opp)
    players: list[Any] = []
    for seat in range(game.SEATS):
        mine = seat in sides[tested_side]
        players.append(make_player(game_name, seed * 8 + seat, kind) if mine
                       else make_opp(seed * 8 + seat))
    tested = set(sides[tested_side])
    times: list[float] = []
    walls: list[float] = []
    while not game.finished:
        for seat in sorted(game.to_act()):
            if game.finished or seat not in game.to_act():
                continue
            view, legal = game.view(seat), game.legal(seat)
            budget = Budget(think, clock=time.thread_time)
            if seat in tested:
                start, wall = time.thread_time(), time.perf_counter()
                action, players[seat] = think_as_served(players[seat], view, legal, budget)
                times.append(time.thread_time() - start)
                walls.append(time.perf_counter() - wall)
            else:
                action, players[seat] = think_as_served(players[seat], view, legal, budget)
            game.apply(seat, action)
    result = game.result()
    assert result is not None
    winner = result.winner
    score = 0.5 if winner is None else float(winner == tested_side)
    deals = len(game.scores().lines)
    return MatchResult(seed, score, deals, result.totals[tested_side],
                       result.totals[1 - tested_side], tuple(times), tuple(walls),
                       os.getloadavg()[0])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(game: str, opp: str, results: list[MatchResult], first_seed: int, started: float,
           note: str = "") -> None:
    wall = time.perf_counter() - started
    n = len(results)
    wins = sum(r.score for r in results)
    low, high = wilson(wins, n)
    deals = sum(r.deals for r in results)
    ours = sum(r.ours for r in results) / max(1, deals)
    theirs = sum(r.theirs for r in results) / max(1, deals)
    times = [t for r in results for t in r.times]
    walls = [t for r in results for t in r.walls]
    loads = [r.load for r in results]
    unit = "errors" if game == "tennis" else "points"
    print(f"  {note}vs {opp:7} {wins / n:6.1%} of {n} matches (95% {low:.1%}-{high:.1%}), "
          f"seeds {first_seed}-{first_seed + n - 1}, tested side alternating; "
          f"{unit} per deal {ours:.1f} vs {theirs:.1f} over {deals} deals; "
          f"decision CPU p50 {percentile(times, 0.5) * 1000:.1f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.1f} ms, "
          f"max {max(times, default=0) * 1000:.0f} ms over {len(times)} decisions; "
          f"wall p50 {percentile(walls, 0.5) * 1000:.1f} ms, "
          f"p95 {percentile(walls, 0.95) * 1000:.1f} ms, "
          f"max {max(walls, default=0) * 1000:.0f} ms at load averages "
          f"{min(loads, default=0):.1f}-{max(loads, default=0):.1f}; "
          f"{wall:.0f} s wall", flush=True)


def options_for(game: str, args: argparse.Namespace) -> dict[str, object]:
    if game == "spades":
        return {"target": args.spades_target, "bags_penalty": args.bags}
    if game == "bidfair":
        return {"target": args.bidfair_target}
    return {}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength games")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spades-target", type=int, default=200,
                        help="Spades match target (the game's default is 500)")
    parser.add_argument("--bags", action="store_true", help="Spades with bags_penalty on")
    parser.add_argument("--bidfair-target", type=int, default=400,
                        help="Bid Fair match target (the game's default is 800)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--think", type=float, default=0.8,
                        help="each decision's budget, in CPU seconds of the thinking thread "
                             "(the tables' THINK_SECONDS default)")
    parser.add_argument("--every", type=int, default=25,
                        help="print the figures so far every this many matches")
    parser.add_argument("--player", default=None,
                        help="the kind under test (default: each game's default)")
    args = parser.parse_args(argv)
    for game in args.games.split(","):
        kind = args.player if args.player and args.player.startswith(game) else None
        shown = kind or player_kinds(game)[0]
        options = options_for(game, args)
        print(f"== {game}: {shown}, options {options or 'default'} "
              f"(a lower target than the game's default, for speed, where one is given); "
              f"each decision's budget {args.think} s of the thinking thread's CPU time "
              f"(time.thread_time), so the machine's load does not change the results")
        for opp in args.opponents.split(","):
            seeds = range(args.seed, args.seed + args.matches)
            jobs = [(game, opp, kind, s, options, args.think) for s in seeds]
            started = time.perf_counter()
            results: list[MatchResult] = []
            with ProcessPoolExecutor(args.jobs) as pool:
                outcomes = pool.map(play, jobs) if args.jobs > 1 else map(play, jobs)
                for result in outcomes:
                    results.append(result)
                    if len(results) % args.every == 0 and len(results) < args.matches:
                        # The figures so far, for long runs that may be stopped.
                        report(game, opp, results, args.seed, started, "so far: ")
            report(game, opp, results, args.seed, started)
    return 0
