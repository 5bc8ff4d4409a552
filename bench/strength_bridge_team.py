"""Contract Bridge bidding as a team match: this checkout's players against another's.

    python -m bench.strength bridge-team [--deals N] [--first-seed S] [--think SECONDS]
        [--duplicate] [--common-tables] (--against REV | --tables-only)

Each fresh deal (`deal_for(seed)`: its own dealing, none of it in the learning bank; board
`seed % 16 + 1` gives dealer and vulnerability) is bid twice: A (this checkout's default
bidder, each call through the worker round trip as the bot serves it) North-South against
B East-West, then B North-South against A East-West. Both contracts are scored double
dummy as duplicate boards, and A's result is the IMPs of the two tables together (what a
team match counts). B is commit REV's default bidder (`--against`, answering from its own
process), or this checkout's with the learned values off (`--tables-only`). Printed: the
boards, how many differ, A's IMPs a board with a 95% interval, the same for contested
boards (both sides called at either table: a bid, double or redouble) and constructive
ones apart, and the IMPs from par of each table's contracts.

`--common-tables` asks instead whether A beats B against an outsider: A and B each play
the same boards against the tables alone (this checkout with the learned values off), and
each board counts A's IMPs against the tables less B's. A learned round can beat the round
it stepped from by exploiting that round's own bidding and still gain nothing against
anyone else; this match shows the difference.

The players bid each deal as the first of a rubber, at love, as Contract Bridge tables
bid it (the rubber rounds of the values); `--duplicate` bids it as a duplicate board, as
daily deals and team matches do (the duplicate rounds), and then B must be a commit whose
`bidding_auctions --serve-calls` answers a board without a rubber score.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ai.bridge.bidding import Score
from bot.ai.bridge.bidding.context import bid_to_end
from bot.ai.bridge.bidding.simulation import SampledBidding
from bot.ai.bridge.learning import bank
from bot.ai.bridge.learning.rollouts import contract_score_ns, par_ns
from bot.ai.core.dds import trick_tables
from bot.games.bridge_auction import Auction, Call, Contract
from bot.games.bridge_scoring import board_dealer, board_vulnerability, imps
from bot.games.cards import FULL_DECK

from .bidding_auctions import call_budget
from .intervals import mean_half
from .strength_bridge_bidding import fresh_seed
from .strength_bridge_rubber import Bidder, previous_at


def deal_for(seed: int) -> bank.BankDeal:
    """The run's deal of `seed` (its table not yet solved: all zeros)."""
    cards = list(FULL_DECK)
    random.Random(f"team-bench:{seed}").shuffle(cards)
    hands = tuple(tuple(cards[13 * i:13 * i + 13]) for i in range(4))
    board = seed % 16 + 1
    return bank.BankDeal(seed, hands, board_dealer(board), board_vulnerability(board),
                         ((0,) * 4,) * 5)


def bid(deal: bank.BankDeal, ns: Sequence[Bidder], ew: Sequence[Bidder], think: float,
        duplicate: bool = False) -> Auction:
    """The deal's auction, North-South's seats bid by `ns`, East-West's by `ew`: at a
    rubber's start, or as a duplicate board (no rubber score)."""
    score = None if duplicate else Score()

    seats = {0: ns[0], 2: ns[1], 1: ew[0], 3: ew[1]}

    def call(seat: int, calls: Sequence[tuple[int, Call]], legal: Sequence[str]) -> str:
        bidder = seats[seat]
        action = bidder.call(deal.hands[seat], seat, calls, legal,
                             deal.vulnerable, score, 1, call_budget(think))
        if isinstance(bidder, SampledBidding):  # as served: across to a worker and back
            seats[seat] = pickle.loads(pickle.dumps(bidder))
        return action

    return bid_to_end(deal.dealer, call)


def seat_players(make: Callable[[int], Bidder], number: int, seats: Sequence[int]
                 ) -> list[Bidder]:
    """`make`'s players at `seats` on deal `number`. A seat's seed is the same at both
    tables (common random numbers): its layouts are dealt alike whichever side sits
    there, so the tables differ by the players' code alone, not by the luck of their
    layouts (this checkout against itself bids every board alike, as at --think 0)."""
    return [make(number * 4 + seat) for seat in seats]


def contested(auction: Auction) -> bool:
    """Both sides made a call other than a pass (a bid, a double or a redouble)."""
    return {seat % 2 for seat, call in auction.calls if call != Call.PASS} == {0, 1}


@dataclass(frozen=True)
class Board:
    """One deal bid at both tables of a match: `one` the contract with the first players
    North-South, `two` with them East-West; `fought`: either auction contested."""

    one: Contract | None
    two: Contract | None
    fought: bool


def tables_alone(seed: int) -> Bidder:
    """This checkout's player with the learned values off: the tables alone."""
    return SampledBidding(seed, learned=False)


def play_boards(deals: Sequence[bank.BankDeal], first: Callable[[int], Bidder],
                second: Callable[[int], Bidder], think: float, duplicate: bool
                ) -> list[Board]:
    """Each deal bid by `first` against `second`, at both tables."""
    boards: list[Board] = []
    for deal in deals:
        n = deal.number
        table_1 = bid(deal, seat_players(first, n, (0, 2)), seat_players(second, n, (1, 3)),
                      think, duplicate)
        table_2 = bid(deal, seat_players(second, n, (0, 2)), seat_players(first, n, (1, 3)),
                      think, duplicate)
        boards.append(Board(table_1.contract, table_2.contract,
                            contested(table_1) or contested(table_2)))
    return boards


