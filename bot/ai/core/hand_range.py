"""What an auction says about one hand: a range of points and of length in each suit.

The bidding system reads every call (a computer player's or a person's) into one of these
per seat, and the card-play search deals only layouts whose hands fall inside them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.games.cards import Card


@dataclass(frozen=True, slots=True)
class HandRange:
    """High-card points in [min_hcp, max_hcp] and, per suit (clubs, diamonds, hearts, spades),
    a length in [min_len[i], max_len[i]]. The default admits every 13-card hand.

    `min_points`/`max_points` are what the calls promised with length and shortness
    counted (a "6–10 points" raise): the hand's strength as its partner counts it. They
    never exclude a hand (`admits` reads high cards only, so a sample never drops a hand
    that could have made the calls); `min_hcp` is that promise less the 4 points length
    can add."""

    min_hcp: int = 0
    max_hcp: int = 37
    min_len: tuple[int, int, int, int] = (0, 0, 0, 0)
    max_len: tuple[int, int, int, int] = (13, 13, 13, 13)
    min_points: int = 0
    max_points: int = 37

    def admits(self, hand: list[Card] | tuple[Card, ...]) -> bool:
        points = sum(max(0, card.rank - 10) for card in hand)  # A 4, K 3, Q 2, J 1
        if not self.min_hcp <= points <= self.max_hcp:
            return False
        lengths = [0, 0, 0, 0]
        for card in hand:
            lengths[card.suit] += 1
        return all(lo <= n <= hi for lo, n, hi in zip(self.min_len, lengths, self.max_len,
                                                      strict=True))

    def narrowed(self, other: HandRange) -> HandRange:
        """Both ranges at once (what two calls of the same hand say together)."""
        return replace(
            self,
            min_hcp=max(self.min_hcp, other.min_hcp),
            max_hcp=min(self.max_hcp, other.max_hcp),
            min_len=tuple(max(a, b) for a, b in zip(self.min_len, other.min_len,
                                                    strict=True)),  # type: ignore[arg-type]
            max_len=tuple(min(a, b) for a, b in zip(self.max_len, other.max_len,
                                                    strict=True)),  # type: ignore[arg-type]
            min_points=max(self.min_points, other.min_points),
            max_points=min(self.max_points, other.max_points),
        )

    def strength(self) -> tuple[int, int]:
        """The points to count this hand at, lowest and highest: the promised points where
        the calls said them, else the high cards (never below the high cards shown)."""
        lo = max(self.min_hcp, self.min_points)
        return lo, max(lo, min(self.max_hcp, self.max_points))

    @property
    def empty(self) -> bool:
        """No hand fits (the calls contradict each other, e.g. a person's odd bidding)."""
        return (self.min_hcp > self.max_hcp or sum(self.min_len) > 13 or sum(self.max_len) < 13
                or any(lo > hi for lo, hi in zip(self.min_len, self.max_len, strict=True)))


ANY_HAND = HandRange()
