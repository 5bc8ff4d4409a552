"""Spades figures: nil and double nil bids, and how many were made."""

from __future__ import annotations

from bot.games import Event

from .base import FigureCounter


class SpadesCounter(FigureCounter):
    NAMES = ("nil_bids", "nil_made", "double_nil_bids", "double_nil_made")

    def on(self, event: Event) -> None:
        if event.kind != "deal_end":
            return
        tricks = event.data.get("tricks", {})
        for seat, bid in event.data.get("bids", {}).items():
            if bid in ("nil", "double_nil"):
                self.add(int(seat), f"{bid}_bids")
                self.add(int(seat), f"{bid}_made", int(tricks.get(seat, 0) == 0))


COUNTER = SpadesCounter
