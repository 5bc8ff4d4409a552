"""The rules engines: pure, synchronous, deterministic, and importing nothing but the stdlib.

Public API (stable; tests, bots, benchmarks and tools rely on it):

    from bot.games import GAMES, create
    game = create("spades", options={"target": 500}, seed=7)
    game.to_act(); game.legal(seat); game.apply(seat, "play:QH"); game.view(seat)
    game.finished; game.scores(); game.result(); game.deal_record()
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .base import (
    ChallengePlay,
    DailyPlay,
    Game,
    GameView,
    IllegalAction,
    InvalidOptions,
    OptionSpec,
    Result,
    ScoreLine,
    ScoreSheet,
    replay,
    replayed,
)
from .events import Event
from .fairness import FairDeals

GAMES: tuple[str, ...] = ("bridge", "single_dummy", "spades", "tennis", "bidfair")
"""The one list of games. A game's engine is `GAME` in `bot.games.<name>`; beside each
layer its other pieces are found by the same name (`bot.ai.<name>`,
`bot.render.games.<name>`; see CONTRIBUTING.md). Modules are imported on first use, so one
game's module never has to load the others."""


def game_class(name: str) -> type[Game[Any]]:
    """The engine class of a game, by its name in GAMES."""
    if name not in GAMES:
        raise InvalidOptions(f"Unknown game {name!r}; the games are: {', '.join(GAMES)}.")
    cls: type[Game[Any]] = importlib.import_module(f"bot.games.{name}").GAME
    return cls


def games_with(feature: str) -> tuple[str, ...]:
    """The games (in GAMES' order) whose engine declares `feature`: a flag or field of
    `Game` such as "HAND_RECORDS", "EXPLAINED_BIDDING" or "DAILY"."""
    return tuple(name for name in GAMES if getattr(game_class(name), feature))


def create(name: str, options: Mapping[str, object] | None = None,
           seed: int | FairDeals = 0) -> Game[Any]:
    """A new match of the named game (dealt from fair deals when given those as its seed)."""
    return game_class(name)(options=options, seed=seed)


__all__ = [
    "GAMES",
    "ChallengePlay",
    "DailyPlay",
    "Event",
    "Game",
    "GameView",
    "IllegalAction",
    "InvalidOptions",
    "OptionSpec",
    "Result",
    "ScoreLine",
    "ScoreSheet",
    "create",
    "game_class",
    "games_with",
    "replay",
    "replayed",
]
