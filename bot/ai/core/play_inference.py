"""Weighting sampled layouts by how well they explain the cards the other hands played.

A layout dealt from what a seat knows (the cards, the voids, the auction's ranges) can still
be one the play so far makes unlikely: on it, a card another hand chose would have thrown
a trick away double dummy. Strong robots check each layout against the play and count the
ones that explain it more (GIB's and ben's "consistency" of the sample). Here a layout's
weight is `MISFIT` to the power of the recent cards it does not explain: the card played
was not among the best double-dummy cards of the position it was played in, rebuilt on that
layout (the cards each hand played since are put back). A card is read only where it tells
something: chosen by a hand this seat cannot see, or by its partner's when that one is
hidden (a defender reads declarer's choices from dummy too); never a forced one.

The cost is one solve per layout and card read, newest first (older positions hold more
cards and cost more), as many cards as an allowance of measured work holds (DDS's search
nodes, as `dds.solve_within` measures them); each card is read on every layout or on none,
so every layout is weighed on the same cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games.cards import Card, Suit

from . import dds

# A layout's weight for each recent card it does not explain: the other players choose a
# double-dummy best card on most of their cards (98% of the computer players' do on the
# real layout), yet a person, or a search on a few layouts, does not always.
MISFIT = 0.05
READ_TRICKS = 12  # the cards of the trick in progress and of this many tricks before it
Hands = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Reading:
    """A card to read: the `index`th of the deal's play, by `seat`."""

    index: int
    seat: int
    card: Card


def readable(history: Sequence[tuple[int, Card]], known: Sequence[tuple[Card, ...] | None],
             to_play: int) -> list[Reading]:
    """The recent cards of the play whose choice tells about the hidden hands, newest
    first (the current trick and the `READ_TRICKS` tricks before it)."""
    start = max(0, (len(history) // 4 - READ_TRICKS) * 4)
    out = []
    for index in range(len(history) - 1, start - 1, -1):
        seat, card = history[index]
        if seat == to_play or index == 0:
            continue  # our own choice; the opening lead (a whole deal's solve) is too dear
        if known[seat] is not None and known[(seat + 2) % 4] is not None:
            continue  # chosen by a hand we see (declarer playing from dummy, as we do)
        out.append(Reading(index, seat, card))
    return out


def position_before(history: Sequence[tuple[int, Card]], hands: Hands, index: int,
                    trump: Suit | None) -> dds.Position | None:
    """The position in which the `index`th card was played, on a layout whose hands
    hold `hands` now; None when that card was forced (nothing to read)."""
    back: list[list[Card]] = [list(hand) for hand in hands]
    for seat, card in history[index:]:
        back[seat].append(card)
    start = index - index % 4
    trick = tuple(card for _, card in history[start:index])
    seat = history[index][0]
    held = back[seat]
    if trick:
        follow = [c for c in held if c.suit == trick[0].suit]
        if len(follow or held) <= 1:
            return None
    return dds.Position(tuple(tuple(h) for h in back), trump,
                        history[start][0], trick)


def weights(history: Sequence[tuple[int, Card]], readings: Sequence[Reading],
            layouts: Sequence[Hands], trump: Suit | None, allowance: float,
            cost: Callable[[int], float], spent: Callable[[], bool] | None = None,
            ) -> list[float]:
    """Each layout's weight: `MISFIT` for each read card it does not explain. The cards are
    read newest first, one card on every layout at a time, while its projected work (the
    measured work per position so far, or `cost` of the cards each hand held then for the
    first) fits what is left of `allowance`."""
    out = [1.0] * len(layouts)
    left, per_position = allowance, 0.0
    for reading in readings:
        if spent is not None and spent():
            break
        items = [(i, position) for i, hands in enumerate(layouts)
                 if (position := position_before(history, hands, reading.index, trump))
                 is not None]
        if not items:
            continue
        held = min(len(hand) for hand in items[0][1].hands)
        if len(items) * (per_position or cost(held)) > left:
            break
        best, nodes = dds.solve_counted([p for _, p in items], best_only=True)
        work = nodes * dds.NODE_SECONDS
        left -= work
        per_position = max(per_position, work / len(items))
        for (layout, _), cards in zip(items, best, strict=True):
            if reading.card not in cards:
                out[layout] *= MISFIT
    return out


