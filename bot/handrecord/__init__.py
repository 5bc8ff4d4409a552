"""Hand records for the bridge games: a finished deal as PBN, with double-dummy analysis.

- `replay_deal(...)` rebuilds one finished deal from a match's seed and action log
  (`DealNotOver` for a deal still in progress, `NotBridge` for other games);
- `to_pbn(record, heading)` writes it as a PBN 2.1 game (deal, auction, play, result);
- `bot.handrecord.solver` (imported on demand: endplay is slow to import) gives the
  double-dummy table and par with endplay, and their text forms.

May import bot/games, bot/store and endplay; never discord.
"""

from __future__ import annotations

from .pbn import Heading, to_pbn
from .record import HandRecord, four_seat_auction, from_bridge, from_single_dummy
from .replay import HAND_RECORD_GAMES, DealNotOver, NotBridge, replay_deal

__all__ = [
    "HAND_RECORD_GAMES",
    "DealNotOver",
    "HandRecord",
    "Heading",
    "NotBridge",
    "four_seat_auction",
    "from_bridge",
    "from_single_dummy",
    "replay_deal",
    "to_pbn",
]
