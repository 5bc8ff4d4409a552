"""Per-game texts for the table, the hand and the end of a deal."""

from __future__ import annotations

import importlib

from .base import GameText

_MODULES = {
    "spades": "bot.render.games.spades",
    "bridge": "bot.render.games.bridge",
    "single_dummy": "bot.render.games.single_dummy",
    "tennis": "bot.render.games.tennis",
    "bidfair": "bot.render.games.bidfair",
}
_CACHE: dict[str, GameText] = {}


def text_for(game_name: str) -> GameText:
    """The text builder of a game (the generic one where a game has none of its own)."""
    text = _CACHE.get(game_name)
    if text is None:
        try:
            module = importlib.import_module(_MODULES[game_name])
            text = module.TEXT
        except (KeyError, ModuleNotFoundError):
            text = GameText()
        _CACHE[game_name] = text
    return text
