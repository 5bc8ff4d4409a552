"""Layouts of the unseen cards that agree with everything one seat knows.

A search player deals the cards it cannot see to the hands it cannot see, many times, and
solves each layout. A layout must honour what the seat knows: how many cards each hidden
hand still holds, the suits a hand has shown out of (it holds none of them), and what the
auction said about each hand as dealt (a `HandRange`, checked on the cards it still holds
plus the cards it has played). Where the caller can say whether a hand would have made
its seat's calls (`Knowledge.agrees`: the bridge bidding system's tables), the layouts
are dealt with that check first, while its allowance lasts: a range is only the loose
hull of the hands that bid so. Hands the seat can see are given as they are.

Hands are dealt one at a time, the ones the auction constrains most first: a hand takes the
cards only it may hold (the later hands are void in their suit), then a random draw of the
rest that it may hold, redrawn until its range admits it; the last hidden hand takes what
is left and must fit too, else the layout starts over. Drawing hand by hand keeps tight
ranges cheap (the tries add up instead of multiplying), at the price of being only close
to uniform over the layouts that fit. When too few layouts fit within the attempt limit,
a careful pass deals on where the last hand is the bottleneck: the hand before it is
redrawn until what it leaves fits the last hand too (three tight ranges can leave the last
hand a misfit nearly every time); it is skipped when the plain pass found no layout at
all, which is the calls contradicting the cards (as a person's odd bidding can), not bad
luck. Then, or when the careful pass falls short too, the remaining layouts honour the
cards and voids only, and `Layouts.relaxed` says how many.

Where the caller can say how likely a hand is given the calls (`Knowledge.weigh`: a hand
reading learned from self-play, as a log-weight), `Knowledge.oversample` (by default
`OVERSAMPLE`) times the layouts wanted are dealt by the passes above and `count` of them
kept, drawn by weight without replacement (sampling-importance-resampling): as many
layouts are solved as before, but the likelier ones. Dealing is cheap next to solving.
Without a weight nothing changes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.games.cards import Card, Suit

from .hand_range import ANY_HAND, HandRange

ATTEMPTS_PER_LAYOUT = 20
TRIES_PER_HAND = 100
# The calls' check (`Knowledge.agrees`) costs about 30 µs a hand: a sample asks it at
# most this many times a layout wanted, then deals the rest by the ranges alone.
CHECKS_PER_LAYOUT = 100
# Layouts dealt per layout kept when they are weighed (`Knowledge.weigh`). Sixteen
# played worse (`bridge-lead-play --flag oversample`, 1,000 fresh deals: 0.174 more DD
# tricks a deal given away, CPU p95 876 ms against 356).
OVERSAMPLE = 4


class _Checks:
    """What is left of a sample's allowance of calls' checks."""

    def __init__(self, left: int) -> None:
        self.left = left

    def agree(self, know: Knowledge, seat: int, hand: Sequence[Card]) -> bool:
        if know.agrees is None:
            return True
        self.left -= 1
        return know.agrees(seat, [*hand, *know.played[seat]])


# The log-weights of several hands as dealt as one seat's (seat, hands): `Knowledge.weigh`.
Weigh = Callable[[int, Sequence[Sequence[Card]]], Sequence[float]]


def joined(*weighs: Weigh | None) -> Weigh | None:
    """One weight whose log-weights are the sums of `weighs`' (those not None; None if none
    is): independent evidence about the same hands, such as the calls, the opening lead and
    the cards followed with."""
    parts = tuple(w for w in weighs if w is not None)
    if len(parts) <= 1:
        return parts[0] if parts else None

    def weigh(seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        return [sum(each) for each in zip(*(w(seat, hands) for w in parts), strict=True)]

    return weigh


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
    # Whether a hand as dealt (seat, cards) would have made that seat's calls: the ranges
    # are a loose hull of them (most layouts they admit were bid otherwise).
    agrees: Callable[[int, Sequence[Card]], bool] | None = None
    # How likely each of several hands as dealt (seat, hands) is given the calls (and in
    # card play the opening lead), as log-weights (a learned hand reading): layouts are
    # then drawn by weight from several times as many dealt. All of a seat's hands at
    # once: a learned model reads them in one batch.
    weigh: Weigh | None = None
    # Layouts dealt per layout kept when they are weighed: more keeps the layouts closer to
    # what the weight says, at the price of dealing and weighing them.
    oversample: int = OVERSAMPLE

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
    checked: int = 0  # how many (the first) passed the calls' check (`Knowledge.agrees`)


def _deal(know: Knowledge, rng: random.Random, ranged: bool,
          careful: bool = False, checks: _Checks | None = None,
          ) -> dict[int, list[Card]] | None:
    """One layout, hand by hand (the most constrained first), or None at a dead end;
    `careful`: the hand before the last is redrawn until the last hand fits as well;
    `checks`: each hand must also agree with its seat's calls (until they run out)."""
    hidden = sorted(know.hidden, key=lambda s: (_freedom(know.ranges[s]) if ranged else 0, s))
    pool = list(know.unseen)
    dealt: dict[int, list[Card]] = {}
    for i, seat in enumerate(hidden):
        later = hidden[i + 1:]
        limits = know.ranges[seat] if ranged else ANY_HAND
        if not later:
            if not _fits(know, seat, pool, limits) or (
                    checks is not None and not checks.agree(know, seat, pool)):
                return None
            dealt[seat] = pool
            break
        # Cards no later hand may hold (all void in the suit) must go here.
        forced = [c for c in pool if all(c.suit in know.voids[s] for s in later)]
        free = [c for c in pool if c.suit not in know.voids[seat] and c not in forced]
        need = know.sizes[seat] - len(forced)
        if need < 0 or need > len(free):
            return None
        last = later[0] if careful and len(later) == 1 else None
        for _ in range(TRIES_PER_HAND):
            hand = forced + rng.sample(free, need)
            if limits is not ANY_HAND and not limits.admits([*hand, *know.played[seat]]):
                continue
            if checks is not None and (checks.left <= 0 or not checks.agree(know, seat, hand)):
                continue
            if last is None:
                break
            rest = _without(pool, hand)
            if _fits(know, last, rest, know.ranges[last]) and (
                    checks is None or checks.agree(know, last, rest)):
                break
        else:
            return None
        dealt[seat] = hand
        pool = _without(pool, hand)
    return dealt


