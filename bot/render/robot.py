"""The private answer of **Robot's play** under a deal's end in a duplicate match (bridge
boards, Spades deals): the computer players' calls and result on the same cards, beside
the person's own and, in bridge, the double-dummy par."""

from __future__ import annotations

import re
from collections.abc import Sequence

SEATS = ("N", "E", "S", "W")
SEAT_WORDS = ("North", "East", "South", "West")
STRAIN = re.compile(r"\b([1-7])([SHDC])\b")  # the solver's par contracts: 4S, 3NT
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _bridge_score(points: Sequence[int]) -> str:
    ns_score = points[0] - points[1]
    if ns_score == 0:
        return "0"
    return f"{'N-S' if ns_score > 0 else 'E-W'} +{abs(ns_score)}"


def _side_points(points: Sequence[int], seat: int) -> str:
    return f"your side {points[seat % 2]}, theirs {points[1 - seat % 2]}"


def robot_text(game: str, table_id: int, deal_no: int, seat: int, own_note: str,
               own_points: Sequence[int], dealer: int, calls: Sequence[tuple[int, str]],
               robot_note: str, robot_points: Sequence[int], par: str | None) -> str:
    """The answer: your result, the computer players' (your seat's calls in bold) and
    the double-dummy par where the game has one."""
    bridge = game == "bridge"
    score = _bridge_score if bridge else (lambda p: _side_points(p, seat))
    marked = [f"**{SEATS[s]} {text}**" if s == seat else f"{SEATS[s]} {text}"
              for s, text in calls]
    lines = [f"**Robot's play** · {'board' if bridge else 'deal'} {deal_no} at table "
             f"#{table_id}, from your seat ({SEAT_WORDS[seat]})",
             f"**You:** {own_note or 'passed out'} · {score(own_points)}",
             f"**Computer players:** {robot_note or 'passed out'} · {score(robot_points)}"]
    if bridge:
        lines.append(f"Their auction (dealer {SEAT_WORDS[dealer]}; your seat's calls in "
                     f"bold): {' '.join(marked)}")
    else:
        lines.append("Their bids (your seat's in bold): " + " · ".join(marked))
    if par:
        lines.append(STRAIN.sub(lambda m: m.group(1) + SYMBOL[m.group(2)], par).replace(
            "Par:", "**Par** (double dummy):", 1))
    return "\n".join(lines)
