"""The private answer of **Robot's play** under a duplicate board's end: the computer
players' auction and result on the same cards, beside the person's own and the par."""

from __future__ import annotations

import re
from collections.abc import Sequence

SEATS = ("N", "E", "S", "W")
SEAT_WORDS = ("North", "East", "South", "West")
STRAIN = re.compile(r"\b([1-7])([SHDC])\b")  # the solver's par contracts: 4S, 3NT
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _score(ns_score: int) -> str:
    if ns_score == 0:
        return "0"
    side = "N-S" if ns_score > 0 else "E-W"
    return f"{side} +{abs(ns_score)}"


def robot_text(table_id: int, board: int, seat: int, own_note: str, own_ns: int,
               dealer: int, calls: Sequence[tuple[int, str]], robot_note: str,
               robot_ns: int, par: str) -> str:
    """The answer: your result, the computer players' (their calls from your seat in
    bold) and the double-dummy par."""
    auction = " ".join(f"**{SEATS[s]} {label}**" if s == seat else f"{SEATS[s]} {label}"
                       for s, label in calls)
    return "\n".join([
        f"**Robot's play** · board {board} at table #{table_id}, from your seat "
        f"({SEAT_WORDS[seat]})",
        f"**You:** {own_note or 'passed out'} · {_score(own_ns)}",
        f"**Computer players:** {robot_note or 'passed out'} · {_score(robot_ns)}",
        f"Their auction (dealer {SEAT_WORDS[dealer]}; your seat's calls in bold): {auction}",
        STRAIN.sub(lambda m: m.group(1) + SYMBOL[m.group(2)], par).replace(
            "Par:", "**Par** (double dummy):", 1),
    ])
