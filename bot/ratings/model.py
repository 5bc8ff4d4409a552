"""Rating math: OpenSkill's Plackett-Luce model over the sides of one finished match.

Pure: imports only openskill and the stdlib. Each rated entity has a key: a person is
`u:<user id>`, a computer-player kind is `b:<kind>` (so "spades-basic" has one rating per
server and game, and beating it counts for what it is worth). A side is a team: every
partner is rated from the side's result. Equal ranks are a draw.

An entity sitting more than once on one side (two computer players of one kind as
partners) gets one update: the mean of its seats' changes in mu and the mean of their new
sigmas. An entity seated on more than one side (the same computer-player kind playing
for both sides) played itself: the match says nothing about its strength, so it is left
out, with no rating change and no game counted (the people are still rated, against its
rating as it stood).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from openskill.models import PlackettLuce

DEFAULT_MU: Final = 25.0
DEFAULT_SIGMA: Final = 25.0 / 3.0
ESTABLISHED_GAMES: Final = 5  # fewer games than this: listed after the rest

Outcome = Literal["win", "loss", "draw"]

_MODEL: Final = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the leaderboard sorts by (low until enough games are played)."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished match: who sat there (entity key), its side, the side's rank."""

    key: str
    side: int
    rank: int


def user_key(user_id: int) -> str:
    return f"u:{user_id}"


def bot_key(kind: str) -> str:
    return f"b:{kind}"


def outcome_of(rank: int, ranks: Sequence[int]) -> Outcome:
    """Rank 0 alone wins; rank 0 shared is a draw; anything else lost."""
    if rank != 0:
        return "loss"
    return "draw" if sum(1 for r in ranks if r == 0) > 1 else "win"


def on_both_sides(seats: Sequence[SeatResult]) -> frozenset[str]:
    """The entities that played for more than one side (left out of the ratings)."""
    sides: dict[str, set[int]] = {}
    for seat in seats:
        sides.setdefault(seat.key, set()).add(seat.side)
    return frozenset(key for key, found in sides.items() if len(found) > 1)


def outcomes(seats: Sequence[SeatResult]) -> dict[str, Outcome]:
    """Each rated entity's outcome (those on both sides are left out)."""
    side_ranks = _side_ranks(seats)
    ranks = list(side_ranks.values())
    left_out = on_both_sides(seats)
    return {seat.key: outcome_of(side_ranks[seat.side], ranks) for seat in seats
            if seat.key not in left_out}


def rate(seats: Sequence[SeatResult], before: Mapping[str, Rating]) -> dict[str, Rating]:
    """New ratings for every rated entity in the match (missing from `before`: a new
    rating); an entity on more than one side is left out (see the module's docstring).

    Fewer than two sides: nothing to learn, ratings are returned unchanged.
    """
    current = {seat.key: before.get(seat.key, Rating()) for seat in seats}
    side_ranks = _side_ranks(seats)
    if len(side_ranks) < 2:
        return current
    sides = sorted(side_ranks)
    teams = [[_MODEL.rating(mu=current[s.key].mu, sigma=current[s.key].sigma)
              for s in seats if s.side == side] for side in sides]
    rated = _MODEL.rate(teams, ranks=[float(side_ranks[side]) for side in sides])
    moves: dict[str, list[tuple[float, float]]] = {}
    for side, team in zip(sides, rated, strict=True):
        members = [s for s in seats if s.side == side]
        for seat, new in zip(members, team, strict=True):
            moves.setdefault(seat.key, []).append(
                (float(new.mu) - current[seat.key].mu, float(new.sigma)))
    out: dict[str, Rating] = {}
    left_out = on_both_sides(seats)
    for key, changes in moves.items():
        if key in left_out:
            continue
        mu_change = sum(c[0] for c in changes) / len(changes)
        sigma = sum(c[1] for c in changes) / len(changes)
        out[key] = Rating(current[key].mu + mu_change, sigma)
    return out


def _side_ranks(seats: Sequence[SeatResult]) -> dict[int, int]:
    ranks: dict[int, int] = {}
    for seat in seats:
        ranks.setdefault(seat.side, seat.rank)
    return ranks
