"""Helpers for the computer players' tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.ai import make_player
from bot.ai.bridge.learning.forest import Forest
from bot.ai.bridge.learning.values import card_path
from bot.games import create
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


def bridge_play_position(seed: int = 11, cards_played: int = 0) -> Game:
    """A Contract Bridge game after the auction and at least `cards_played` cards (by basic
    players), where the seat to act has a choice."""
    game = create("bridge", seed=seed)
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    while (game.phase == "bidding" or len(game.deal_record().play) < cards_played
           or len(game.legal(next(iter(game.to_act())))) < 2):
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
    return game


def train_tiny(trainer: ModuleType, folder: Path, first: int, deals: int
               ) -> tuple[Path, Path, dict[str, Any]]:
    """A learned model's training on a few bank deals, as CI keeps the training code
    working: `trainer`'s `make` (`reading_training` or `leads_training`) on `deals` bank
    deals from `first`, then a forest of 5 trees on those rows; the model, its rows and
    its card."""
    rows = folder / "rows.npz"
    assert trainer.main(["make", "--first", str(first), "--deals", str(deals),
                         "--out", str(rows)]) == 0
    out = folder / "tiny.npz"
    card: dict[str, Any] = trainer.train([rows], out, trees=5, leaves=4, held_out=5,
                                         command="test", threads=1)
    return out, rows, card


# How a model file can be broken; "bad arrays" is a whole file whose trees point outside
# the forest.
DAMAGES = ("missing", "truncated", "foreign card", "bad arrays")


def broken_copy(model: Path, at: Path, damage: str) -> Path:
    """A copy of `model` and its card at `at`, broken as `damage` (one of DAMAGES) says."""
    shutil.copy(model, at)
    shutil.copy(card_path(model), card_path(at))
    if damage == "truncated":
        at.write_bytes(at.read_bytes()[:200])
    elif damage == "missing":
        at.unlink()
    elif damage == "foreign card":
        card_path(at).write_text('{"features": ["hcp"], "inputs": ["hcp"], "margin": 1}')
    else:
        forest = Forest.load(model)
        Forest(forest.feature, forest.threshold, forest.left + 10**6, forest.right,
               forest.value, forest.roots, forest.depth, forest.features).save(at)
    return at
