"""Tennis figures: games played and errors made."""

from __future__ import annotations

from bot.games import Event

from .base import FigureCounter


class TennisCounter(FigureCounter):
    NAMES = ("games", "errors")

    def on(self, event: Event) -> None:
        if event.kind == "deal_end":
            for seat, errors in enumerate(event.data.get("errors", ())):
                self.add(seat, "games")
                self.add(seat, "errors", int(errors))


COUNTER = TennisCounter
