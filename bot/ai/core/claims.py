"""Whether a claim holds: double dummy, the claiming side takes at least the tricks it
claims whatever the defence does (the solver plays the claimer's cards best; any other
defence can only give it more)."""

from __future__ import annotations

from bot.games.requests import PlayPosition

from .dds import Position, solve


def tricks_for(position: PlayPosition, side: int) -> int:
    """The tricks `side` (0: North-South, 1: East-West) takes from here with best play by
    both sides, the trick in progress counted."""
    dds_position = Position(position.hands, position.trump, position.leader, position.trick)
    (scores,) = solve([dds_position])
    left = (sum(len(hand) for hand in position.hands) + len(position.trick)) // 4
    best = max(scores.values())  # for the side to play
    return best if dds_position.to_play % 2 == side else left - best


def claim_holds(position: PlayPosition, side: int, tricks: int) -> bool:
    return tricks_for(position, side) >= tricks
