"""Double-dummy solving for the computer players, through endplay's binding of DDS.

A `Position` is four known hands (compass seats N, E, S, W = 0..3), the trump suit, who
led the trick in progress and its cards. `solve` gives, for each position, the tricks the
side to play takes from here on (the trick in progress included) after each of its legal
cards, with every card of an equal group scored alike.

The DDS library keeps per-thread state and endplay always calls it as thread 0, so one
caller at a time may use it: every solve in the process goes through `SOLVER_LOCK` (the
hand records take it too). A batch is solved by DDS's own threads (`SolveAllBoardsBin`),
with the GIL released, so the event loop keeps running while it works.

Solving within an allowance of work (`solve_within`) is the one way every search here
bounds its solver: a batch at a time, each batch's work measured as it is solved (DDS's
search nodes for card play, `solve_measured`; the process's CPU for DD tables,
`tables_measured`), stopping before a batch whose projected work would pass the
allowance. Card play (`card_search`), the Single Dummy estimate and the bidding
simulation all size their plan from a cost model and let this stop a deal that costs
more than the model said.

endplay takes most of a second to import, so it is imported on the first solve.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.games.cards import Card, Rank, Suit

SOLVER_LOCK = threading.Lock()
MAX_BATCH = 200  # DDS's MAXNOOFBOARDS
_NOTRUMP = 4  # DDS strain numbers: 0 spades, 1 hearts, 2 diamonds, 3 clubs, 4 notrump
# Process CPU seconds per search node DDS reports: 5.3e-7 to 6.7e-7 by trick and strain
# over 360 solves of bench/strength's deals (the first, second and third tricks), the
# costliest layouts nearest the mean.
NODE_SECONDS = 6.5e-7

Item = TypeVar("Item")
Result = TypeVar("Result")
# Solves a batch: its results, in order, and the CPU seconds of work the solve took.
BatchSolver = Callable[[Sequence[Item]], tuple[list[Result], float]]


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


class BadPosition(ValueError):
    """Cards DDS would refuse (it then also writes a dump.txt into the working directory):
    a card twice, or hands whose sizes do not fit the trick in progress."""


def check_position(position: Position) -> None:
    """Raise BadPosition unless DDS can solve `position` (checked before it is handed over,
    so the library never reports, and dumps, a malformed one)."""
    cards = [c for hand in position.hands for c in hand] + list(position.trick)
    if len(set(cards)) != len(cards):
        raise BadPosition("a card appears twice in the position")
    if len(position.trick) > 3 or not 0 <= position.leader < 4:
        raise BadPosition("the trick in progress is not one DDS can take")
    played = {(position.leader + i) % 4 for i in range(len(position.trick))}
    sizes = {len(hand) + (seat in played) for seat, hand in enumerate(position.hands)}
    if len(sizes) != 1 or not 0 < sizes.pop() <= 13:
        raise BadPosition("the hands hold different numbers of cards for this trick")


def _fill(target: Any, position: Position) -> None:
    check_position(position)
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


def solve_counted(positions: Sequence[Position], every_card: bool = True,
                  ) -> tuple[list[dict[Card, int]], int]:
    """`solve`, and the search nodes DDS visited for them: a measure of the work done
    that, unlike a clock, is the same every time for the same positions (and that a
    thread's CPU clock would miss: DDS works in its own threads). Without `every_card`
    only a best card (and its equals) is scored: the side's double-dummy tricks, cheaper."""
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
            boards.solutions[i] = 3 if every_card else 1  # every legal card, or a best
            boards.mode[i] = 1
        solved = binding.solvedBoards()
        with SOLVER_LOCK:
            binding.SolveAllBoardsBin(boards, solved)
        out.extend(_read(solved.solvedBoard[i]) for i in range(len(chunk)))
        nodes += sum(solved.solvedBoard[i].nodes for i in range(len(chunk)))
    return out, nodes


def solve_measured(positions: Sequence[Position]) -> tuple[list[dict[Card, int]], float]:
    """`solve`, and its work in CPU seconds as DDS's search nodes measure it (the same for
    the same positions, up to what DDS's threads solved before): a `BatchSolver`."""
    solved, nodes = solve_counted(positions)
    return solved, nodes * NODE_SECONDS


def solve_within(items: Sequence[Item], solve_batch: BatchSolver[Item, Result],
                 allowance: float, first: int = 1, least: int = 1,
                 spent: Callable[[], bool] | None = None) -> list[Result]:
    """Solve `items` in order, a batch at a time, while the work fits `allowance` seconds.

    The first batch holds `first` items (a probe: one when a single item may be costly),
    each later one as many as were solved before it (at least `least`: DDS solves one
    board per thread), so a batch is about the work already measured, not more. Before
    each later batch, its projected work (the mean so far per item, times its size) is
    added to the work so far: past the allowance, the items solved so far are returned (a
    prefix; the caller decides whether it is enough). Below the allowance every item is
    solved, so a cheap decision repeats exactly; the stop, on a costly one, depends on
    the measured work (DDS's node counts vary a little with what its threads solved
    before; a clock varies more).

    `spent` (the decision's budget: the safety net for a slower machine) is asked before
    every batch: when it says so, the items solved so far are returned too (a caller that
    must answer without the solver then, as card play does, asks its budget again).

    For example, the bidding simulation's tables: ``solve_within(deals, lambda batch:
    tables_measured(batch, strains), budget.planned_seconds(), spent=budget.spent)``.
    """
    results: list[Result] = []
    work = 0.0
    while len(results) < len(items):
        if spent is not None and spent():
            break
        size = max(least, len(results)) if results else first
        if results and work + work / len(results) * min(size, len(items) - len(results)) \
                > allowance:
            break
        solved, cost = solve_batch(items[len(results):len(results) + size])
        results.extend(solved)
        work += cost
    return results


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
            if sorted(len(set(hand)) for hand in hands) != [13] * 4 \
                    or len({c for hand in hands for c in hand}) != 52:
                raise BadPosition("a whole deal is 52 distinct cards, 13 per seat")
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


def tables_measured(deals: Sequence[tuple[tuple[Card, ...], ...]],
                    strains: Sequence[int] | None = None,
                    ) -> tuple[list[tuple[tuple[int, ...], ...]], float]:
    """`trick_tables`, and its work: the process's CPU while they were solved (DDS reports
    no nodes for tables). That clock also sees the process's other threads, so a table
    solved beside other work reads costlier: a `BatchSolver` for `solve_within`."""
    cpu = time.process_time()
    tables = trick_tables(deals, strains)
    return tables, time.process_time() - cpu
