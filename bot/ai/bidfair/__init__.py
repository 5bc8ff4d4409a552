"""Bid Fair's computer players: the rule-based `BidFairPlayer` and the look-ahead
`AdvancedBidFairPlayer` that builds on it."""

from __future__ import annotations

from .. import PlayerFactory
from .advanced import AdvancedBidFairPlayer
from .basic import BidFairPlayer

# The kinds of player for this game, the strongest (the default) first.
PLAYERS: dict[str, PlayerFactory] = {
    AdvancedBidFairPlayer.kind: AdvancedBidFairPlayer,
    BidFairPlayer.kind: BidFairPlayer,
}
