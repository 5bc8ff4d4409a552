"""Single Dummy Bridge bidding and the dummy choice, from one's own hand and the revealed dummy.

Either dummy may end up ours (the bid winner chooses), so for each strain the player values
both options: the revealed dummy as it is, or the hidden one at its expectation (half the
points and half the length of every suit among the 26 cards it cannot see; on average 10
HCP). Points are high-card points plus length points for our hand; in a suit strain the
combined trump length adds 1.5 points per card beyond eight and costs 3 per card short of
eight. The points give the highest level we expect to make:

    notrump: 20 -> 1, 23 -> 2, 25 -> 3, 28 -> 4, 30 -> 5, 33 -> 6, 37 -> 7
    a suit:  19 -> 1, 21 -> 2, 23 -> 3, 25 -> 4, 28 -> 5, 33 -> 6, 37 -> 7

A deal scores only what the winner makes, so the player bids the cheapest legal bid it
expects to make, in the strain where it expects the most (margin over the bid, then the
trick value; seeded tie-break). Double: the opponent's suit bid when we hold four of their
trumps with two of the top three honours, or their notrump bid at the two level or higher
with 16+ HCP. Redouble: our doubled bid when we expect a level more. Otherwise pass.
The dummy choice: the revealed dummy when it is worth at least the hidden one's expectation
in the contract's strain, else the hidden one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.bridge_auction import Bid, Call, Strain
from bot.games.cards import Card

from ..core.bridge_eval import TOTAL_HCP, hcp, length_points, lengths, top_honours

NT_STEPS = ((37, 7), (33, 6), (30, 5), (28, 4), (25, 3), (23, 2), (20, 1))
SUIT_STEPS = ((37, 7), (33, 6), (28, 5), (25, 4), (23, 3), (21, 2), (19, 1))
TRICK_VALUE = {Strain.CLUBS: 20, Strain.DIAMONDS: 20, Strain.HEARTS: 30, Strain.SPADES: 30,
               Strain.NOTRUMP: 30}


@dataclass(frozen=True, slots=True)
class DummyEstimate:
    """What we know of a dummy: its points and its suit lengths (expected if hidden)."""

    hcp: float
    lengths: tuple[float, float, float, float]


def revealed_estimate(cards: Sequence[Card]) -> DummyEstimate:
    ln = lengths(cards)
    return DummyEstimate(float(hcp(cards)), (float(ln[0]), float(ln[1]), float(ln[2]),
                                             float(ln[3])))


def hidden_estimate(mine: Sequence[Card], revealed: Sequence[Card]) -> DummyEstimate:
    """Half of everything we cannot see."""
    seen = list(mine) + list(revealed)
    ln = lengths(seen)
    return DummyEstimate((TOTAL_HCP - hcp(seen)) / 2,
                         ((13 - ln[0]) / 2, (13 - ln[1]) / 2, (13 - ln[2]) / 2,
                          (13 - ln[3]) / 2))


def strain_points(mine: Sequence[Card], dummy: DummyEstimate, strain: Strain) -> float:
    base = hcp(mine) + length_points(mine)
    return _points(base, lengths(mine), dummy, strain)


def _points(base: float, mine: Sequence[int], dummy: DummyEstimate, strain: Strain) -> float:
    """Our points (`base`) plus the dummy's, adjusted for the trump fit."""
    points = base + dummy.hcp
    suit = strain.trump
    if suit is None:
        return points
    fit = mine[suit] + dummy.lengths[suit]
    return points + (1.5 * (fit - 8) if fit >= 8 else 3 * (fit - 8))


def max_level(points: float, strain: Strain) -> int:
    for need, level in (NT_STEPS if strain == Strain.NOTRUMP else SUIT_STEPS):
        if points >= need:
            return level
    return 0


def best_levels(mine: Sequence[Card], revealed: Sequence[Card]) -> dict[Strain, int]:
    """Per strain, the highest level we expect to make with the better dummy."""
    options = (revealed_estimate(revealed), hidden_estimate(mine, revealed))
    base = hcp(mine) + length_points(mine)
    ln = lengths(mine)
    return {strain: max(max_level(_points(base, ln, d, strain), strain) for d in options)
            for strain in Strain}


def choose_call(mine: Sequence[Card], revealed: Sequence[Card], last_bid: Bid | None,
                last_was_opponent: bool, doubled: int, legal: Sequence[Call],
                rng: random.Random) -> Call:
    """The call to make (one of `legal`)."""
    levels = best_levels(mine, revealed)
    bids: list[tuple[int, int, float, Call]] = []
    for call in legal:
        bid = call.bid
        if bid is None or bid.level > levels[bid.strain]:
            continue
        if last_bid is not None and not last_was_opponent:
            continue  # we already hold the contract
        bids.append((levels[bid.strain] - bid.level, TRICK_VALUE[bid.strain],
                     rng.random(), call))
    if bids:
        # Within a strain the cheapest bid has the biggest margin, so this picks it.
        return max(bids, key=lambda b: (b[0], b[1], b[2]))[3]
    kinds = {call.kind: call for call in legal}
    if last_bid is not None and last_was_opponent and "double" in kinds:
        suit = last_bid.strain.trump
        if suit is None:
            if last_bid.level >= 2 and hcp(mine) >= 16:
                return kinds["double"]
        elif lengths(mine)[suit] >= 4 and top_honours(mine, suit, 3) >= 2:
            return kinds["double"]
    if (last_bid is not None and not last_was_opponent and doubled == 1
            and "redouble" in kinds and levels[last_bid.strain] > last_bid.level):
        return kinds["redouble"]
    return kinds.get("pass", legal[0])


def choose_dummy(mine: Sequence[Card], revealed: Sequence[Card], strain: Strain) -> str:
    """`dummy:revealed` when the revealed dummy is worth its hidden twin, else hidden."""
    shown = strain_points(mine, revealed_estimate(revealed), strain)
    unseen = strain_points(mine, hidden_estimate(mine, revealed), strain)
    return "dummy:revealed" if shown >= unseen else "dummy:hidden"

