"""The search positions' protocol, and the exact search of a trick-taking endgame.

Each game's look-ahead plays one fully known layout of a deal (a sample, or the engine's
truth) as a `Position`: hands as bit masks (`trick_masks`), whose follow-suit and trick
winner come from `trick_masks`, a fast play-out policy, and the exact search below. The
deal is over when the hand on turn is empty. Both sides play their best for the exact
value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, Self, TypeVar


class Position(Protocol):
    """One layout of a deal in play, everything known."""

    hands: list[int]  # per hand: a mask of `Card.index` bits

    @property
    def turn(self) -> int:
        """The hand that plays next."""
        ...

    def legal(self) -> int:
        """The cards the hand on turn may play, as a mask."""
        ...

    def play(self, card: int) -> int | None:
        """Play `card` (legal) for the hand on turn; the trick's winner when it ends."""
        ...

    def copy(self) -> Self:
        ...

    def play_out(self) -> None:
        """Play the deal to its end by the game's fast policy."""
        ...


P = TypeVar("P", bound=Position)


def exact_value(pos: P, ours: Callable[[P], bool], final: Callable[[P], float]) -> float:
    """The value of `pos` with best play: `ours(p)` says whether the hand on turn plays
    for us (maximizing), `final(p)` values a finished position for us."""
    return _alpha_beta(pos, ours, final, -1e9, 1e9)


def _alpha_beta(pos: P, ours: Callable[[P], bool], final: Callable[[P], float],
                alpha: float, beta: float) -> float:
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
        v = _alpha_beta(child, ours, final, alpha, beta)
        if maximizing:
            value = max(value, v)
            alpha = max(alpha, v)
        else:
            value = min(value, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return value


def end_value(pos: P, exact: bool, ours: Callable[[P], bool],
              final: Callable[[P], float]) -> float:
    """What `pos` is worth at the deal's end: with best play for both sides when `exact`
    (few cards left), else played out by the fast policy."""
    if exact:
        return exact_value(pos, ours, final)
    pos.play_out()
    return final(pos)
