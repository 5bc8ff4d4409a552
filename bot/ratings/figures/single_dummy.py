"""Single dummy figures: as bridge's, from the single dummy events."""

from __future__ import annotations

from bot.games import Event

from .bridge import BridgeCounter, contract_level


class SingleDummyCounter(BridgeCounter):
    """Single dummy: the deal_end event carries the contract and each player's tricks."""

    def on(self, event: Event) -> None:
        if event.kind == "auction_end":
            self.declarer = int(event.data["declarer"])
        elif event.kind == "deal_end":
            level = contract_level(event.data.get("contract"))
            tricks = event.data.get("tricks") or (0, 0)
            if level is not None:
                self._declared(self.declarer, level, tricks[self.declarer] >= 6 + level)


COUNTER = SingleDummyCounter
