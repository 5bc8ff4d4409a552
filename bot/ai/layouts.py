"""Layouts of the unseen cards that agree with everything one seat knows.

A search player deals the cards it cannot see to the hands it cannot see, many times, and
solves each layout. A layout must honour what the seat knows: how many cards each hidden
hand still holds, the suits a hand has shown out of (it holds none of them), and what the
auction said about each hand as dealt (a `HandRange`, checked on the cards it still holds
plus the cards it has played). Hands the seat can see are given as they are.

Hands are dealt one at a time, the ones the auction constrains most first: a hand takes the
cards only it may hold (the later hands are void in their suit), then a random draw of the
rest that it may hold, redrawn until its range admits it; the last hidden hand takes what
is left and must fit too, else the layout starts over. Drawing hand by hand keeps tight
ranges cheap (the tries add up instead of multiplying), at the price of being only close
to uniform over the layouts that fit. When too few layouts fit within the attempt limit
(the calls contradict the cards, as a person's odd bidding can), the remaining layouts
honour the cards and voids only, and `Layouts.relaxed` says how many.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games.cards import Card, Suit

from .hand_range import ANY_HAND, HandRange

ATTEMPTS_PER_LAYOUT = 20
TRIES_PER_HAND = 100


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of a four-hand deal, by compass seat (N, E, S, W = 0..3).

    `known[s]` is the hand of a seat it can see (None: hidden); `unseen` the cards it cannot
    place; `sizes[s]` how many cards each hand holds now; `voids[s]` the suits a hand has
    shown out of; `played[s]` the cards that hand has played (its range is checked on the
    hand as dealt); `ranges[s]` what the auction says about each hand as dealt.
    """

    known: tuple[tuple[Card, ...] | None, ...]
    unseen: tuple[Card, ...]
    sizes: tuple[int, ...]
    voids: tuple[frozenset[Suit], ...] = (frozenset(),) * 4
    played: tuple[tuple[Card, ...], ...] = ((),) * 4
    ranges: tuple[HandRange, ...] = (ANY_HAND,) * 4

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if self.known[s] is None)

    def consistent(self) -> bool:
        """The counts add up (a layout exists up to voids)."""
        return sum(self.sizes[s] for s in self.hidden) == len(self.unseen)


@dataclass(slots=True)
class Layouts:
    """Dealt layouts (four hands each, by compass seat) and how many ignore the ranges."""

    hands: list[tuple[tuple[Card, ...], ...]] = field(default_factory=list)
    relaxed: int = 0


def _deal(know: Knowledge, rng: random.Random, ranged: bool) -> dict[int, list[Card]] | None:
    """One layout, hand by hand (the most constrained first), or None at a dead end."""
    hidden = sorted(know.hidden, key=lambda s: (_freedom(know.ranges[s]) if ranged else 0, s))
    pool = list(know.unseen)
    dealt: dict[int, list[Card]] = {}
    for i, seat in enumerate(hidden):
        later = hidden[i + 1:]
        limits = know.ranges[seat] if ranged else ANY_HAND
        if not later:
            hand = pool
            if any(c.suit in know.voids[seat] for c in hand) or (
                    limits is not ANY_HAND
                    and not limits.admits([*hand, *know.played[seat]])):
                return None
            dealt[seat] = hand
            break
        # Cards no later hand may hold (all void in the suit) must go here.
        forced = [c for c in pool if all(c.suit in know.voids[s] for s in later)]
        free = [c for c in pool if c.suit not in know.voids[seat] and c not in forced]
        need = know.sizes[seat] - len(forced)
        if need < 0 or need > len(free):
            return None
        for _ in range(TRIES_PER_HAND):
            hand = forced + rng.sample(free, need)
            if limits is ANY_HAND or limits.admits([*hand, *know.played[seat]]):
                break
        else:
            return None
        dealt[seat] = hand
        taken = set(hand)
        pool = [c for c in pool if c not in taken]
    return dealt


def _freedom(limits: HandRange) -> int:
    """How loosely a range binds a hand (points and lengths it leaves open): the tightest
    is dealt first, so that the last hand, which takes what is left, is the loosest (a
    range is often a fresh `HandRange()` that binds nothing, not `ANY_HAND` itself)."""
    return limits.max_hcp - limits.min_hcp + sum(
        hi - lo for lo, hi in zip(limits.min_len, limits.max_len, strict=True))


def sample(know: Knowledge, count: int, rng: random.Random) -> Layouts:
    """Up to `count` layouts (fewer only if the voids admit none: then the list is empty)."""
    out = Layouts()
    if not know.consistent():
        return out
    ranged = any(know.ranges[s] is not ANY_HAND for s in know.hidden)
    for strict in ((True, False) if ranged else (False,)):
        failures = 0
        while len(out.hands) < count and failures < ATTEMPTS_PER_LAYOUT * count:
            dealt = _deal(know, rng, strict)
            if dealt is None:
                failures += 1
                continue
            out.hands.append(_layout(know, dealt))
            out.relaxed += not strict and ranged
    return out


def _layout(know: Knowledge, dealt: dict[int, list[Card]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(dealt[s]) if know.known[s] is None else know.known[s] or ()
                 for s in range(4))


def shown_voids(tricks: Sequence[Sequence[tuple[int, Card]]]) -> tuple[frozenset[Suit], ...]:
    """The suits each seat has shown out of: it did not follow to a trick led in them."""
    voids: list[set[Suit]] = [set(), set(), set(), set()]
    for trick in tricks:
        if not trick:
            continue
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit != led:
                voids[seat].add(led)
    return tuple(frozenset(v) for v in voids)
