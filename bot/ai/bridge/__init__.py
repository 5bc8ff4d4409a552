"""Contract Bridge's computer players: the rule-based `BridgePlayer` and the look-ahead
`AdvancedBridgePlayer` that builds on it."""

from __future__ import annotations

from .. import PlayerFactory
from .advanced import AdvancedBridgePlayer
from .basic import BridgePlayer
from .learning import defence, leads, reading, values


def prepare() -> None:
    """Load the learned call values, hand reading, opening leads and defence leads (a
    worker process does so at its start)."""
    values.shared(values.DEFAULT)
    values.shared(values.RUBBER)
    reading.shared()
    leads.shared()
    defence.shared()


# The kinds of player for this game, the strongest (the default) first.
PLAYERS: dict[str, PlayerFactory] = {
    AdvancedBridgePlayer.kind: AdvancedBridgePlayer,
    BridgePlayer.kind: BridgePlayer,
}
