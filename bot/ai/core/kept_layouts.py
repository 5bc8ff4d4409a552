"""Layouts kept from one card decision to the next in the same trick.

Declarer decides twice in most tricks (dummy's card and his own), and between the two
only the cards played since are new: no hand has been shown out of a suit that the
layouts did not already honour, save by those cards. So the player keeps the layouts of
its last decision and, at its next decision in the same trick, solves again those that
still agree with what was played since, topped up with fresh ones:

- a plan stays one plan within the trick: dummy's card and declarer's own are chosen on
  the same layouts (a finesse taken from dummy is not abandoned in hand because a fresh
  sample happened to place the king elsewhere);
- dealing a layout with the calls' check costs 0.5 to 13 ms of CPU: a kept one costs a
  set test per card played since.

A kept layout agrees when each card played since was in the hand of the seat that played
it, and, with those cards gone, every hand is what the seat now knows: a hand it sees as
it is, a hidden one of its size and holding no suit it has shown out of. A new trick or
deal drops them all (a whole trick seen changes too much, and the plan with it).

What is kept crosses to a worker process with the player, pickled: each layout is four
card masks (an int per hand), not cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.cards import FULL_DECK, Card

from .layouts import Knowledge

Layout = tuple[tuple[Card, ...], ...]
_BIT = {card: 1 << i for i, card in enumerate(FULL_DECK)}


@dataclass(frozen=True, slots=True)
class KeptLayouts:
    """Layouts as four card masks each, when they were solved: the deal, the tricks
    completed, and how many cards of the trick in progress had been played."""

    deal: int
    trick: int
    played: int
    masks: tuple[tuple[int, int, int, int], ...]


def mask(cards: Sequence[Card]) -> int:
    out = 0
    for card in cards:
        out |= _BIT[card]
    return out


def _cards(bits: int) -> tuple[Card, ...]:
    return tuple(card for card in FULL_DECK if bits & _BIT[card])


def keep(deal: int, trick: int, played: int, layouts: Sequence[Layout]) -> KeptLayouts:
    return KeptLayouts(deal, trick, played, tuple(
        (mask(h[0]), mask(h[1]), mask(h[2]), mask(h[3])) for h in layouts))


def reusable(kept: KeptLayouts | None, deal: int, trick: int,
             cards: Sequence[tuple[int, Card]], know: Knowledge) -> list[Layout]:
    """The kept layouts that still agree, as they are now: `cards` is the trick in
    progress (seat, card), `know` what the seat knows now. None for another trick."""
    if kept is None or kept.deal != deal or kept.trick != trick or kept.played > len(cards):
        return []
    since = cards[kept.played:]
    known = [None if hand is None else mask(hand) for hand in know.known]
    unseen = mask(know.unseen)
    suits = [mask([c for c in FULL_DECK if c.suit in voids]) for voids in know.voids]
    out: list[Layout] = []
    for layout in kept.masks:
        hands = list(layout)
        if not _play(hands, since):
            continue
        if all(_agrees(hands[s], known[s], know.sizes[s], suits[s], unseen)
               for s in range(4)):
            out.append(tuple(_cards(h) for h in hands))
    return out


def _play(hands: list[int], since: Sequence[tuple[int, Card]]) -> bool:
    """Take the cards played since out of their seats' hands: False if one was not
    there (this layout is not the deal)."""
    for seat, card in since:
        if not hands[seat] & _BIT[card]:
            return False
        hands[seat] &= ~_BIT[card]
    return True


def _agrees(hand: int, known: int | None, size: int, voids: int, unseen: int) -> bool:
    if known is not None:
        return hand == known
    return hand.bit_count() == size and not hand & voids and hand & ~unseen == 0
