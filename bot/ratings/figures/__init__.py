"""Game-specific figures for /stats, counted per seat by replaying a match's action log.

A match is replayed once, when it finishes (and again by `ratings --rebuild`); the totals
are stored per person, so /stats only reads a few rows. Each game's counter is `COUNTER`
in `bot.ratings.figures.<name>` (found by the game's name, like every per-game piece), a
`FigureCounter` whose `NAMES` are the whole-number figures it counts, e.g. bridge's
`declared`, `made`, `slams_bid`, `slams_made`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from bot.games import GAMES, create, replayed
from bot.games.fairness import FairDeals

from .base import FigureCounter, Figures


def counter_class(game_name: str) -> type[FigureCounter]:
    """The figure counter of a game of GAMES."""
    if game_name not in GAMES:
        raise ValueError(f"Unknown game {game_name!r}")
    cls: type[FigureCounter] = importlib.import_module(f"{__name__}.{game_name}").COUNTER
    return cls


def figure_names(game_name: str) -> tuple[str, ...]:
    return counter_class(game_name).NAMES


def match_figures(game_name: str, options: Mapping[str, Any], seed: int | FairDeals,
                  history: Iterable[tuple[int, str]]) -> Figures:
    """Replay the log from the seed and count each seat's figures (only seats with any)."""
    game = create(game_name, options=options, seed=seed)
    counter = counter_class(game_name)()
    for events in replayed(game, history):
        counter.take(events)
    return {seat: dict(counts) for seat, counts in counter.figures.items() if counts}


__all__ = ["FigureCounter", "Figures", "counter_class", "figure_names", "match_figures"]
