"""What a Spades seat may see: the frozen view, and the public records it is built from."""

from __future__ import annotations

from dataclasses import dataclass

from .base import GameView, Result, ScoreLine
from .cards import Card, Seat, format_deal
from .tricks import Trick

Play = tuple[int, Card]  # (seat, card) in the order played


CompletedTrick = Trick  # the name Spades readers use


@dataclass(frozen=True, slots=True)
class SpadesDealRecord:
    """A deal's hands as dealt (hand records and tests; never shown mid-deal)."""

    deal_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # per seat, 0 = North

    @property
    def pbn(self) -> str:
        return format_deal({Seat(i): list(h) for i, h in enumerate(self.hands)})


@dataclass(frozen=True, slots=True)
class SpadesDealSummary:
    """A finished deal, public to everyone: all hands as dealt, bids, tricks and score."""

    deal_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # per seat, as dealt
    bids: tuple[int, ...]  # per seat (NIL = 0, DOUBLE_NIL = -1)
    tricks_won: tuple[int, ...]  # per seat
    tricks: tuple[CompletedTrick, ...]  # all 13, in order
    lines: tuple[ScoreLine, ...]  # this deal's score line(s)
    bags: tuple[int, ...]  # per side: bags taken this deal


@dataclass(frozen=True, slots=True)
class SpadesScoreDetail:
    """The Spades part of the score sheet: bags per side and each deal's bids and tricks."""

    bags: tuple[int, ...]  # per side, accumulated over the match
    bids: tuple[tuple[int, ...], ...]  # per finished deal, per seat
    tricks: tuple[tuple[int, ...], ...]  # per finished deal, per seat
    penalties: tuple[tuple[int, ...], ...]  # per finished deal, per side (positive)


@dataclass(frozen=True, slots=True)
class SpadesView(GameView):
    """Everything one seat (or a spectator, seat None) may see now.

    `hand` is empty for spectators and for a seat that has not looked at its cards yet
    (it still sees `hand_sizes`). `bids` holds None for a seat that has not bid; nil is 0
    and double nil is -1 (see `spades_scoring.bid_label`).
    """

    looked: tuple[bool, ...]  # per seat: has picked up their cards
    hand_sizes: tuple[int, ...]  # per seat: cards still held
    bids: tuple[int | None, ...]  # per seat
    tricks_won: tuple[int, ...]  # per seat, this deal
    leader: int | None  # who led (or leads) the current trick
    tricks: tuple[CompletedTrick, ...]  # this deal's completed tricks, in order
    last_trick: CompletedTrick | None
    spades_broken: bool
    target: int
    bags_penalty: bool
    bags: tuple[int, ...]  # per side, accumulated
    previous_deal: SpadesDealSummary | None
    result: Result | None
