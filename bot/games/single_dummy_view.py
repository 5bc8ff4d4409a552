"""What a Single Dummy Bridge seat may see: the view and deal-summary value types.

Hands are named by their compass position: index 0 South, 1 West, 2 North, 3 East
(`HAND_NAMES`). Hand h belongs to seat h % 2: South's player (seat 0) also plays North,
West's player (seat 1) also plays East.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import ScoreLine
from .bridge_auction import Contract
from .cards import Card
from .requests import ClaimedDeal, RequestView
from .tricks import Trick

HAND_NAMES: tuple[str, ...] = ("South", "West", "North", "East")
SOUTH, WEST, NORTH, EAST = 0, 1, 2, 3


def owner_of(hand: int) -> int:
    """The seat that plays hand `hand`."""
    return hand % 2


@dataclass(frozen=True, slots=True)
class TrickRecord(Trick):
    """A completed trick whose players are hand indices (the winner too): the seat that
    won it is `winner_seat`."""

    @property
    def winner_seat(self) -> int:
        return owner_of(self.winner)


@dataclass(frozen=True, slots=True)
class DealSummary(ClaimedDeal):
    """A finished deal, public to everyone once it is over."""

    deal_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # by hand index, as seated for the play
    revealed: int  # hand index the revealed dummy was dealt to
    dummy_choice: str | None  # "revealed" / "hidden"; None if thrown in
    calls: tuple[tuple[int, str], ...]  # (seat, call text)
    contract: Contract | None
    tricks: tuple[int, int]  # tricks taken per seat
    line: ScoreLine


@dataclass(frozen=True, slots=True)
class SingleDummyView(RequestView):
    """Everything one seat (None: a spectator) may see now.

    `hands` holds, per hand index (S, W, N, E), the cards the viewer can see in that hand,
    or None when it is hidden from them: their own hand, the revealed dummy before the
    auction, and both dummies once faced. `hand` is the viewer's own hand (empty for a
    spectator). `trick` and `last_trick` name who played by hand index. `playing_for` is
    the name of the hand to play now (None outside the play).
    """

    hands: tuple[tuple[Card, ...] | None, ...]
    last_trick: TrickRecord | None
    previous_deal: DealSummary | None
    revealed: int  # hand index of the dummy revealed before the auction
    dummies_faced: bool
    calls: tuple[tuple[int, str], ...]  # (seat, call text) in order
    contract: Contract | None
    declarer: int | None  # the bid winner's seat
    playing_for: str | None
    playing_hand: int | None
    tricks_won: tuple[int, int]  # per seat
    played: tuple[Card, ...]  # every card played in completed tricks this deal, in order
    target: int
    undertrick_penalty: bool
