"""Finished deals of every game, played at random from a seed, for picture tests."""

from __future__ import annotations

import random
from typing import Any

from bot.games import create

NAMES = {"bridge": ("Alice", "East bot", "Carol", "Dave"),
         "spades": ("Alice", "East bot", "Carol", "West bot"),
         "single_dummy": ("Alice", "Bob"), "tennis": ("Alice", "Bob"),
         "bidfair": ("Alice", "Bob")}
GAMES = tuple(NAMES)


def finished_deal(game: str, seed: int) -> Any:
    """The public summary of the first deal of a random match (legal moves only)."""
    engine = create(game, options={}, seed=seed)
    rng = random.Random(seed)
    while engine.view(None).previous_deal is None:
        seat = min(engine.to_act())
        engine.apply(seat, rng.choice(list(engine.legal(seat))))
    return engine.view(None).previous_deal
