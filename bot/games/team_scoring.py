"""A team match's score card: two tables play the same duplicate boards, team A North-South
at the first table and East-West at the second. Each board is compared once both tables
have played it: team A's net is North-South's score at the first table minus
North-South's score at the second, turned into IMPs by the IMP table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .bridge_scoring import imps

TEAMS = ("A", "B")


@dataclass(frozen=True, slots=True)
class TableBoard:
    """One table's result on a board: North-South's duplicate score, and the contract."""

    ns_score: int
    note: str


@dataclass(frozen=True, slots=True)
class ComparedBoard:
    board: int
    first: TableBoard  # team A North-South
    second: TableBoard  # team A East-West

    @property
    def net_a(self) -> int:
        """Team A's points on the board, over both tables."""
        return self.first.ns_score - self.second.ns_score

    @property
    def imps_a(self) -> int:
        """Team A's IMPs on the board (negative: team B's)."""
        return imps(self.net_a)


@dataclass(frozen=True, slots=True)
class ScoreCard:
    boards: int
    compared: tuple[ComparedBoard, ...]
    played: tuple[int, int]  # boards finished at each table

    @property
    def imps(self) -> tuple[int, int]:
        """Each team's IMPs over the compared boards."""
        won_a = sum(b.imps_a for b in self.compared if b.imps_a > 0)
        won_b = sum(-b.imps_a for b in self.compared if b.imps_a < 0)
        return won_a, won_b

    @property
    def complete(self) -> bool:
        return len(self.compared) == self.boards

    def winner(self) -> str | None:
        """The team ahead on IMPs once every board is compared (None: a tie or not over)."""
        a, b = self.imps
        if not self.complete or a == b:
            return None
        return TEAMS[0] if a > b else TEAMS[1]


def score_card(boards: int, first: Mapping[int, TableBoard],
               second: Mapping[int, TableBoard]) -> ScoreCard:
    """The card from each table's results by board number: a board appears only once both
    tables have played it (a table's result alone is never shown)."""
    compared = tuple(ComparedBoard(b, first[b], second[b])
                     for b in range(1, boards + 1) if b in first and b in second)
    return ScoreCard(boards, compared, (len(first), len(second)))
