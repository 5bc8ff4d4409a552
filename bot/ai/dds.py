"""Double-dummy solving for the computer players, through endplay's binding of DDS.

A `Position` is four known hands (compass seats N, E, S, W = 0..3), the trump suit, who
led the trick in progress and its cards. `solve` gives, for each position, the tricks the
side to play takes from here on (the trick in progress included) after each of its legal
cards, with every card of an equal group scored alike.

The DDS library keeps per-thread state and endplay always calls it as thread 0, so one
caller at a time may use it: every solve in the process goes through `SOLVER_LOCK` (the
hand records take it too). A batch is solved by DDS's own threads (`SolveAllBoardsBin`),
with the GIL released, so the event loop keeps running while it works.

endplay takes most of a second to import, so it is imported on the first solve.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.cards import Card, Rank, Suit

SOLVER_LOCK = threading.Lock()
MAX_BATCH = 200  # DDS's MAXNOOFBOARDS
_NOTRUMP = 4  # DDS strain numbers: 0 spades, 1 hearts, 2 diamonds, 3 clubs, 4 notrump


def _dds_suit(suit: Suit) -> int:
    return 3 - int(suit)


@dataclass(frozen=True, slots=True)
class Position:
    """A whole position: hands by compass seat, trump, and the trick in progress."""

    hands: tuple[tuple[Card, ...], ...]  # N, E, S, W: the cards each still holds
    trump: Suit | None
    leader: int  # the seat that led (or is to lead) the trick in progress
    trick: tuple[Card, ...] = ()  # cards already in the trick, in order

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 4


def _binding() -> Any:
    import endplay._dds as binding  # the private ctypes layer: no Deal objects per sample

    return binding


def _fill(target: Any, position: Position) -> None:
    target.trump = _NOTRUMP if position.trump is None else _dds_suit(position.trump)
    target.first = position.leader
    for i in range(3):
        card = position.trick[i] if i < len(position.trick) else None
        target.currentTrickSuit[i] = 0 if card is None else _dds_suit(card.suit)
        target.currentTrickRank[i] = 0 if card is None else int(card.rank)
    for seat in range(4):
        masks = [0, 0, 0, 0]
        for card in position.hands[seat]:
            masks[_dds_suit(card.suit)] |= 1 << int(card.rank)
        for s in range(4):
            target.remainCards[seat][s] = masks[s]


def _read(result: Any) -> dict[Card, int]:
    out: dict[Card, int] = {}
    for i in range(result.cards):
        score = result.score[i]
        if score < 0:
            continue
        suit = Suit(3 - result.suit[i])
        holding = (1 << result.rank[i]) | result.equals[i]
        for rank in range(2, 15):
            if holding & (1 << rank):
                out[Card(suit, Rank(rank))] = score
    return out


def solve(positions: Sequence[Position]) -> list[dict[Card, int]]:
    """For each position, the tricks its side to play takes after each legal card."""
    return solve_counted(positions)[0]


def solve_counted(positions: Sequence[Position]) -> tuple[list[dict[Card, int]], int]:
    """`solve`, and the search nodes DDS visited for them: a measure of the work done
    that, unlike a clock, is the same every time for the same positions (and that a
    thread's CPU clock would miss: DDS works in its own threads)."""
    binding = _binding()
    out: list[dict[Card, int]] = []
    nodes = 0
    for start in range(0, len(positions), MAX_BATCH):
        chunk = positions[start:start + MAX_BATCH]
        boards = binding.boards()
        boards.noOfBoards = len(chunk)
        for i, position in enumerate(chunk):
            _fill(boards.deals[i], position)
            boards.target[i] = -1
            boards.solutions[i] = 3  # every legal card with its score
            boards.mode[i] = 1
        solved = binding.solvedBoards()
        with SOLVER_LOCK:
            binding.SolveAllBoardsBin(boards, solved)
        out.extend(_read(solved.solvedBoard[i]) for i in range(len(chunk)))
        nodes += sum(solved.solvedBoard[i].nodes for i in range(len(chunk)))
    return out, nodes


TABLE_BATCH = 40  # DDS's MAXNOOFTABLES with all five strains
TABLE_STRAINS = (3, 2, 1, 0, _NOTRUMP)  # DDS strain numbers of clubs, diamonds, hearts,
# spades and notrump (bidding order)


def trick_tables(deals: Sequence[tuple[tuple[Card, ...], ...]],
                 strains: Sequence[int] | None = None) -> list[tuple[tuple[int, ...], ...]]:
    """For each whole deal (13 cards per compass seat), the tricks each seat takes as
    declarer, by strain in bidding order (clubs .. notrump) then seat: `t[strain][seat]`.
    Declarer's left-hand opponent leads. `strains` (bidding order, 0 clubs .. 4 notrump)
    solves only those, for their share of the cost; the others read 0."""
    wanted = range(5) if strains is None else strains
    skip = [0 if TABLE_STRAINS.index(dds_strain) in wanted else 1 for dds_strain in range(5)]
    binding = _binding()
    out: list[tuple[tuple[int, ...], ...]] = []
    for start in range(0, len(deals), TABLE_BATCH):
        chunk = deals[start:start + TABLE_BATCH]
        tables = binding.ddTableDeals()
        tables.noOfTables = len(chunk)
        for i, hands in enumerate(chunk):
            for seat in range(4):
                masks = [0, 0, 0, 0]
                for card in hands[seat]:
                    masks[_dds_suit(card.suit)] |= 1 << int(card.rank)
                for s in range(4):
                    tables.ddTableDeal[i].cards[seat][s] = masks[s]
        results = binding.ddTablesRes()
        par = binding.allParResults()
        with SOLVER_LOCK:
            binding.CalcAllTables(tables, -1, skip, results, par)
        for i in range(len(chunk)):
            res = results.results[i].resTable
            out.append(tuple(tuple(res[strain][seat] for seat in range(4))
                             for strain in TABLE_STRAINS))
    return out
