"""Helpers for the computer players' tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.base import Game


def play_checking_legal(game: Game, players: Sequence[Any],
                        stop: Callable[[Game], bool] = lambda game: False) -> int:
    """Let `players` (one per seat) play until the match ends or `stop(game)`, asserting
    each chose one of its legal actions; returns how many decisions they made."""
    decisions = 0
    while not game.finished and not stop(game):
        for seat in sorted(game.to_act()):
            if seat not in game.to_act():
                continue  # the match moved on (an action ended the phase)
            legal = game.legal(seat)
            action = players[seat].choose(game.view(seat), legal)
            assert action in legal
            game.apply(seat, action)
            decisions += 1
    return decisions
