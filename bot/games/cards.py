"""The card vocabulary shared by every game: suits, ranks, cards, seats, hands and dealing.

Cards are interned: there is exactly one `Card` object per suit and rank, so identity,
equality and hashing are cheap, which matters because bots simulate many deals.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import ClassVar

RANK_CHARS = "23456789TJQKA"
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"


class Suit(IntEnum):
    """Suits in bridge bidding order (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().upper()
        if len(key) == 1 and key in SUIT_LETTERS:
            return cls(SUIT_LETTERS.index(key))
        if len(key) == 1 and key in SUIT_SYMBOLS:
            return cls(SUIT_SYMBOLS.index(key))
        for suit in cls:
            if suit.name == key or suit.name[:-1] == key:
                return suit
        raise ValueError(f"{text!r} is not a suit (use C, D, H or S)")


class Rank(IntEnum):
    """Ranks with their natural values (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 2]

    @property
    def label(self) -> str:
        """How a player reads it: 10 rather than T."""
        return "10" if self == Rank.TEN else self.char

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        if len(key) == 1 and key in RANK_CHARS:
            return cls(RANK_CHARS.index(key) + 2)
        raise ValueError(f"{text!r} is not a rank (use 2-9, T, J, Q, K or A)")


class Card:
    """One playing card, written rank then suit: `TH` is the ten of hearts."""

    __slots__ = ("index", "rank", "suit", "text")
    _ALL: ClassVar[list[Card]] = []
    _BY_TEXT: ClassVar[dict[str, Card]] = {}

    suit: Suit
    rank: Rank
    index: int
    text: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        if cls._ALL:
            return cls._ALL[suit * 13 + rank - 2]
        return super().__new__(cls)

    def __init__(self, suit: Suit, rank: Rank) -> None:
        if hasattr(self, "text"):
            return
        self.suit = suit
        self.rank = rank
        self.index = suit * 13 + rank - 2
        self.text = rank.char + suit.letter

    @classmethod
    def parse(cls, text: str) -> Card:
        card = cls._BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ValueError(f"{text!r} is not a card (write rank then suit, e.g. QH or TS)")
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls._ALL[index]

    @property
    def label(self) -> str:
        """How a player reads it: `10♥`, `Q♠`."""
        return self.rank.label + self.suit.symbol

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return (Card, (self.suit, self.rank))


def _build_cards() -> None:
    cards = [Card(suit, rank) for suit in Suit for rank in Rank]
    Card._ALL.extend(cards)
    for card in cards:
        Card._BY_TEXT[card.text] = card
        # Also accept "10H" as a spelling of "TH".
        if card.rank == Rank.TEN:
            Card._BY_TEXT["10" + card.suit.letter] = card


_build_cards()

FULL_DECK: tuple[Card, ...] = tuple(Card._ALL)


def card(text: str) -> Card:
    """Shorthand for `Card.parse`."""
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    """Parse a space-separated list of cards: `"AS KH TD"`."""
    return [Card.parse(part) for part in text.split()]


def deck(ranks: Iterable[Rank] = tuple(Rank)) -> list[Card]:
    """A fresh, ordered deck holding the given ranks of every suit (Bid Fair: 9 to ace)."""
    wanted = set(ranks)
    return [c for c in FULL_DECK if c.rank in wanted]


class Seat(IntEnum):
    """The four compass seats, clockwise from North.

    `next` (the next seat clockwise: the left-hand opponent, `lho`), `partner` and `rho`
    are worked out once per seat: the engines step round the table on every card.
    """

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    next: Seat
    lho: Seat
    partner: Seat
    rho: Seat

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @property
    def side(self) -> int:
        """0 for North-South, 1 for East-West."""
        return self % 2

    @classmethod
    def parse(cls, text: str) -> Seat:
        key = text.strip().upper()
        for seat in cls:
            if key in (seat.letter, seat.name):
                return seat
        raise ValueError(f"{text!r} is not a seat (use N, E, S or W)")


for _seat in Seat:
    _seat.next = _seat.lho = Seat((_seat + 1) % 4)
    _seat.partner = Seat((_seat + 2) % 4)
    _seat.rho = Seat((_seat + 3) % 4)
del _seat


def sort_hand(hand: Iterable[Card], suit_order: Sequence[Suit] = (
    Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)) -> list[Card]:
    """Cards grouped by suit (spades first by default), high to low within a suit."""
    position = {suit: i for i, suit in enumerate(suit_order)}
    return sorted(hand, key=lambda c: (position.get(c.suit, 9), -c.rank))


def by_suit(hand: Iterable[Card]) -> dict[Suit, list[Card]]:
    """The hand split by suit, spades first, each suit high to low; empty suits included."""
    groups: dict[Suit, list[Card]] = {s: [] for s in (Suit.SPADES, Suit.HEARTS,
                                                      Suit.DIAMONDS, Suit.CLUBS)}
    for c in sort_hand(hand):
        groups[c.suit].append(c)
    return groups


def parse_hand(text: str) -> list[Card]:
    """A PBN-style hand, suits spades.hearts.diamonds.clubs: `AKQ2.J43.T9.8765`."""
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise ValueError(f"{text!r}: a hand needs four suits separated by dots (S.H.D.C)")
    out: list[Card] = []
    for suit, holding in zip((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS), parts,
                             strict=True):
        for ch in holding.replace("10", "T"):
            if ch == "-":
                continue
            out.append(Card(suit, Rank.parse(ch)))
    return out


def format_hand(hand: Iterable[Card]) -> str:
    """The PBN form of a hand (the inverse of `parse_hand`)."""
    groups = by_suit(hand)
    return ".".join("".join(c.rank.char for c in groups[s]) for s in
                    (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS))


def parse_deal(text: str) -> dict[Seat, list[Card]]:
    """A PBN deal: `N:hand hand hand hand`, hands clockwise from the named seat."""
    first, _, rest = text.strip().partition(":")
    hands = rest.split()
    if len(hands) != 4:
        raise ValueError(f"{text!r}: a deal needs a first seat and four hands")
    start = Seat.parse(first)
    return {Seat((start + i) % 4): parse_hand(h) for i, h in enumerate(hands)}


def format_deal(hands: dict[Seat, list[Card]], first: Seat = Seat.NORTH) -> str:
    return first.letter + ":" + " ".join(
        format_hand(hands[Seat((first + i) % 4)]) for i in range(4))


SEAT_NAMES: tuple[str, ...] = tuple(seat.title for seat in Seat)
SIDE_OF: tuple[int, ...] = tuple(seat.side for seat in Seat)
"""Each seat's side by seat number (0 North-South, 1 East-West), for the hot paths."""
"""("North", "East", "South", "West"): how the four compass seats are named to people."""

# Lookup tables for the engines' hot paths, indexed by Card.index (a dict keyed by Card
# would call its Python __hash__): each card's `play:` action text, and the card of each.
PLAY_TEXT: tuple[str, ...] = tuple("play:" + c.text for c in FULL_DECK)
CARD_BY_PLAY: dict[str, Card] = {"play:" + c.text: c for c in FULL_DECK}
# (seat, card) pairs as tricks hold them, indexed seat * 52 + Card.index: shared, so that
# playing a card makes no new object (fewer objects, fewer garbage collector runs).
SEAT_CARD: tuple[tuple[Seat, Card], ...] = tuple((s, c) for s in Seat for c in FULL_DECK)


def play_texts_by_suit(hand: Iterable[Card]) -> list[list[str]]:
    """The `play:` texts of a hand's cards per suit (indexed by Suit), in the hand's order:
    what a player may play when following suit, kept beside the hand."""
    out: list[list[str]] = [[], [], [], []]
    for c in hand:
        out[c.suit].append(PLAY_TEXT[c.index])
    return out


def deal_blocks(order: Sequence[Card], hands: int,
                pack: Sequence[Card] | None = None) -> list[list[Card]]:
    """Deal `order` (a shuffle, or a test's stacked order of `pack`) in `hands` equal blocks:
    hand i is the i-th block. Given `pack`, an order that is not exactly its cards is
    refused."""
    if pack is not None and (len(order) != len(pack) or set(order) != set(pack)):
        raise ValueError(f"a pack for this game is these {len(pack)} different cards: "
                         + " ".join(c.text for c in pack))
    size = len(order) // hands
    return [list(order[size * i:size * i + size]) for i in range(hands)]


def shuffled(rng: random.Random, pack: Sequence[Card]) -> list[Card]:
    """A shuffled copy of the pack, drawn from the game's seeded generator."""
    out = list(pack)
    rng.shuffle(out)
    return out


def deal_hands(rng: random.Random, pack: Sequence[Card], hands: int,
               size: int) -> list[list[Card]]:
    """Shuffle and deal `hands` hands of `size` cards; hand i is the i-th block of the pack."""
    order = shuffled(rng, pack)
    return [order[i * size:(i + 1) * size] for i in range(hands)]
