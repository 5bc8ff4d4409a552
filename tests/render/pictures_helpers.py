"""Names for the players in picture tests; finished deals come from bot.render.samples."""

from __future__ import annotations

from bot.render.samples import NAMES, finished_deal

GAMES = tuple(NAMES)

__all__ = ["GAMES", "NAMES", "finished_deal"]
