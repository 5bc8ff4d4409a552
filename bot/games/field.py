"""Comparing results across a field: everyone who played the same deal (daily deals).

Matchpoints: each result scores 2 for every other result it beats and 1 for every one it
ties; as a percentage of the most it could score (2 per other result). A lone result
scores 50%. Cross-IMPs: the average of the IMPs won against each other result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Each result's matchpoints against the others (2 a win, 1 a tie)."""
    return [sum(2 if mine > other else 1 if mine == other else 0
                for j, other in enumerate(scores) if j != i)
            for i, mine in enumerate(scores)]


def percentages(scores: Sequence[int]) -> list[float]:
    """Each result's matchpoints as a percentage of the top (50 for a lone result)."""
    if len(scores) < 2:
        return [50.0] * len(scores)
    top = 2 * (len(scores) - 1)
    return [100.0 * mp / top for mp in matchpoints(scores)]


def cross_imps(scores: Sequence[int], imps: Callable[[int], int]) -> list[float]:
    """Each result's IMPs against every other result, averaged (0 for a lone result)."""
    if len(scores) < 2:
        return [0.0] * len(scores)
    return [sum(imps(mine - other) for j, other in enumerate(scores) if j != i)
            / (len(scores) - 1) for i, mine in enumerate(scores)]
