"""Bid Fair's bidding rules as pure functions: who places next, what a bid must outrank,
who may pass, and who becomes bidder and contract holder.

`placed[seat]` is that seat's placed card (None: not yet), `passes[seat]` whether it passed.
Each player ends up placing exactly one card; the non-dealer acts first and the dealer may
pass only after the non-dealer passed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bidfair_rank import CONTRACT_VALUES, rank_word
from .bidfair_view import Placement
from .cards import Card, Rank


def bid_turn(dealer: int, placed: Sequence[Placement | None],
             passes: Sequence[bool]) -> int | None:
    """The seat to place (or pass) next, or None once both cards are placed."""
    non_dealer = 1 - dealer
    if placed[non_dealer] is None and not passes[non_dealer]:
        return non_dealer
    if placed[dealer] is None:
        return dealer
    if placed[non_dealer] is None:
        return non_dealer
    return None


def bid_floor(seat: int, placed: Sequence[Placement | None]) -> Rank | None:
    """The rank a face-up bid by `seat` must beat: the opponent's face-up bid, if any."""
    other = placed[1 - seat]
    if other is not None and other.face_up and other.card is not None:
        return other.card.rank
    return None


def may_pass(seat: int, dealer: int, placed: Sequence[Placement | None],
             passes: Sequence[bool]) -> bool:
    if seat != dealer:
        return not passes[seat] and placed[dealer] is None
    return passes[1 - dealer]


def bid_error(seat: int, c: Card, placed: Sequence[Placement | None]) -> str | None:
    """Why `c` may not be bid face up by `seat` now, or None when it may."""
    floor = bid_floor(seat, placed)
    if floor is None or c.rank > floor:
        return None
    other = placed[1 - seat]
    assert other is not None and other.card is not None
    higher = [r for r in CONTRACT_VALUES if r > floor]
    if not higher:
        return f"Nothing outranks the {other.card.label}: place a card face down."
    words = " or ".join(", ".join(rank_word(r) for r in higher).rsplit(", ", 1))
    return (f"Your bid must outrank the {other.card.label}: play {words} face up, "
            f"or place a card face down.")


def contract_of(placed: Sequence[Placement | None]) -> tuple[int, Rank] | None:
    """(bidder, high rank): the seat with the higher face-up bid; None with no face-up bid."""
    ups = [(p.card.rank, seat) for seat, p in enumerate(placed)
           if p is not None and p.face_up and p.card is not None]
    if not ups:
        return None
    rank, bidder = max(ups)
    return bidder, rank
