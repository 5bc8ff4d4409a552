"""What the engine tests share."""

from __future__ import annotations

from bot.games import Game


def actor(game: Game) -> int:
    """The one seat on turn (the tests that use this never have two)."""
    (seat,) = game.to_act()
    return seat
