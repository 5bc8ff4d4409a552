"""Greedy baseline players for Spades, Tennis and Bid Fair (benchmarks only).

The baseline of issue 16, stated once for the three games:
- bids: Spades, aces + kings + spades beyond the third, never nil; Tennis, the hand's aces
  and kings (the bid card whose value is nearest that count); Bid Fair, always face down
  (the lowest card), and it keeps its hand rather than exchange.
- play: win the trick with the lowest card that wins it, else play the lowest card. A trick
  already won by one's own side (Spades partner, Tennis other hand) is left alone: lowest
  card. Leading, the lowest card. "Lowest" is by the game's own order within a suit
  (Bid Fair's movable high rank and ace rule), ties across suits by suit.
They read only their seat's view and legal actions, like every computer player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.ai import Budget
from bot.games.bidfair_rank import make_power
from bot.games.cards import Card, Rank, Suit
from bot.games.tennis_rules import bid_value
from bot.games.tricks import Power, natural_power, trick_winner


def _cards(legal: Sequence[str]) -> list[Card]:
    return [Card.parse(a.partition(":")[2]) for a in legal]


def greedy_card(legal: Sequence[str], trick: Sequence[tuple[Any, Card]], trump: Suit | None,
                ours: Callable[[int], bool], power: Power = natural_power) -> str:
    """The greedy play: `trick` is the trick so far as (player, card); `ours(i)` says
    whether the i-th card of the trick was played by our side."""
    cards = _cards(legal)
    position = len(trick)

    def strength(c: Card) -> tuple[int, int]:
        return power(c, position), int(c.suit)

    lowest = min(cards, key=lambda c: (c.suit == trump, strength(c)))
    if not trick:
        return "play:" + lowest.text
    indexed = [(i, c) for i, (_, c) in enumerate(trick)]
    if ours(trick_winner(indexed, trump, power)):
        return "play:" + lowest.text
    winners = [c for c in cards
               if trick_winner([*indexed, (position, c)], trump, power) == position]
    if winners:
        return "play:" + min(winners, key=lambda c: (c.suit == trump, strength(c))).text
    return "play:" + lowest.text


class GreedySpades:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Sequence[str], budget: Budget | None = None) -> str:
        if "look" in legal:
            return "look"
        if legal[0].startswith("bid:"):
            hand = view.hand
            spades = sum(1 for c in hand if c.suit == Suit.SPADES)
            tricks = sum(1 for c in hand if c.rank >= Rank.KING) + max(0, spades - 3)
            return f"bid:{min(13, max(1, tricks))}"
        partner = (view.seat + 2) % 4
        trick = view.trick
        return greedy_card(legal, trick, Suit.SPADES,
                           lambda i: trick[i][0] in (view.seat, partner))


class GreedyTennis:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Sequence[str], budget: Budget | None = None) -> str:
        if legal[0].startswith("bid:"):
            hand = _cards(legal)
            want = sum(1 for c in hand if c.rank >= Rank.KING)
            pick = min(hand, key=lambda c: (abs(bid_value(c) - want), c.index))
            return "bid:" + pick.text
        trick = view.trick
        return greedy_card(legal, trick, view.trump, lambda i: trick[i][0] == view.seat)


class GreedyBidFair:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Sequence[str], budget: Budget | None = None) -> str:
        power = make_power(view.high_rank)

        def low(actions: list[str]) -> str:
            return min(actions, key=lambda a: (power(Card.parse(a.partition(":")[2]), 0),
                                               a))

        first = legal[0]
        if first.startswith("crib:"):
            return low(list(legal))
        downs = [a for a in legal if a.startswith("down:")]
        if downs:
            return low(downs)
        if "keep" in legal:
            return "keep"
        if first.startswith("play:"):
            trick = view.trick
            return greedy_card(legal, trick, view.trump, lambda i: trick[i][0] == view.seat,
                               power)
        return first


GREEDY: dict[str, Callable[[int], Any]] = {
    "spades": GreedySpades, "tennis": GreedyTennis, "bidfair": GreedyBidFair}
