"""A challenge's comparison: two people played the same deals from the same seat, each with
computer players in the other seats. A deal is compared once both have played it: the
difference of their net scores (their side's points less the other side's), turned into
IMPs where the game compares in IMPs (the bridge games), kept as points otherwise.

When a challenge ends it is decided on the deals both played; a person who played none
while the other played some loses by forfeit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .bridge_scoring import imps

Compare = Literal["imps", "points"]


def net_score(points: Sequence[int], side: int) -> int:
    """A side's points on a deal less the other sides' (bridge: only one side scores)."""
    return int(points[side]) - sum(int(p) for i, p in enumerate(points) if i != side)


@dataclass(frozen=True, slots=True)
class PersonDeal:
    """One person's result on a deal: their net score, and what happened (the contract,
    the bids and tricks)."""

    net: int
    note: str


@dataclass(frozen=True, slots=True)
class ComparedDeal:
    deal: int
    first: PersonDeal  # the challenger's
    second: PersonDeal  # the challenged person's
    compare: Compare

    @property
    def value(self) -> int:
        """The deal's worth to the challenger (negative: to the other): IMPs or points."""
        difference = self.first.net - self.second.net
        return imps(difference) if self.compare == "imps" else difference


@dataclass(frozen=True, slots=True)
class ChallengeCard:
    deals: int
    compare: Compare
    compared: tuple[ComparedDeal, ...]
    played: tuple[int, int]  # deals each person has finished

    @property
    def totals(self) -> tuple[int, int]:
        """Each person's figure over the compared deals: IMPs won (imps), or the sum of
        their net scores (points); the difference of the two is the margin either way."""
        if self.compare == "imps":
            return (sum(d.value for d in self.compared if d.value > 0),
                    sum(-d.value for d in self.compared if d.value < 0))
        return (sum(d.first.net for d in self.compared),
                sum(d.second.net for d in self.compared))

    @property
    def complete(self) -> bool:
        return len(self.compared) == self.deals

    def winner(self) -> int | None:
        """Who wins as things stand (0: the challenger, 1: the other; None: a tie or
        nothing to decide): on the compared deals, or by forfeit over a person who
        played none while the other played some."""
        first, second = self.played
        if first == 0 or second == 0:
            return None if first == second else (0 if first else 1)
        a, b = self.totals
        return None if a == b else (0 if a > b else 1)

    def forfeit(self) -> bool:
        """Whether the winner won because the other played no deal."""
        return min(self.played) == 0 and max(self.played) > 0


def challenge_card(deals: int, compare: Compare, first: Mapping[int, PersonDeal],
                   second: Mapping[int, PersonDeal]) -> ChallengeCard:
    """The comparison from each person's results by deal number: a deal appears only once
    both have played it (one person's result alone is never shown)."""
    compared = tuple(ComparedDeal(d, first[d], second[d], compare)
                     for d in range(1, deals + 1) if d in first and d in second)
    return ChallengeCard(deals, compare, compared,
                         (sum(1 for d in first if 1 <= d <= deals),
                          sum(1 for d in second if 1 <= d <= deals)))
