"""Spades scoring: pure functions from one deal's bids and tricks to each side's points.

Rulings (docs/rules.md, "Spades"):

- A side with no nil bid plays one contract, the sum of both bids: made, 10 x contract
  plus 1 per overtrick; set, -10 x contract.
- A nil or double nil bidder is scored alone: +100 / -100 (double nil +200 / -200), and
  their tricks do not count for their partner, whose own bid is scored alone on their own
  tricks (made: 10 x bid + overtricks; set: -10 x bid).
- Overtricks are "bags", tracked per side across the match. With the `bags_penalty` option
  a side loses 100 each time its accumulated bags reach a multiple of 10.

Our ruling where docs/rules.md is silent: tricks taken by a nil or double nil bidder are not
bags. They already cost the nil bid its bonus and they count for nobody's contract, so
only overtricks on a contract (the sum of bids, or a nil bidder's partner's own bid) are
bags. A side whose two players both bid nil therefore never takes bags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import SEAT_NAMES

NIL: Final = 0
DOUBLE_NIL: Final = -1
"""Bids are stored as ints: 1..13 tricks, NIL (0) or DOUBLE_NIL (-1)."""

BAG_LIMIT: Final = 10
BAG_PENALTY: Final = 100


def is_nil(bid: int) -> bool:
    """True for nil and double nil."""
    return bid <= NIL


def bid_text(bid: int) -> str:
    """The action suffix of a bid: `nil`, `double_nil` or the number."""
    if bid == DOUBLE_NIL:
        return "double_nil"
    if bid == NIL:
        return "nil"
    return str(bid)


def bid_label(bid: int) -> str:
    """How a player reads a bid: `Nil`, `Double Nil`, `4`."""
    if bid == DOUBLE_NIL:
        return "Double Nil"
    if bid == NIL:
        return "Nil"
    return str(bid)


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's result for one deal, before any bag penalty."""

    points: int
    bags: int
    notes: tuple[str, ...]


def nil_points(bid: int, tricks: int) -> int:
    """A nil (100) or double nil (200) bidder's points, scored alone."""
    value = 200 if bid == DOUBLE_NIL else 100
    return value if tricks == 0 else -value


def contract_points(contract: int, tricks: int) -> tuple[int, int]:
    """(points, bags) of a contract of `contract` tricks that took `tricks` tricks."""
    if tricks >= contract:
        return 10 * contract + (tricks - contract), tricks - contract
    return -10 * contract, 0


def score_side(bids: Sequence[int], tricks: Sequence[int],
               names: Sequence[str] = ("first", "second")) -> SideScore:
    """Score one side (its two players' bids and tricks) for one deal.

    `names` only label the notes (e.g. the seat names).
    """
    # Written out for the two seats (this runs at every deal's end); the same notes in the
    # same order: the nil bidders' (in seat order), then the bidders' contract.
    bid0, bid1 = bids[0], bids[1]
    notes: list[str] = []
    points = 0
    bags = 0
    for i, bid in ((0, bid0), (1, bid1)):
        if bid <= NIL:
            gained = nil_points(bid, tricks[i])
            points += gained
            made = "made" if gained > 0 else f"set ({tricks[i]} tricks)"
            notes.append(f"{names[i]} {bid_label(bid)} {made}: {gained:+d}")
    # With a nil partner the bidder plays alone on their own tricks; otherwise the side's
    # contract is both bids against both players' tricks.
    if bid0 > NIL and bid1 > NIL:
        contract, taken, who = bid0 + bid1, tricks[0] + tricks[1], f"{names[0]} + {names[1]}"
    elif bid0 > NIL:
        contract, taken, who = bid0, tricks[0], names[0]
    elif bid1 > NIL:
        contract, taken, who = bid1, tricks[1], names[1]
    else:
        contract = 0
    if contract:
        gained, bags = contract_points(contract, taken)
        points += gained
        result = "made" if taken >= contract else "set"
        extra = f", {bags} bag{'s' if bags != 1 else ''}" if bags else ""
        notes.append(f"{who} bid {contract}, took {taken}: {result}{extra}: {gained:+d}")
    return SideScore(points=points, bags=bags, notes=tuple(notes))


def bag_penalty(bags_before: int, bags_added: int) -> int:
    """Points lost for crossing multiples of ten accumulated bags (0 or more, positive)."""
    crossed = (bags_before + bags_added) // BAG_LIMIT - bags_before // BAG_LIMIT
    return BAG_PENALTY * crossed


@dataclass(frozen=True, slots=True)
class DealScore:
    """The whole score of one deal, per side (index 0: North-South, 1: East-West)."""

    bids: tuple[int, ...]  # per seat
    tricks: tuple[int, ...]  # per seat
    points: tuple[int, ...]  # per side, penalties included
    bags: tuple[int, ...]  # bags taken this deal, per side
    penalties: tuple[int, ...]  # bag penalties this deal, per side (positive numbers)
    notes: tuple[tuple[str, ...], ...]  # per side


def score_deal(bids: Sequence[int], tricks: Sequence[int],
               bags_before: Sequence[int] = (0, 0), bags_penalty: bool = False,
               seat_names: Sequence[str] = SEAT_NAMES,
               ) -> DealScore:
    """Score a four-seat deal; sides are seats (0, 2) and (1, 3)."""
    points: list[int] = []
    bags: list[int] = []
    penalties: list[int] = []
    notes: list[tuple[str, ...]] = []
    for side, (a, b) in enumerate(((0, 2), (1, 3))):
        result = score_side((bids[a], bids[b]), (tricks[a], tricks[b]),
                            (seat_names[a], seat_names[b]))
        penalty = bag_penalty(bags_before[side], result.bags) if bags_penalty else 0
        side_notes = result.notes
        if penalty:
            side_notes += (f"bag penalty: -{penalty}",)
        points.append(result.points - penalty)
        bags.append(result.bags)
        penalties.append(penalty)
        notes.append(side_notes)
    return DealScore(bids=tuple(bids), tricks=tuple(tricks), points=tuple(points),
                     bags=tuple(bags), penalties=tuple(penalties), notes=tuple(notes))
