"""Computer players. A player gets a seat's view and its legal actions, and returns one action.

A player never sees more than its seat's view: the table passes `game.view(seat)` and
`game.legal(seat)`, nothing else. Each game registers its players in `PLAYERS`; the first
one listed is the default kind the tables use. A kind's name is stable: ratings use it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Player(Protocol):
    """A computer player for one seat."""

    kind: str

    def choose(self, view: Any, legal: Sequence[str]) -> str:
        """One of `legal`, chosen from what `view` shows."""
        ...


class RandomPlayer:
    """Picks uniformly among the legal actions (tests and benchmarks)."""

    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[str]) -> str:
        return self.rng.choice(list(legal))


# game name -> (module, class) of its default computer player
_DEFAULT: dict[str, tuple[str, str]] = {
    "spades": ("bot.ai.spades", "SpadesPlayer"),
    "bridge": ("bot.ai.bridge", "BridgePlayer"),
    "single_dummy": ("bot.ai.single_dummy", "SingleDummyPlayer"),
    "tennis": ("bot.ai.tennis", "TennisPlayer"),
    "bidfair": ("bot.ai.bidfair", "BidFairPlayer"),
}


def player_factory(game: str) -> Callable[[int], Player]:
    """The constructor of a game's default computer player, taking a seed."""
    module_name, class_name = _DEFAULT[game]
    factory: Callable[[int], Player] = getattr(importlib.import_module(module_name), class_name)
    return factory


def make_player(game: str, seed: int = 0) -> Player:
    return player_factory(game)(seed)
