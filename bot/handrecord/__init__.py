"""Hand records for the bridge games: a finished deal as PBN, with double-dummy analysis.

- `replay_deal(...)` rebuilds one finished deal from a match's seed and action log
  (`DealNotOver` for a deal still in progress, `NotBridge` for other games);
- `to_pbn(record, heading)` writes it as a PBN 2.1 game (deal, auction, play, result);
- `bot.handrecord.solver` (imported on demand: endplay is slow to import) gives the
  double-dummy table and par with endplay, and their text forms.

May import bot/games, bot/store and endplay; never discord.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.games.fairness import FairDeals

from .pbn import Heading, to_pbn
from .record import HandRecord, four_seat_auction, from_bridge, from_single_dummy
from .replay import HAND_RECORD_GAMES, DealNotOver, NotBridge, OutOfTime, replay_deal

# The name of the end-of-deal post's field holding deal_verdict's line (which therefore
# does not begin with it again).
DEAL_VERDICT_NAME = "Double dummy"


def deal_verdict(game_name: str, options: Mapping[str, object], seed: int | FairDeals,
                 actions: Iterable[tuple[int, str]], deal_no: int,
                 deadline: float | None = None) -> str | None:
    """The double-dummy line of an end-of-deal post (`postmortem.deal_line`, blocking;
    it stops, raising OutOfTime, once the wall-clock `deadline` has passed).
    Importable without endplay, so it can be handed to a worker process by name."""
    from .postmortem import deal_line  # endplay: loaded on first use

    return deal_line(game_name, options, seed, actions, deal_no, deadline)


__all__ = [
    "DEAL_VERDICT_NAME",
    "HAND_RECORD_GAMES",
    "DealNotOver",
    "HandRecord",
    "Heading",
    "NotBridge",
    "OutOfTime",
    "deal_verdict",
    "four_seat_auction",
    "from_bridge",
    "from_single_dummy",
    "replay_deal",
    "to_pbn",
]
