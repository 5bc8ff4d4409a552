"""The rubber score as the bidding reads it, and what a deal's result is worth in a rubber.

`Score` is the public state of a rubber (games won and part scores below the line, per
side); the bidding Context carries it (None: a duplicate board, scored on its own).

`expected_result(score)` is the expected rest of the rubber for North-South: the rubber
bonus still to be won (+700 or +500 for N-S, -700 or -500 for E-W), solved exactly from
this model of the deals to come:
- on each deal one side or the other scores below the line, each with probability 1/2
  (deals where nobody does, passed out or defeated, leave the state as it is and so
  change nothing in the expectation: the model leaves them out);
- the side that scores makes a game on its own (100+ below the line) with probability
  1/3, else a part score of 40 (1NT, 2♣/2♦) or 60 (2♥/2♠, 3♣/3♦), 1/3 each: the most
  frequent part scores;
- the points above the line of the deals to come (overtricks, penalties, slams, honours)
  are even between the sides on average and left out; an unfinished rubber is not
  modelled (rubbers are played out).
Every deal adds below-the-line points, so the states never repeat and the expectation is
a finite recursion (`_solve`).

`rubber_value(contract, tricks, score, side)` is what one result is worth to `side`: its
points on the sheet (above and below the line, vulnerability from the games won) plus the
change it makes to the expected rest of the rubber (a game completed, the rubber won, a
part score that brings game nearer). The bidding simulation scores candidate contracts
by it instead of the duplicate score.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.games.bridge_auction import Contract
from bot.games.bridge_scoring import GAME_POINTS, contract_score, rubber_bonus
from bot.games.bridge_view import BridgeView

GAME_CHANCE = Fraction(1, 3)  # the scoring side makes a game on its own
PART_SCORES = (40, 60)  # else one of these, equally likely


@dataclass(frozen=True, slots=True)
class Score:
    """The public score of a rubber, per side (0 North-South, 1 East-West)."""

    games: tuple[int, int] = (0, 0)
    parts: tuple[int, int] = (0, 0)  # below the line in the current game

    @classmethod
    def of(cls, view: BridgeView) -> Score | None:
        """The public score a seat sees (None on a duplicate board)."""
        if view.duplicate:
            return None
        return cls(view.games_won, view.part_scores)

    def vulnerable(self, side: int) -> bool:
        return self.games[side] > 0

    def after(self, side: int, below: int) -> Score | None:
        """The score once `side` adds `below` below the line (None: the rubber is over)."""
        parts = [self.parts[0], self.parts[1]]
        parts[side] += below
        if parts[side] < GAME_POINTS:
            return Score(self.games, (parts[0], parts[1]))
        games = [self.games[0], self.games[1]]
        games[side] += 1
        return None if games[side] == 2 else Score((games[0], games[1]), (0, 0))


def _won(score: Score, side: int) -> int:
    """The rubber bonus for N-S when `side` wins the rubber from `score` (its second game)."""
    bonus = rubber_bonus(score.games[1 - side])
    return bonus if side == 0 else -bonus


@lru_cache(maxsize=4096)
def _solve(games: tuple[int, int], parts: tuple[int, int]) -> Fraction:
    score = Score(games, parts)
    total = Fraction(0)
    for side in (0, 1):
        outcomes = [(GAME_CHANCE, GAME_POINTS)] + [
            ((1 - GAME_CHANCE) / len(PART_SCORES), p) for p in PART_SCORES]
        for chance, below in outcomes:
            nxt = score.after(side, below)
            value = _won(score, side) if nxt is None else _solve(nxt.games, nxt.parts)
            total += Fraction(1, 2) * chance * value
    return total


def expected_result(score: Score) -> Fraction:
    """The expected rubber bonus still to come, for North-South (see the module's model)."""
    return _solve(score.games, score.parts)


def rubber_value(contract: Contract, tricks: int, score: Score, side: int) -> float:
    """What the result (declarer takes `tricks`) is worth to `side` in this rubber: the
    points written (honours left out) and the change in the expected rest of the rubber."""
    declarer = contract.declarer % 2
    result = contract_score(contract, tricks, score.vulnerable(declarer))
    points = result.declarer_total - result.defenders_total
    nxt = score.after(declarer, result.declarer_below)
    ns_before = expected_result(score)
    ns_after = _won(score, declarer) if nxt is None else expected_result(nxt)
    change = float(ns_after - ns_before)
    mine = points if declarer == side else -points
    return mine + (change if side == 0 else -change)
