"""Exact search of a trick-taking endgame, shared by the games' search positions.

A position (`spades_search.Position`, `tennis_search.TennisPosition`) has `hands` (bitmasks),
`turn` (whose hand plays next), `legal()` (a mask), `play(card)` and `copy()`; the deal is
over when the hand on turn is empty. Both sides play their best for the final value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

P = TypeVar("P", bound=Any)


def exact_value(pos: P, ours: Callable[[P], bool], final: Callable[[P], float],
                alpha: float = -1e9, beta: float = 1e9) -> float:
    """The value of `pos` with best play (alpha-beta): `ours(p)` says whether the hand on
    turn plays for us (maximizing), `final(p)` values a finished position for us."""
    if not pos.hands[pos.turn]:
        return final(pos)
    maximizing = ours(pos)
    value = -1e9 if maximizing else 1e9
    m = pos.legal()
    while m:
        low = m & -m
        m ^= low
        child = pos.copy()
        child.play(low.bit_length() - 1)
        v = exact_value(child, ours, final, alpha, beta)
        if maximizing:
            value = max(value, v)
            alpha = max(alpha, v)
        else:
            value = min(value, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return value
