"""Bid Fair figures: deals as contract holder and contracts fulfilled."""

from __future__ import annotations

from bot.games import Event

from .base import FigureCounter


class BidFairCounter(FigureCounter):
    NAMES = ("contracts", "fulfilled")

    def __init__(self) -> None:
        super().__init__()
        self.holder: int | None = None

    def on(self, event: Event) -> None:
        if event.kind == "contract":
            holder = event.data.get("holder")
            self.holder = None if holder is None else int(holder)
        elif event.kind == "deal_end":
            score = event.data.get("score")
            if self.holder is not None and score is not None:
                self.add(self.holder, "contracts")
                self.add(self.holder, "fulfilled", int(bool(score.fulfilled)))
            self.holder = None


COUNTER = BidFairCounter
