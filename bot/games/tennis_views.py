"""What a Tennis seat may see: the view dataclasses the engine builds fresh on each call.

Per-player fields are tuples indexed by seat (0, 1). Hand kinds are named by the strings
"Backhand" and "Forehand".
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import GameView, ScoreLine
from .cards import Card, Suit
from .tricks import Trick


@dataclass(frozen=True, slots=True, kw_only=True)
class TennisTrick(Trick):
    """A completed trick by seats, with the hand each card came from and the winning hand."""

    hands: tuple[str, ...]  # parallel to `cards`: "Forehand" or "Backhand"
    winner_hand: str  # the kind of the winning hand, which leads the next trick


@dataclass(frozen=True, slots=True)
class TennisDealSummary:
    """A finished game (deal), shown in full once it is over."""

    deal_no: int
    set_no: int
    game_no: int
    trump: Suit | None
    dealer: int
    backhands: tuple[tuple[Card, ...], ...]  # per seat, as dealt (13 cards, bid card included)
    forehands: tuple[tuple[Card, ...], ...]
    backhand_bids: tuple[Card, ...]  # per seat
    forehand_bids: tuple[Card, ...]
    backhand_tricks: tuple[int, ...]  # per seat
    forehand_tricks: tuple[int, ...]
    errors: tuple[int, ...]  # per seat, this game only
    lines: tuple[ScoreLine, ...]


@dataclass(frozen=True, slots=True)
class TennisView(GameView):
    """One seat's view (seat None: a spectator).

    `hand` is only ever one of the viewer's hands, named by `hand_kind`: the Backhand
    during the Backhand bid, the Forehand during the Forehand bid, and during play the hand
    the viewer plays from next in the current trick, or, once both their cards of this
    trick are down, the hand they played last (the one they are still holding). Bids are
    None until revealed, except that a player sees their own bid as soon as it is made.
    """

    set_no: int  # 1..2
    game_no: int  # 1..5 within the set
    bidding: str  # during "bidding": the kind being bid ("Backhand"/"Forehand"), else ""
    hand_kind: str  # which of the viewer's hands `hand` is; "" when none is shown
    trump: Suit | None  # None: notrump
    backhand_bids: tuple[Card | None, ...]  # per seat
    forehand_bids: tuple[Card | None, ...]
    backhand_tricks: tuple[int, ...]  # tricks won so far this game, per seat
    forehand_tricks: tuple[int, ...]
    to_play_hand: str  # during play: the kind of hand whose card is due next, else ""
    trick_hands: tuple[str, ...]  # parallel to `trick`: "Forehand" or "Backhand"
    last_trick: TennisTrick | None
    tricks_played: int  # completed tricks this game
    errors: tuple[int, ...]  # match totals so far, per seat
    previous_deal: TennisDealSummary | None
