"""Trick helpers shared by the games: following suit and finding a trick's winner.

A trick is a list of (player, card) in the order played; "player" is whatever the game uses
to name who played (a seat, or a Tennis hand). Games whose rank order differs from the
natural one (Bid Fair) pass a `power` function giving each card's strength within its suit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .cards import Card, Suit

P = TypeVar("P")

Power = Callable[[Card, int], int]
"""Strength of a card within its suit, given its position in the trick (0 = led)."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: (player, card) in the order played, and the player who won it.

    "Player" is what the game names who played: a seat, or a hand where a seat plays
    several (Single Dummy Bridge's hand indices, Tennis's seats with `hands` beside).
    """

    cards: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def leader(self) -> int:
        return self.cards[0][0]


def completed_tricks(plays: Sequence[tuple[int, Card]], trump: Suit | None,
                     size: int = 4) -> list[Trick]:
    """The complete tricks of a run of plays in order (a trick in progress is left out),
    each with its winner: a deal's trick history."""
    out: list[Trick] = []
    for start in range(0, len(plays) - size + 1, size):
        cards = tuple(plays[start:start + size])
        out.append(Trick(cards, trick_winner(cards, trump)))
    return out


def natural_power(c: Card, position: int) -> int:
    return int(c.rank)


def legal_follow(hand: Sequence[Card], led: Suit | None) -> list[Card]:
    """The cards of `hand` that may be played to a trick whose led suit is `led`.

    Anything may be led; a player holding the suit led must play one of them.
    """
    if led is None:
        return list(hand)
    same = [c for c in hand if c.suit == led]
    return same if same else list(hand)


def follow_error(hand: Sequence[Card], led: Suit | None, played: Card,
                 dummy: bool = False) -> str | None:
    """Why `played` may not be played to this trick, or None when it may (`dummy`: the
    hand is the dummy its player plays, and the reason says so)."""
    if played not in hand:
        return f"{'Dummy does' if dummy else 'You do'} not hold the {played.label}."
    if led is not None and played.suit != led and any(c.suit == led for c in hand):
        return (f"You must follow suit: {'dummy holds' if dummy else 'you hold'} a"
                f" {led.title.lower()[:-1]} ({led.symbol}).")
    return None


def trick_winner(trick: Sequence[tuple[P, Card]], trump: Suit | None = None,
                 power: Power = natural_power) -> P:
    """Who wins the trick: the highest trump, else the highest card of the suit led."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    if power is natural_power:
        return _natural_winner(trick, trump)
    led = trick[0][1].suit
    best_player, best_card = trick[0]
    best_key = (best_card.suit == trump, power(best_card, 0))
    for position, (player, c) in enumerate(trick[1:], start=1):
        if c.suit != led and c.suit != trump:
            continue
        key = (c.suit == trump, power(c, position))
        if key > best_key:
            best_player, best_card, best_key = player, c, key
    return best_player


def _natural_winner(trick: Sequence[tuple[P, Card]], trump: Suit | None) -> P:
    """`trick_winner` for natural rank order, without building keys (the hot path).

    The best card so far is always of the suit led or a trump, so a card beats it when it
    is of the same suit and higher, or a trump played to a non-trump.
    """
    best_player, best = trick[0]
    for player, c in trick[1:]:
        if c.suit == best.suit:
            if c.rank > best.rank:
                best_player, best = player, c
        elif c.suit == trump:
            best_player, best = player, c
    return best_player


def suits_held(hand: Iterable[Card]) -> set[Suit]:
    return {c.suit for c in hand}
