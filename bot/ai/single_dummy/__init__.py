"""Single Dummy Bridge's computer players: the rule-based `SingleDummyPlayer` and the look-ahead
`AdvancedSingleDummyPlayer` that builds on it."""

from __future__ import annotations

from .. import PlayerFactory
from .advanced import AdvancedSingleDummyPlayer
from .basic import SingleDummyPlayer

# The kinds of player for this game, the strongest (the default) first.
PLAYERS: dict[str, PlayerFactory] = {
    AdvancedSingleDummyPlayer.kind: AdvancedSingleDummyPlayer,
    SingleDummyPlayer.kind: SingleDummyPlayer,
}
