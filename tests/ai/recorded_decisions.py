"""Recorded decisions of fixed matches: every computer player's action, seed by seed.

The computer players' decisions must not change when their code is only reorganised. This
module plays a fixed set of matches of each game (the advanced player on one side, the basic
one on the other, both of each seat's kind seeded from the match seed) and lists every
action taken. `tests/ai/test_recorded_decisions.py` replays them against the recording in
`recorded_decisions.json`.

The budget is counted, not timed: it is never spent and affords a fixed number of pieces
of work, and the solver's allowance is unlimited, so a decision does not depend on the
machine's load. A change that is meant to change decisions (a new bidding rule) re-records
them deliberately:

    python -m tests.ai.recorded_decisions
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from bot.ai import Budget, make_player, player_kinds
from bot.games import create

RECORDING = Path(__file__).with_name("recorded_decisions.json")
SEEDS = (1, 2)
# Each game's matches: its options, how many deals of a match are played, and how many
# pieces of work (sampled layouts) a decision's plan may hold (Single Dummy's samples
# cost two double-dummy tables each: few of them keep the test fast).
MATCHES: dict[str, tuple[dict[str, object], int, int]] = {
    "bridge": ({}, 2, 8),
    "single_dummy": ({}, 2, 2),
    "spades": ({}, 2, 8),
    "tennis": ({}, 2, 8),
    "bidfair": ({}, 2, 8),
}


class CountedBudget(Budget):
    """A budget that is never spent and whose plans hold `pieces` pieces of work."""

    def __init__(self, pieces: int) -> None:
        super().__init__(math.inf, clock=lambda: 0.0)
        self.pieces = pieces

    def spent(self) -> bool:
        return False

    def planned_seconds(self, cores: int = 2) -> float:
        return math.inf

    def affordable(self, cost: float, cores: int = 2) -> int:
        return self.pieces


def play(game_name: str, seed: int) -> list[str]:
    """Every action of a match of `game_name` from `seed`, as "seat:action", until the
    match ends or its deals in MATCHES are scored."""
    options, deals, pieces = MATCHES[game_name]
    game = create(game_name, options, seed)
    kinds = player_kinds(game_name)
    advanced, basic = kinds[0], next(kind for kind in kinds if kind.endswith("-basic"))
    sides = game.SIDES
    players: list[Any] = [
        make_player(game_name, seed * 8 + seat, advanced if seat in sides[0] else basic)
        for seat in range(game.SEATS)]
    actions: list[str] = []
    while not game.finished and len(game.scores().lines) < deals:
        for seat in sorted(game.to_act()):
            if game.finished or seat not in game.to_act():
                continue
            action = players[seat].choose(game.view(seat), game.legal(seat),
                                        CountedBudget(pieces))
            game.apply(seat, action)
            actions.append(f"{seat}:{action}")
    return actions


def record() -> dict[str, dict[str, list[str]]]:
    return {game: {str(seed): play(game, seed) for seed in SEEDS} for game in MATCHES}


def main() -> int:
    RECORDING.write_text(json.dumps(record(), indent=0) + "\n")
    print(f"recorded {RECORDING}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
