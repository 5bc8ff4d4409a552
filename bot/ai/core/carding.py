"""What a card played to someone else's lead says about the hand that played it.

Two cards of one hand are equal when every card of the suit between them was played in an
earlier trick: whichever is played, the rest of the deal goes the same. When not on lead
our card players play the lowest of equal cards (the card search gives them the same value
on every layout and breaks ties to the lowest; the rule-based player takes the cheapest of
its equal cards), and so do most people, though not always: they signal with equal small
cards, and false-card with honours. So a player who played a card to a trick it did not
lead shows that it did not hold the next lower card still out before that trick (when the
card just below it was played earlier, the next one down, and so on; when that card is on
the table in the same trick, the play shows nothing). A layout where it did hold it is not
ruled out, only made `FALSE_CARD` times as likely.

Leads say nothing of the kind: a lead may be the top of a sequence, and the opening lead is
read by its own model (`learning.leads`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.games.cards import Card, Rank

from .layouts import Weigh

# How often a player plays above the lowest of its equal cards, as a chance: our players
# never do; people do when they signal (with small cards, which seldom change a trick) or
# false-card (with honours, seldom outside expert play). Set before it was measured.
FALSE_CARD = 0.05

Trick = Sequence[tuple[int, Card]]


def unheld(tricks: Sequence[Trick]) -> tuple[frozenset[Card], ...]:
    """For each seat, the cards its plays to others' leads show it did not hold: for
    each such card, the next lower card of its suit still out before that trick (none
    where every lower card had gone, or where that card is on the table in the same
    trick). `tricks` in order, the last one perhaps in progress."""
    shown: list[set[Card]] = [set(), set(), set(), set()]
    gone: set[Card] = set()
    for trick in tricks:
        on_table = {card for _, card in trick}
        for seat, card in trick[1:]:
            lower = _next_lower(card, gone)
            if lower is not None and lower not in on_table:
                shown[seat].add(lower)
        gone.update(on_table)
    return tuple(frozenset(cards) for cards in shown)


def _next_lower(card: Card, gone: set[Card]) -> Card | None:
    for rank in range(card.rank - 1, Rank.TWO - 1, -1):
        lower = Card(card.suit, Rank(rank))
        if lower not in gone:
            return lower
    return None


def follows_weigh(tricks: Sequence[Trick]) -> Weigh | None:
    """The log-weight of hands as dealt by the cards they show they did not hold
    (`unheld`): `log(FALSE_CARD)` for each such card a hand holds. None when no play
    shows anything."""
    shown = unheld(tricks)
    if not any(shown):
        return None
    penalty = math.log(FALSE_CARD)

    def weigh(seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        cards = shown[seat]
        if not cards:
            return [0.0] * len(hands)
        return [penalty * sum(card in cards for card in hand) for hand in hands]

    return weigh
