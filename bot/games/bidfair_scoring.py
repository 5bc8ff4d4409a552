"""Scoring one Bid Fair deal: pure, so each ruling can be tested row by row.

Only cards captured in tricks count (A=1, K/Q/J/10=10, 9=9): the two bid cards, the cut
card and the unused crib are captured by nobody (the source counts "cards in tricks
captured", and those never go into a trick).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidfair_rank import CONTRACT_REWARD, TRUMP_BONUS


@dataclass(frozen=True, slots=True)
class DealScore:
    """The points each seat scores for one deal, and the parts they are made of."""

    points: tuple[int, int]
    captured: tuple[int, int]
    trump_bonus: tuple[int, int]
    contract_bonus: tuple[int, int]
    fulfilled: bool | None  # None: no contract
    note: str


# A deal thrown in after both players passed (only in a match of a fixed number of deals,
# where there is no redeal): nobody scores.
THROWN_IN = DealScore((0, 0), (0, 0), (0, 0), (0, 0), None, "both passed: thrown in")


SEATS = ("North", "South")


def score_deal(captured: tuple[int, int], holder: int | None, value: int | None,
               both_up: bool, trump_bid: tuple[bool, bool]) -> DealScore:
    """Score a deal.

    `captured`: card points each seat took in tricks; `holder`/`value`: the contract (None:
    no contract); `both_up`: both bid cards were face up (the difference is doubled);
    `trump_bid`: whether each seat's face-up bid card is of the trump suit (40 each).
    The note says it in plain words: `North had to capture 60 and took 20: missed`.
    """
    trump_bonus = (TRUMP_BONUS if trump_bid[0] else 0, TRUMP_BONUS if trump_bid[1] else 0)
    bonus = [0, 0]
    notes: list[str] = []
    fulfilled: bool | None = None
    if holder is not None and value is not None:
        other = 1 - holder
        fulfilled = captured[holder] >= value
        if fulfilled:
            difference = max(0, captured[holder] - captured[other])
            bonus[holder] = difference * (2 if both_up else 1)
            bonus[other] = CONTRACT_REWARD  # never doubled
        notes.append(f"{SEATS[holder]} had to capture {value} and took {captured[holder]}: "
                     + ("made" if fulfilled else "missed"))
    else:
        notes.append("no contract")
    if any(trump_bid):
        notes.append(f"{TRUMP_BONUS} for a face-up trump bid card: "
                     + " and ".join(SEATS[s] for s in (0, 1) if trump_bid[s]))
    points = (captured[0] + trump_bonus[0] + bonus[0], captured[1] + trump_bonus[1] + bonus[1])
    return DealScore(points, captured, trump_bonus, (bonus[0], bonus[1]), fulfilled,
                     "; ".join(notes))
