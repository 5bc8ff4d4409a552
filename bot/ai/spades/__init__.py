"""Spades's computer players: the rule-based `SpadesPlayer` and the look-ahead
`AdvancedSpadesPlayer` that builds on it."""

from __future__ import annotations

from .. import PlayerFactory
from .advanced import AdvancedSpadesPlayer
from .basic import SpadesPlayer

# The kinds of player for this game, the strongest (the default) first.
PLAYERS: dict[str, PlayerFactory] = {
    AdvancedSpadesPlayer.kind: AdvancedSpadesPlayer,
    SpadesPlayer.kind: SpadesPlayer,
}
