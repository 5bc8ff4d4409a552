"""Hands as bitmasks, for search: the compact representation the look-ahead players use.

A hand is an int whose bit `Card.index` (suit * 13 + rank - 2) is set for each card held, so
a suit is a block of 13 bits, the lowest card of a set is its lowest bit and the highest its
highest bit. Following suit, finding a trick's winner under natural rank order with a trump,
and picking cheap or strong cards become a few integer operations instead of loops over
`Card` objects. `tests/ai/test_search_masks.py` checks these against `bot.games` (same legal
cards, same trick winners) on random positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from bot.games.cards import FULL_DECK, Card

SUIT_BITS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL: int = (1 << 52) - 1
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
# Bits strictly above card i within its suit (the cards of its suit that beat it).
ABOVE: tuple[int, ...] = tuple(SUIT_BITS[i // 13] & ~((2 << i) - 1) for i in range(52))
BELOW: tuple[int, ...] = tuple(SUIT_BITS[i // 13] & ((1 << i) - 1) for i in range(52))


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(FULL_DECK[low.bit_length() - 1])
        mask ^= low
    return out


def bits(mask: int) -> list[int]:
    """The card indices of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def count(mask: int) -> int:
    return mask.bit_count()


def follow_mask(hand: int, led: int) -> int:
    """The cards of `hand` that may follow a trick led in suit `led` (-1: leading)."""
    if led < 0:
        return hand
    same = hand & SUIT_BITS[led]
    return same or hand


def beats(card: int, best: int, trump: int) -> bool:
    """Does card index `card` take the trick from `best` (the card now winning)?

    `best` is always of the suit led or a trump, so higher in its suit or a trump on a
    non-trump wins. `trump` is a suit number, or -1 for notrump.
    """
    cs, bs = SUIT_OF[card], SUIT_OF[best]
    if cs == bs:
        return card > best
    return cs == trump


def winner_of(trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """(player, card index) now winning a non-empty trick of (player, card index) plays:
    the highest trump, else the highest card of the suit led (`trump` -1: notrump)."""
    winner, best = trick[0]
    for player, c in trick[1:]:
        if SUIT_OF[c] == SUIT_OF[best]:
            if c > best:
                winner, best = player, c
        elif SUIT_OF[c] == trump:
            winner, best = player, c
    return winner, best


def second_takes(beaten_by: Sequence[int], led: int, card: int) -> bool:
    """Does `card`, played second to a two-card trick led with `led`, take it, in an order
    given as a table (Bid Fair's: `beaten_by[led]` is the mask of the cards that do)?"""
    return bool(beaten_by[led] >> card & 1)


def winning_cards(legal: int, best: int, trump: int) -> int:
    """The cards of `legal` that would take the trick from `best`."""
    bs = SUIT_OF[best]
    won = legal & ABOVE[best]
    if trump >= 0 and bs != trump:
        won |= legal & SUIT_BITS[trump]
    return won


def equivalent_classes(hand: int, barrier: int) -> list[int]:
    """One card per run of touching cards: cards of one suit with no `barrier` card (one
    still in another hand, or on the table now) between them play alike, so a search need
    try only one of each run (the lowest is returned)."""
    out = []
    for s in range(4):
        suit = SUIT_BITS[s]
        m = hand & suit
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            run = low
            nxt = low << 1
            while nxt & suit and not nxt & barrier:
                run |= nxt & hand
                nxt <<= 1
            m &= ~run
    return out


def deal_unseen(unseen: int, sizes: Mapping[int, int], voids: Sequence[int],
                rng: random.Random, tries: int = 30) -> dict[int, int]:
    """Deal the `unseen` cards at random to the hands named in `sizes` (hand -> how many
    cards it holds), each card to a hand that may hold it (`voids[hand]`: a mask of the
    cards it cannot hold, from the suits it has shown out of) and has room left.

    The most constrained cards go first, and a card picks among its possible hands in
    proportion to their room, so layouts come out close to uniform. Should the voids leave
    no way through in `tries` attempts (true voids never contradict each other, but random
    choices can paint into a corner), the last attempt ignores them.
    """
    cards = [i for i in range(52) if unseen >> i & 1]
    targets = list(sizes)
    for attempt in range(tries):
        strict = attempt < tries - 1
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: sum(1 for t in targets if not voids[t] >> c & 1))
        room = dict(sizes)
        dealt = dict.fromkeys(targets, 0)
        for c in order:
            allowed = [t for t in targets if room[t] and not (strict and voids[t] >> c & 1)]
            if not allowed:
                break
            pick = rng.randrange(sum(room[t] for t in allowed))
            for t in allowed:
                pick -= room[t]
                if pick < 0:
                    break
            dealt[t] |= 1 << c
            room[t] -= 1
        else:
            return dealt
    raise ValueError("no layout fits what is known")
