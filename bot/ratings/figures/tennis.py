"""Tennis figures: games played and errors made."""

from __future__ import annotations

from bot.games import Event
from bot.games.events import TennisDealEnded

from .base import FigureCounter


class TennisCounter(FigureCounter):
    NAMES = ("games", "errors")

    def on(self, event: Event) -> None:
        if isinstance(event, TennisDealEnded):
            for seat, errors in enumerate(event.errors):
                self.add(seat, "games")
                self.add(seat, "errors", errors)


COUNTER = TennisCounter