def _fits(know: Knowledge, seat: int, hand: Sequence[Card], limits: HandRange) -> bool:
    """`hand` may be `seat`'s: none of its shown voids, and its range admits it as dealt."""
    return not any(c.suit in know.voids[seat] for c in hand) and (
        limits is ANY_HAND or limits.admits([*hand, *know.played[seat]]))


def _without(pool: Sequence[Card], hand: Sequence[Card]) -> list[Card]:
    taken = set(hand)
    return [c for c in pool if c not in taken]


def _freedom(limits: HandRange) -> int:
    """How loosely a range binds a hand (points and lengths it leaves open): the tightest
    is dealt first, so that the last hand, which takes what is left, is the loosest (a
    range is often a fresh `HandRange()` that binds nothing, not `ANY_HAND` itself)."""
    return limits.max_hcp - limits.min_hcp + sum(
        hi - lo for lo, hi in zip(limits.min_len, limits.max_len, strict=True))


def sample(know: Knowledge, count: int, rng: random.Random) -> Layouts:
    """Up to `count` layouts (fewer only if the voids admit none: then the list is empty);
    with `know.weigh`, the likeliest by weight of several times as many dealt."""
    if know.weigh is None or count <= 0:
        return _sample(know, count, rng)
    dealt = _sample(know, count, rng, know.oversample)
    return _by_weight(know, dealt, count, rng)


def _by_weight(know: Knowledge, dealt: Layouts, count: int, rng: random.Random) -> Layouts:
    """`count` of the layouts dealt, drawn with probability by weight without replacement
    (each layout's log-weight plus Gumbel noise, the largest), in dealing order. Layouts
    that passed the calls' check come first: all are kept where they are too few, and
    the rest are drawn from the others."""
    if len(dealt.hands) <= count:
        return dealt  # relaxed layouts only fill up to `count`: none to choose among
    assert know.weigh is not None
    if dealt.checked >= count:
        sure, pool = 0, range(dealt.checked)  # drawn among the checked ones alone
    else:
        sure, pool = dealt.checked, range(dealt.checked, len(dealt.hands))
    weights = [0.0] * len(pool)
    for s in know.hidden:
        seat_weights = know.weigh(s, [[*dealt.hands[i][s], *know.played[s]] for i in pool])
        weights = [total + w for total, w in zip(weights, seat_weights, strict=True)]
    keys = []
    for weight, i in zip(weights, pool, strict=True):
        u = rng.random() or 1e-300  # in (0, 1): its Gumbel noise is finite
        keys.append((weight - math.log(-math.log(u)), i))
    kept = [*range(sure), *sorted(i for _, i in sorted(keys, reverse=True)[:count - sure])]
    return Layouts([dealt.hands[i] for i in kept], 0, min(dealt.checked, count))


def _sample(know: Knowledge, count: int, rng: random.Random, extra: int = 1) -> Layouts:
    """`count` layouts by the passes, or up to `count * extra` where the checked and
    ranged passes find them (relaxed layouts only fill up to `count`; the allowances of
    attempts and checks are those of `count`)."""
    out = Layouts()
    if not know.consistent():
        return out
    ranged = any(know.ranges[s] is not ANY_HAND for s in know.hidden)
    # (strict, careful, checked) passes: the calls' check first while its allowance
    # lasts (careful: the last hand is the one least often bid as it was), then the plain
    # one, so that the layouts dealt where it suffices stay the same for the same seed.
    passes: tuple[tuple[bool, bool, bool], ...] = (
        ((True, True, True),) if know.agrees is not None else ()) + (
        ((True, False, False), (True, True, False), (False, False, False)) if ranged
        else ((False, False, False),))
    checks = _Checks(CHECKS_PER_LAYOUT * count)
    for strict, careful, checked in passes:
        if careful and not checked and not out.hands:
            continue  # no layout fits at all: the calls contradict the cards, relax now
        failures = 0
        # The extra layouts: by the calls' check, else by the ranges where the check left
        # the layouts short of `count` (never relaxed ones: they only fill up to it).
        if checked or ((strict or not ranged) and len(out.hands) < count):
            wanted = count * extra
        else:
            wanted = count
        while len(out.hands) < wanted and failures < ATTEMPTS_PER_LAYOUT * count:
            if checked and checks.left <= 0:
                break
            dealt = _deal(know, rng, strict, careful, checks if checked else None)
            if dealt is None:
                failures += 1
                continue
            out.hands.append(_layout(know, dealt))
            out.relaxed += not strict and ranged
        if checked:
            out.checked = len(out.hands)
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
