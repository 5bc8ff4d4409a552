"""Tennis's computer players: the rule-based `TennisPlayer` and the look-ahead
`AdvancedTennisPlayer` that builds on it."""

from __future__ import annotations

from .. import PlayerFactory
from .advanced import AdvancedTennisPlayer
from .basic import TennisPlayer

# The kinds of player for this game, the strongest (the default) first.
PLAYERS: dict[str, PlayerFactory] = {
    AdvancedTennisPlayer.kind: AdvancedTennisPlayer,
    TennisPlayer.kind: TennisPlayer,
}
