"""Rubber bridge figures: contracts declared and made, slams bid and made."""

from __future__ import annotations

from bot.games import Event
from bot.games.events import AuctionEnded, DealEnded, TrickWon

from .base import FigureCounter


def contract_level(code: str | None) -> int | None:
    return int(code[0]) if code and code[0].isdigit() else None


class BridgeCounter(FigureCounter):
    """Rubber bridge: tricks counted per side from `TrickWon` events (seat % 2 is the side)."""

    NAMES = ("declared", "made", "slams_bid", "slams_made")

    def __init__(self) -> None:
        super().__init__()
        self.contract: tuple[int, int] | None = None  # level, declarer
        self.declarer = 0
        self.tricks = [0, 0]

    def on(self, event: Event) -> None:
        match event:
            case AuctionEnded(contract=code, declarer=declarer):
                level = contract_level(code)
                self.contract = (level, declarer) if level else None
            case TrickWon(winner=winner):
                self.tricks[winner % 2] += 1
            case DealEnded():
                if self.contract is not None:
                    level, declarer = self.contract
                    self._declared(declarer, level, self.tricks[declarer % 2] >= 6 + level)
                self.contract, self.tricks = None, [0, 0]

    def _declared(self, seat: int, level: int, made: bool) -> None:
        self.add(seat, "declared")
        self.add(seat, "made", int(made))
        if level >= 6:
            self.add(seat, "slams_bid")
            self.add(seat, "slams_made", int(made))


COUNTER = BridgeCounter
