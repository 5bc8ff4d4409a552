"""Hand evaluation shared by the bridge players: points, suit lengths and shape.

High-card points count A 4, K 3, Q 2, J 1 (40 in the pack). Length points add one for every
card beyond the fourth in a suit; support points (for a hand that will be dummy in a fit)
add 3 for a void, 2 for a singleton and 1 for a doubleton outside the trump suit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.games.cards import Card, Rank, Suit

HCP_VALUE: dict[Rank, int] = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
TOTAL_HCP = 40
# Suits from the highest: the order to prefer when lengths tie.
SUITS_HIGH_FIRST: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
MAJORS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS)
MINORS: tuple[Suit, ...] = (Suit.DIAMONDS, Suit.CLUBS)


def card_hcp(c: Card) -> int:
    return HCP_VALUE.get(c.rank, 0)


def hcp(cards: Iterable[Card]) -> int:
    """High-card points: A 4, K 3, Q 2, J 1."""
    return sum(HCP_VALUE.get(c.rank, 0) for c in cards)


def lengths(cards: Iterable[Card]) -> tuple[int, int, int, int]:
    """Suit lengths indexed by Suit (clubs, diamonds, hearts, spades)."""
    out = [0, 0, 0, 0]
    for c in cards:
        out[c.suit] += 1
    return (out[0], out[1], out[2], out[3])


def shape(cards: Iterable[Card]) -> tuple[int, ...]:
    """The suit lengths longest first, e.g. (5, 3, 3, 2)."""
    return tuple(sorted(lengths(cards), reverse=True))


def is_balanced(cards: Iterable[Card]) -> bool:
    """4-3-3-3, 4-4-3-2 or 5-3-3-2: no singleton or void, at most one doubleton."""
    return shape(cards) in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))


def length_points(cards: Iterable[Card]) -> int:
    return sum(max(0, n - 4) for n in lengths(cards))


def support_points(cards: Iterable[Card], trump: Suit) -> int:
    """Shortness outside trumps, valued for a hand that supports partner's suit."""
    return sum((3, 2, 1)[n] for suit, n in enumerate(lengths(cards)) if suit != trump and n < 3)


def suit_hcp(cards: Iterable[Card], suit: Suit) -> int:
    return sum(HCP_VALUE.get(c.rank, 0) for c in cards if c.suit == suit)


def top_honours(cards: Iterable[Card], suit: Suit, top: int = 3) -> int:
    """How many of the top `top` ranks (A, K, Q...) of `suit` the cards hold."""
    return sum(1 for c in cards if c.suit == suit and c.rank > Rank.ACE - top)


def is_good_suit(cards: Sequence[Card], suit: Suit) -> bool:
    """Five or more cards headed by two of the top three honours or three of the top five."""
    n = sum(1 for c in cards if c.suit == suit)
    return n >= 5 and (top_honours(cards, suit, 3) >= 2 or top_honours(cards, suit, 5) >= 3)


def has_stopper(cards: Iterable[Card], suit: Suit) -> bool:
    """A, Kx, Qxx or Jxxx in the suit: it will probably hold a trick at notrump."""
    held = {c.rank for c in cards if c.suit == suit}
    n = len(held)
    return any(top in held and n >= need for top, need in (
        (Rank.ACE, 1), (Rank.KING, 2), (Rank.QUEEN, 3), (Rank.JACK, 4)))


@dataclass(frozen=True, slots=True)
class HandSummary:
    """The numbers the bidding system reads off a hand."""

    hcp: int
    points: int  # hcp + length points
    lengths: tuple[int, int, int, int]
    balanced: bool

    def length(self, suit: Suit) -> int:
        return self.lengths[suit]

    def longest_suits(self) -> list[Suit]:
        """Suits by length, longest first; ties go to the higher-ranking suit."""
        return sorted(SUITS_HIGH_FIRST, key=lambda s: -self.lengths[s])


def summarize(cards: Sequence[Card]) -> HandSummary:
    points = hcp(cards)
    return HandSummary(hcp=points, points=points + length_points(cards),
                       lengths=lengths(cards), balanced=is_balanced(cards))
