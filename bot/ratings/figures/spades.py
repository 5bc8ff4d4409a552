"""Spades figures: nil and double nil bids, and how many were made."""

from __future__ import annotations

from bot.games import Event
from bot.games.events import SpadesDealEnded

from .base import FigureCounter


class SpadesCounter(FigureCounter):
    NAMES = ("nil_bids", "nil_made", "double_nil_bids", "double_nil_made")

    def on(self, event: Event) -> None:
        if not isinstance(event, SpadesDealEnded):
            return
        for seat, bid in enumerate(event.bids):
            if bid in ("nil", "double_nil"):
                self.add(seat, f"{bid}_bids")
                self.add(seat, f"{bid}_made", int(event.tricks[seat] == 0))


COUNTER = SpadesCounter
