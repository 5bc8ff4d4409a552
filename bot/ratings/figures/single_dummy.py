"""Single dummy figures: as bridge's, from the single dummy events."""

from __future__ import annotations

from bot.games import Event
from bot.games.events import AuctionEnded, SingleDummyDealEnded

from .bridge import BridgeCounter, contract_level


class SingleDummyCounter(BridgeCounter):
    """Single dummy: the deal's end carries the contract and each player's tricks."""

    def on(self, event: Event) -> None:
        match event:
            case AuctionEnded(declarer=declarer):
                self.declarer = declarer
            case SingleDummyDealEnded(contract=code, tricks=tricks):
                level = contract_level(code)
                if level is not None:
                    self._declared(self.declarer, level, tricks[self.declarer] >= 6 + level)


COUNTER = SingleDummyCounter
