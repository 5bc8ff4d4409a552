"""The private answer of **Robot's play** under a deal's end in a match compared deal by
deal (daily deals, team matches, challenges): the computer players' calls and result on
the same cards, beside the person's own and, in Contract Bridge, the double-dummy par."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games import game_class

SEATS = ("N", "E", "S", "W")
SEAT_WORDS = ("North", "East", "South", "West")


def _bridge_score(points: Sequence[int]) -> str:
    ns_score = points[0] - points[1]
    if ns_score == 0:
        return "0"
    return f"{'North-South' if ns_score > 0 else 'East-West'} +{abs(ns_score)}"


def _side_points(points: Sequence[int], side: int, unit: str) -> str:
    return f"your side {points[side]} {unit}, theirs {points[1 - side]}"


def robot_text(game: str, table_id: int, deal_no: int, seat: int, own_note: str,
               own_points: Sequence[int], dealer: int, calls: Sequence[tuple[int, str]],
               robot_note: str, robot_points: Sequence[int], par: str | None) -> str:
    """The answer: your result, the computer players' (your seat's calls in bold) and
    the double-dummy par where the game has one."""
    bridge = game == "bridge"
    cls = game_class(game)
    side = next(i for i, seats in enumerate(cls.SIDES) if seat in seats)
    # Tennis counts errors (fewer is better); the others count points.
    unit = "errors" if game == "tennis" else "points"

    def score(points: Sequence[int]) -> str:
        return _bridge_score(points) if bridge else _side_points(points, side, unit)
    marked = [f"**{SEATS[s]} {text}**" if s == seat else f"{SEATS[s]} {text}"
              for s, text in calls]
    lines = [f"**Robot's play** · {'board' if bridge else 'deal'} {deal_no} at table "
             f"#{table_id}, from your seat ({cls.SEAT_NAMES[seat]})",
             f"**You:** {own_note or 'passed out'} · {score(own_points)}",
             f"**Computer players:** {robot_note or 'passed out'} · {score(robot_points)}"]
    if bridge:
        lines.append(f"Their auction (dealer {SEAT_WORDS[dealer]}; your seat's calls in "
                     f"bold): {' '.join(marked)}")
    elif calls:
        lines.append("Their bids (your seat's in bold): " + " · ".join(marked))
    if par:
        lines.append(par.replace("Par:", "**Par** (double dummy):", 1))
    return "\n".join(lines)
