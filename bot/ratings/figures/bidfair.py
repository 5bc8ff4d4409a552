"""Bid Fair figures: deals as contract holder and contracts fulfilled."""

from __future__ import annotations

from bot.games import Event
from bot.games.events import BidFairDealEnded, ContractSettled

from .base import FigureCounter


class BidFairCounter(FigureCounter):
    NAMES = ("contracts", "fulfilled")

    def __init__(self) -> None:
        super().__init__()
        self.holder: int | None = None

    def on(self, event: Event) -> None:
        match event:
            case ContractSettled(holder=holder):
                self.holder = holder
            case BidFairDealEnded(score=score):
                if self.holder is not None:
                    self.add(self.holder, "contracts")
                    self.add(self.holder, "fulfilled", int(bool(score.fulfilled)))
                self.holder = None


COUNTER = BidFairCounter
