"""Per-game texts for the table, the hand and the end of a deal."""

from __future__ import annotations

import importlib
from typing import Any

from bot.games import GAMES

from .base import GameText

_CACHE: dict[str, GameText[Any, Any]] = {}


def text_for(game_name: str) -> GameText[Any, Any]:
    """The text builder of a game: `TEXT` in `bot.render.games.<name>` (found by the game's
    name; a game of GAMES without one fails loudly). A name outside GAMES (an old row, a
    test) gets the generic one."""
    text = _CACHE.get(game_name)
    if text is None:
        if game_name in GAMES:
            text = importlib.import_module(f"bot.render.games.{game_name}").TEXT
        else:
            text = GameText[Any, Any]()
        _CACHE[game_name] = text
    return text
