"""Scoring a finished Tennis game: errors per player, the score line and the public summary."""

from __future__ import annotations

from collections.abc import Sequence

from .base import ScoreLine
from .cards import Card
from .events import TennisDealEnded
from .tennis_rules import (
    BACKHAND,
    FOREHAND,
    KIND_NAMES,
    bid_value,
    game_errors,
    hand_id,
    kind_of,
    seat_of,
    set_and_game,
    trump_name,
    trump_of,
)
from .tennis_views import TennisDealSummary


def score_game(seat_names: Sequence[str], deal_no: int, dealer: int,
               dealt: Sequence[tuple[Card, ...]], bids: Sequence[Card],
               tricks: Sequence[int]) -> TennisDealSummary:
    """The finished game's summary; `dealt`, `bids` and `tricks` are indexed by hand."""
    values = [bid_value(c) for c in bids]
    errors = tuple(game_errors(tricks[hand_id(s, FOREHAND)], values[hand_id(s, FOREHAND)],
                               tricks[hand_id(s, BACKHAND)], values[hand_id(s, BACKHAND)])
                   for s in (0, 1))
    note = "; ".join(
        f"{seat_names[s]}: Forehand bid {values[hand_id(s, FOREHAND)]} won"
        f" {tricks[hand_id(s, FOREHAND)]}, Backhand bid {values[hand_id(s, BACKHAND)]}"
        f" won {tricks[hand_id(s, BACKHAND)]}" for s in (0, 1))
    set_no, game_no = set_and_game(deal_no)
    trump = trump_of(deal_no)
    line = ScoreLine(f"Set {set_no} game {game_no} ({trump_name(trump)})", errors, note)
    return TennisDealSummary(
        deal_no=deal_no, set_no=set_no, game_no=game_no, trump=trump, dealer=dealer,
        backhands=(dealt[0], dealt[1]), forehands=(dealt[2], dealt[3]),
        backhand_bids=(bids[0], bids[1]), forehand_bids=(bids[2], bids[3]),
        backhand_tricks=(tricks[0], tricks[1]), forehand_tricks=(tricks[2], tricks[3]),
        errors=errors, lines=(line,))


def deal_end_event(seat_names: Sequence[str], summary: TennisDealSummary,
                   dealt: Sequence[tuple[Card, ...]], bids: Sequence[Card],
                   tricks: Sequence[int]) -> TennisDealEnded:
    """The finished game's event; per-hand entries are named "<seat name> <kind>"."""
    text = f"Game {summary.deal_no} over: " + ", ".join(
        f"{seat_names[s]} {n} error{'' if n == 1 else 's'}"
        for s, n in enumerate(summary.errors)) + "."
    return TennisDealEnded(
        text, None, summary.deal_no, tuple(summary.lines),
        tuple(tuple(c.text for c in dealt[h]) for h in range(4)),
        tuple(f"{seat_names[seat_of(h)]} {KIND_NAMES[kind_of(h)]}" for h in range(4)),
        tuple(bids[h].text for h in range(4)), tuple(tricks[h] for h in range(4)),
        tuple(summary.errors))
