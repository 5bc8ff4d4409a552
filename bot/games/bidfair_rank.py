"""Bid Fair's movable high rank, the ace rule, card points and the contract table.

Within a suit the high rank of the deal comes first, then the others in the order
K Q J 10 9 (with J high: J K Q 10 9). The ace is the low card when led and the high card
when played second, unless the ace itself is the high rank, when it is simply highest.
With no contract there is no high rank: K Q J 10 9 with the ace rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Rank, Suit, deck
from .tricks import Power

BIDFAIR_RANKS: tuple[Rank, ...] = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING,
                                   Rank.ACE)
"""Bid ranks, low to high (suits never matter when comparing bid cards)."""

CONTRACT_VALUES: dict[Rank, int] = {
    Rank.NINE: 40, Rank.TEN: 50, Rank.JACK: 60, Rank.QUEEN: 70, Rank.KING: 80, Rank.ACE: 90,
}
"""The project's ruling for the table the source text lost: high rank -> contract value."""

CARD_POINTS: dict[Rank, int] = {
    Rank.ACE: 1, Rank.KING: 10, Rank.QUEEN: 10, Rank.JACK: 10, Rank.TEN: 10, Rank.NINE: 9,
}

TRUMP_BONUS = 40
CONTRACT_REWARD = 40

# Strengths within a suit. The high rank sits above the king; a second-played ace above all.
_LOW_ACE = 0
_HIGH_RANK = 20
_SECOND_ACE = 30


def bidfair_pack() -> list[Card]:
    """The 24-card pack, 9 to ace of each suit, in a fixed order (shuffled per deal)."""
    return deck(BIDFAIR_RANKS)


def card_points(c: Card) -> int:
    return CARD_POINTS[c.rank]


def points_of(cards: Sequence[Card]) -> int:
    return sum(CARD_POINTS[c.rank] for c in cards)


def make_power(high: Rank | None) -> Power:
    """The strength of a card within its suit for high rank `high` (None: no contract).

    `position` is 0 for the card led and 1 for the card played second.
    """

    def power(c: Card, position: int) -> int:
        rank = c.rank
        if rank == Rank.ACE:
            if high == Rank.ACE:
                return _HIGH_RANK
            return _LOW_ACE if position == 0 else _SECOND_ACE
        if rank == high:
            return _HIGH_RANK
        return int(rank)

    return power


def suit_order(high: Rank | None) -> tuple[Rank, ...]:
    """Ranks high to low for reading (the ace, when not the high rank, is left out)."""
    rest = [r for r in (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE) if r != high]
    return ((high,) if high is not None else ()) + tuple(rest)


def order_text(high: Rank | None) -> str:
    """How the table explains the order within a suit: `J K Q 10 9 (A: low led, high second)`."""
    names = " ".join(r.label for r in suit_order(high))
    if high == Rank.ACE:
        return names
    return f"{names} (A: low when led, high when played second)"


def beats(led: Card, second: Card, trump: Suit, power: Power) -> bool:
    """Whether the card played second wins a two-card trick."""
    if second.suit == led.suit:
        return power(second, 1) > power(led, 0)
    return second.suit == trump


def rank_word(rank: Rank) -> str:
    return {Rank.NINE: "a nine", Rank.TEN: "a ten", Rank.JACK: "a jack",
            Rank.QUEEN: "a queen", Rank.KING: "a king", Rank.ACE: "an ace"}[rank]


def higher_ranks(rank: Rank) -> tuple[Rank, ...]:
    return tuple(r for r in BIDFAIR_RANKS if r > rank)