def solve_where(deals: Sequence[bank.BankDeal], needed: Sequence[int]
                ) -> dict[int, bank.BankDeal]:
    """The deals at these indices with their double-dummy tables solved."""
    tables = trick_tables([deals[i].hands for i in needed])
    return {i: bank.BankDeal(deals[i].number, deals[i].hands, deals[i].dealer,
                             deals[i].vulnerable, table)
            for i, table in zip(needed, tables, strict=True)}


def board_gains(boards: Sequence[Board], solved: dict[int, bank.BankDeal]) -> list[float]:
    """The first players' IMPs on each board (0 where both tables reached one contract)."""
    return [0.0 if board.one == board.two else
            float(imps(contract_score_ns(board.one, solved[i])
                       - contract_score_ns(board.two, solved[i])))
            for i, board in enumerate(boards)]


def differing(boards: Sequence[Board]) -> list[int]:
    return [i for i, board in enumerate(boards) if board.one != board.two]


def imps_line(name: str, gains: Sequence[float], who: str = "A") -> str:
    """`name`: boards, and `who`'s IMPs a board with a 95% interval."""
    if not gains:
        return f"{name}: no boards"
    mean, half = mean_half(gains)
    return (f"{name}: {len(gains)} boards, {who} {mean:+.3f} IMPs a board "
            f"(95% CI {mean - half:+.3f} to {mean + half:+.3f})")


def print_split(gains: Sequence[float], fought: Sequence[bool]) -> None:
    """All boards, then the contested and the constructive ones apart."""
    print(imps_line("all", gains))
    print("  " + imps_line("contested (both sides called at either table)",
                           [g for g, f in zip(gains, fought, strict=True) if f]))
    print("  " + imps_line("constructive (one side only)",
                           [g for g, f in zip(gains, fought, strict=True) if not f]))


def head_to_head(deals: Sequence[bank.BankDeal], b_of: Callable[[int], Bidder],
                 think: float, duplicate: bool) -> None:
    """A against B: A's IMPs a board, and each table's distance from par where they differ."""
    boards = play_boards(deals, SampledBidding, b_of, think, duplicate)
    differ = differing(boards)
    solved = solve_where(deals, differ)
    gains = board_gains(boards, solved)
    print(f"contracts differ on {len(differ)} boards; ", end="")
    print_split(gains, [b.fought for b in boards])
    if differ:
        scores = [(contract_score_ns(boards[i].one, solved[i]),
                   contract_score_ns(boards[i].two, solved[i]), par_ns(solved[i]))
                  for i in differ]
        print(f"on the boards that differ, IMPs from par: table 1 (A N-S) "
              f"{statistics.fmean(abs(imps(a - p)) for a, _, p in scores):.2f}, "
              f"table 2 (B N-S) {statistics.fmean(abs(imps(b - p)) for _, b, p in scores):.2f}")


def against_the_tables(deals: Sequence[bank.BankDeal], b_of: Callable[[int], Bidder],
                       think: float, duplicate: bool) -> None:
    """A and B each against the tables alone on every board: a common outsider, so a
    step that only learned to beat the round before it shows nothing here. Per board,
    A's IMPs against the tables less B's, paired (the same deal, the same seats' seeds)."""
    a_boards = play_boards(deals, SampledBidding, tables_alone, think, duplicate)
    b_boards = play_boards(deals, b_of, tables_alone, think, duplicate)
    solved = solve_where(deals, sorted(set(differing(a_boards)) | set(differing(b_boards))))
    a_gains, b_gains = board_gains(a_boards, solved), board_gains(b_boards, solved)
    fought = [a.fought or b.fought for a, b in zip(a_boards, b_boards, strict=True)]
    changed = sum(a != b for a, b in zip(a_boards, b_boards, strict=True))
    print("A against the tables: " + imps_line("all", a_gains))
    print("B against the tables: " + imps_line("all", b_gains, "B"))
    print(f"A less B against the tables (paired by board; A's and B's boards differ on "
          f"{changed}): ", end="")
    print_split([a - b for a, b in zip(a_gains, b_gains, strict=True)], fought)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-team")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--duplicate", action="store_true",
                        help="bid each deal as a duplicate board, not a rubber's first deal")
    parser.add_argument("--common-tables", action="store_true",
                        help="A and B each against the tables alone, not against each "
                             "other: A's IMPs less B's, paired by board")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--against", metavar="REV")
    which.add_argument("--tables-only", action="store_true")
    args = parser.parse_args(argv)
    first = fresh_seed() if args.first_seed is None else args.first_seed
    seeds = range(first, first + args.deals)
    deals = [deal_for(seed) for seed in seeds]
    learned = {bank.hands_key(d.hands) for d in bank.read()}
    if any(bank.hands_key(d.hands) in learned for d in deals):
        raise SystemExit("a deal of this run is in the learning bank: choose other seeds")
    b_name = f"commit {args.against}" if args.against else "this checkout, tables only"
    print(f"Bridge bidding team match: A = this checkout, B = {b_name}; seeds "
          f"{seeds.start}..{seeds.stop - 1} (--first-seed {first}); think {args.think} s; "
          f"{'duplicate boards' if args.duplicate else 'first deals of rubbers, at love'}; "
          f"none of the {len(deals)} deals is among the {len(learned)} of the learning bank")

    match = against_the_tables if args.common_tables else head_to_head
    if args.tables_only:
        match(deals, tables_alone, args.think, args.duplicate)
        return 0
    with previous_at(args.against, args.think) as previous:
        match(deals, previous, args.think, args.duplicate)
    return 0
