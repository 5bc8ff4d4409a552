"""`python -m bot simulate GAME`: whole matches between computer players, with throughput.

Used to check a game end to end and to see how fast the engine and its bots run. Every seat
gets its own player object (a player may remember what its own seat has seen).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.ai import make_player
from bot.games import create


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    seed: int
    deals: int
    actions: int
    summary: str


def play_match(game_name: str, seed: int, options: dict[str, object] | None = None,
               max_actions: int = 1_000_000) -> MatchOutcome:
    """One whole match with the game's default computer player in every seat."""
    game = create(game_name, options=options, seed=seed)
    players = [make_player(game_name, seed * 31 + seat) for seat in range(game.SEATS)]
    actions = 0
    while not game.finished:
        # Several seats may act at once (simultaneous bids): let each act in seat order.
        for seat in sorted(game.to_act()):
            if game.finished or seat not in game.to_act():
                continue
            action = players[seat].choose(game.view(seat), game.legal(seat))
            game.apply(seat, action)
            actions += 1
        if actions > max_actions:
            raise RuntimeError(f"{game_name} seed {seed}: no end after {max_actions} actions")
    result = game.result()
    summary = result.summary if result else "unfinished"
    return MatchOutcome(seed=seed, deals=getattr(game, "deal_no", 0), actions=actions,
                        summary=summary)


def run(game_name: str, matches: int, seed: int, quiet: bool = False) -> None:
    start = time.perf_counter()
    total_actions = 0
    total_deals = 0
    for i in range(matches):
        outcome = play_match(game_name, seed + i)
        total_actions += outcome.actions
        total_deals += outcome.deals
        if not quiet:
            print(f"match {i + 1} (seed {outcome.seed}): {outcome.deals} deals, "
                  f"{outcome.actions} actions: {outcome.summary}")
    elapsed = max(time.perf_counter() - start, 1e-9)
    print(f"{matches} {game_name} matches in {elapsed:.2f}s: {matches / elapsed:.2f} matches/s, "
          f"{total_deals / elapsed:.1f} deals/s, {total_actions / elapsed:.0f} actions/s")
