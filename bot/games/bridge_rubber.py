"""The rubber score sheet: above and below the line, games, vulnerability, rubber bonus.

Sides are 0 (North-South, "we") and 1 (East-West, "they"). Below the line only contracts bid
and made count (the trick score); everything else (overtricks, the bonus for making a
doubled contract, slams, undertricks, honours, the rubber bonus) goes above. 100 or more
below the line wins a game and a line is drawn under it; a side with a game is vulnerable;
two games win the rubber (700 if the other side has no game, else 500). A stopped rubber
scores 300 for a side's single game and 100 for a part score in the unfinished game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bridge_auction import Contract
from .bridge_scoring import (
    GAME_POINTS,
    contract_score,
    rubber_bonus,
    unfinished_rubber_bonus,
)


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One figure written on the sheet, with the deal it came from."""

    deal_no: int
    label: str
    points: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game below the line: each side's trick scores, and who won it (a line drawn)."""

    below: tuple[tuple[SheetEntry, ...], tuple[SheetEntry, ...]]
    winner: int | None  # None while the game is still being played

    def total(self, side: int) -> int:
        return sum(e.points for e in self.below[side])


@dataclass(frozen=True, slots=True)
class RubberRecord:
    """One rubber as written on the sheet."""

    number: int
    above: tuple[tuple[SheetEntry, ...], tuple[SheetEntry, ...]]
    games: tuple[GameRecord, ...]
    games_won: tuple[int, int]
    vulnerable: tuple[bool, bool]
    winner: int | None  # the side that won two games (None: unfinished or stopped)
    finished: bool  # two games won, or stopped
    stopped: bool
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RubberSheet:
    """`ScoreSheet.detail` for Contract Bridge: every rubber of the match so far."""

    side_names: tuple[str, str]  # ("We (North-South)", "They (East-West)")
    rubbers: tuple[RubberRecord, ...]
    vulnerable: tuple[bool, bool]  # now, for the current deal
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class DealScore:
    """What one deal wrote on the sheet."""

    points: tuple[int, int]  # per side, everything (above and below) from this deal
    entries: tuple[tuple[int, bool, SheetEntry], ...]  # (side, below?, entry)
    game_won_by: int | None
    rubber_won_by: int | None


@dataclass
class _Rubber:
    number: int
    above: tuple[list[SheetEntry], list[SheetEntry]] = field(
        default_factory=lambda: ([], []))
    games: list[tuple[list[SheetEntry], list[SheetEntry]]] = field(
        default_factory=lambda: [([], [])])
    winners: list[int] = field(default_factory=list)  # winner of each completed game
    winner: int | None = None
    stopped: bool = False

    def games_won(self, side: int) -> int:
        return self.winners.count(side)

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.stopped

    def part_score(self, side: int) -> int:
        return sum(e.points for e in self.games[-1][side])

    def total(self, side: int) -> int:
        return (sum(e.points for e in self.above[side])
                + sum(e.points for game in self.games for e in game[side]))

    def record(self) -> RubberRecord:
        games = tuple(
            GameRecord((tuple(ns), tuple(ew)),
                       self.winners[i] if i < len(self.winners) else None)
            for i, (ns, ew) in enumerate(self.games)
            if ns or ew or i < len(self.winners))
        won = (self.games_won(0), self.games_won(1))
        return RubberRecord(
            number=self.number,
            above=(tuple(self.above[0]), tuple(self.above[1])),
            games=games, games_won=won, vulnerable=(won[0] > 0, won[1] > 0),
            winner=self.winner, finished=self.finished, stopped=self.stopped,
            totals=(self.total(0), self.total(1)))


class RubberScorer:
    """Keeps the sheet of a match of rubbers; the engine feeds it one deal at a time."""

    def __init__(self, side_names: tuple[str, str] = ("We (North-South)",
                                                      "They (East-West)")) -> None:
        self.side_names = side_names
        self.rubbers: list[_Rubber] = [_Rubber(1)]

    @property
    def current(self) -> _Rubber:
        return self.rubbers[-1]

    @property
    def completed(self) -> int:
        """Rubbers won outright (two games)."""
        return sum(1 for r in self.rubbers if r.winner is not None)

    def vulnerable(self, side: int) -> bool:
        return self.current.games_won(side) > 0

    def new_rubber(self) -> None:
        self.rubbers.append(_Rubber(len(self.rubbers) + 1))

    def record_deal(self, deal_no: int, contract: Contract, declarer_side: int,
                    tricks: int, honours: tuple[int, int, str] | None) -> DealScore:
        """Score a played deal: `tricks` taken by declarer's side; `honours` is (side,
        points, label) for honours held in one hand, or None."""
        rubber = self.current
        if rubber.finished:
            raise ValueError("this rubber is over; start a new one first")
        side, other = declarer_side, 1 - declarer_side
        score = contract_score(contract, tricks, self.vulnerable(side))
        written: list[tuple[int, bool, SheetEntry]] = []
        if score.declarer_below:
            entry = SheetEntry(deal_no, contract.label, score.declarer_below)
            rubber.games[-1][side].append(entry)
            written.append((side, True, entry))
        for who, items in ((side, score.declarer_above), (other, score.defenders_above)):
            for item in items:
                entry = SheetEntry(deal_no, item.label, item.points)
                rubber.above[who].append(entry)
                written.append((who, False, entry))
        if honours is not None:
            entry = SheetEntry(deal_no, honours[2], honours[1])
            rubber.above[honours[0]].append(entry)
            written.append((honours[0], False, entry))
        game_won_by = rubber_won_by = None
        if rubber.part_score(side) >= GAME_POINTS:
            game_won_by = side
            rubber.winners.append(side)  # a line is drawn: both part scores end here
            rubber.games.append(([], []))
            if rubber.games_won(side) == 2:
                rubber_won_by = side
                rubber.winner = side
                entry = SheetEntry(deal_no, "rubber", rubber_bonus(rubber.games_won(other)))
                rubber.above[side].append(entry)
                written.append((side, False, entry))
        points = [0, 0]
        for who, _below, entry in written:
            points[who] += entry.points
        return DealScore((points[0], points[1]), tuple(written), game_won_by, rubber_won_by)

    def stop(self, deal_no: int) -> tuple[int, int]:
        """End the current rubber unfinished (Laws): 300 for a side's single game, 100 for
        a part score in the unfinished game. Returns the points written per side."""
        rubber = self.current
        if rubber.finished:
            return (0, 0)
        points = [0, 0]
        for side in (0, 1):
            games = rubber.games_won(side)
            part = rubber.part_score(side)
            if games == 1:
                rubber.above[side].append(SheetEntry(deal_no, "unfinished rubber: game", 300))
            if part:
                rubber.above[side].append(SheetEntry(deal_no, "unfinished rubber: part score",
                                                     100))
            points[side] = unfinished_rubber_bonus(games, part)
        rubber.stopped = True
        return (points[0], points[1])

    def totals(self) -> tuple[int, int]:
        return (sum(r.total(0) for r in self.rubbers), sum(r.total(1) for r in self.rubbers))

    def sheet(self) -> RubberSheet:
        current = self.current
        return RubberSheet(
            side_names=self.side_names,
            rubbers=tuple(r.record() for r in self.rubbers),
            vulnerable=(current.games_won(0) > 0, current.games_won(1) > 0),
            totals=self.totals())
