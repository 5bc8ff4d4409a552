"""Rebuild one finished deal of a stored match by replaying its action log from the seed.

The play is the play that stood: cards an accepted undo took back are left out, and a
claim ends it where it was made. Only a deal that has ended is ever returned: the record
is taken at that deal's `DealEnded` event, so a deal still in progress can never leak
through a hand record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.games import create, games_with, replayed
from bot.games.cards import Card
from bot.games.events import CardPlayed, DealEnded, Undone
from bot.games.fairness import FairDeals

from .record import HandRecord, from_bridge, from_single_dummy

HAND_RECORD_GAMES: tuple[str, ...] = games_with("HAND_RECORDS")  # the engines declare it


class NotBridge(ValueError):
    """Hand records exist for the bridge games only."""


class OutOfTime(Exception):
    """A post-mortem's deadline passed before every position was solved (its work
    stopped there)."""


class DealNotOver(LookupError):
    """The deal asked for has not ended (or never happened)."""


def replay_deal(game_name: str, options: Mapping[str, object], seed: int | FairDeals,
                actions: Iterable[tuple[int, str]], deal_no: int) -> HandRecord:
    """The hand record of deal `deal_no`, from the match's seed and (seat, action) log."""
    if game_name not in HAND_RECORD_GAMES:
        raise NotBridge(game_name)
    if deal_no < 1:
        raise DealNotOver(f"there is no deal {deal_no}")
    game = create(game_name, options=options, seed=seed)
    play: list[tuple[int, Card]] = []
    current = int(getattr(game, "deal_no", 0))  # the deal each action was taken in
    for events in replayed(game, actions):
        taken_in, current = current, int(getattr(game, "deal_no", 0))
        if taken_in > deal_no:
            break
        if taken_in != deal_no:
            continue
        for event in events:
            if isinstance(event, CardPlayed):
                play.append((event.hand, Card.parse(event.action[5:])))
            elif isinstance(event, Undone) and play:
                # An accepted undo in the play takes back the last `count` cards (one
                # in the auction finds no card played: the summary has the calls).
                del play[len(play) - event.count:]
            elif isinstance(event, DealEnded) and event.deal_no == deal_no:
                summary = getattr(game, "previous", None)
                if summary is None or summary.deal_no != deal_no:
                    raise DealNotOver(f"deal {deal_no} left no summary")
                if game_name == "bridge":
                    return from_bridge(summary, play)
                return from_single_dummy(summary, play)
    raise DealNotOver(f"deal {deal_no} is not over")
