"""Labels for the call values: every decision of our players' auction on a bank deal, each
honest candidate call rolled out to the end of the auction and scored double dummy.

    python -m bot.ai.bridge.learning.rollouts --first 0 --deals 20000 --out FILE [--jobs 2]

On bank deal `i` four players bid by the system's tables (no simulation: the base policy
the values improve on, and what the rollouts continue with). At each decision, every
honest candidate (`features.honest_candidates`) is called instead of the tables' call, the
auction goes on by the same players to its end, and the contract is scored double dummy
from the deal's table, as a duplicate board (the bank's vulnerability). A row's label is
what the candidate scored for the deciding side less what the tables' call scored, in
IMPs: the real deal is a fair draw of what the hidden hands hold given the calls, so the
label is unbiased for "had this seat called that", and comparing the calls on the same deal
removes most of the luck.

`--model FILE` bids with the learned values (the round being improved on) instead of the
tables alone: the next round's data. The labels are still each candidate against the
tables' call, the auctions going on by the players with the values. `--opponents A B ...`
(model files, or `tables`) sets each deal's other side to one of them in turn, by the
deal's number, the deal bid once for each side: a round labelled against its own
predecessor alone learns to beat that one (the rounds are not transitive), against a mix
of earlier rounds it must do well against each.

`--relative` labels each candidate against the call the players make (with `--model`, that
round's), not the tables': the data of a round stacked on `--model`
(`values.CallValues.base`), whose question is what a call is worth above the base round's.
The tables' call is then a candidate like any other.

`--rubber` labels the decisions of a rubber instead: each deal is bid at a rubber score
drawn for it by its number (`rubber_state`: games won and part scores below the line, so
that most deals carry a part score), by rubber-aware players, and each outcome is worth
its points in the rubber to the deciding side (`bidding.rubber.rubber_value`: the points
written and the change in the expected rest of the rubber). A label is then in points,
not IMPs, and the row ends with the part scores (`features.RUBBER_NAMES`).

`--slams` also rolls out the small slams (`features.Candidates.wanted`): the rows of a
round that learns when to bid one (train it with `--slams`). `--between` likewise rolls
out the bids between the cheapest and game (train with `--between`), and `--long` the
jumps in a long suit where no fit is known (train with `--long`). `--only CLASS`
labels only the candidates that class adds: on deals already labelled without it by the
same players, those rows and these together are the deals' rows with it.

`--reading` ends each row with the learned hand reading's means at the decision
(`features.READING_NAMES`, read once a decision from the shipped hand reading): the rows of
a round that reads them (`train` knows such rows by their width). With `--rubber` they
come after the part scores: a rubber round that reads them.

Rows are written as JSON lines (the deal, the seat's decision number, the candidate, its
features, its label), appended, one deal at a time, so a stopped run carries on after the
last deal written (`--out` is read first).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bot.games.bridge_auction import CALL_BY_TEXT, Call, Contract
from bot.games.bridge_scoring import duplicate_score, imps

from ..bidding.context import bid_to_end, empty_auction
from ..bidding.rubber import Score, rubber_value
from ..bidding.system import Decision, decide
from .bank import FOLDER, BankDeal, read
from .features import EXTRAS, NO_EXTRAS, Candidates, Extras, Rows, extras_asked
from .reading import reading_part
from .reading import shared as shared_reading
from .values import CallValues, load, shared

TABLES = "tables"  # an opponent bidding by the tables alone (`--opponents`)


@dataclass(frozen=True, slots=True)
class Row:
    deal: int
    decision: int
    action: str
    tables: str
    features: list[float]
    gain: float  # for the deciding side: the candidate's outcome less the reference's
    # (IMPs; points of the rubber in a rubber row)

    def to_json(self) -> str:
        return json.dumps({"deal": self.deal, "decision": self.decision,
                           "action": self.action, "tables": self.tables,
                           "x": self.features, "y": self.gain})

    @classmethod
    def from_json(cls, line: str) -> Row:
        d = json.loads(line)
        return cls(int(d["deal"]), int(d["decision"]), str(d["action"]), str(d["tables"]),
                   [float(v) for v in d["x"]], float(d["y"]))


# A rubber row's state: a part score's chance for each side, and the part scores drawn
# (the common ones more often: 40 and 60 are 1NT, 2 of a minor, 2 of a major, 3 of a minor).
PART_CHANCE = 0.5
PARTS = (20, 30, 40, 40, 60, 60, 70, 80, 90)


def rubber_state(number: int) -> Score:
    """The rubber score at which bank deal `number` is bid in rubber rows: games won and
    part scores drawn from the deal's number (the same wherever it is asked)."""
    rng = random.Random(f"rubber-state:{number}")
    games = (rng.randrange(2), rng.randrange(2))
    parts = tuple(rng.choice(PARTS) if rng.random() < PART_CHANCE else 0 for _ in range(2))
    return Score(games, (parts[0], parts[1]))


def vulnerability(deal: BankDeal, score: Score | None) -> tuple[bool, bool]:
    """Each side's vulnerability: the board's, or at a rubber the games won."""
    return deal.vulnerable if score is None else (score.vulnerable(0), score.vulnerable(1))


def contract_score_ns(contract: Contract | None, deal: BankDeal) -> int:
    """The contract's duplicate score for North-South, its tricks double dummy."""
    if contract is None:
        return 0
    tricks = deal.tricks[int(contract.strain)][contract.declarer]
    side = contract.declarer % 2
    points = duplicate_score(contract, tricks, deal.vulnerable[side])
    return points if side == 0 else -points


def outcome_ns(contract: Contract | None, deal: BankDeal, score: Score | None) -> float:
    """What the contract is worth to North-South, its tricks double dummy: its duplicate
    score, or at a rubber's `score` its value in the rubber (a deal passed out: nothing)."""
    if score is None:
        return contract_score_ns(contract, deal)
    if contract is None:
        return 0.0
    return rubber_value(contract, deal.tricks[int(contract.strain)][contract.declarer],
                        score, 0)


def swing(gain: float, rubber: bool) -> float:
    """A difference of outcomes as a label: IMPs on a board, points at a rubber."""
    return gain if rubber else float(imps(round(gain)))


def par_ns(deal: BankDeal) -> int:
    """The deal's par score for North-South (endplay's par from the bank's table)."""
    import endplay._dds as dds_binding
    from endplay.dds import par
    from endplay.dds.ddtable import DDTable
    from endplay.types import Player, Vul

    data = dds_binding.ddTableResults()
    for strain, dds_strain in enumerate((3, 2, 1, 0, 4)):  # DDS: S H D C NT
        for seat in range(4):
            data.resTable[dds_strain][seat] = deal.tricks[strain][seat]
    vulnerable = {(False, False): Vul.none, (True, False): Vul.ns, (False, True): Vul.ew,
                  (True, True): Vul.both}[deal.vulnerable]
    return int(par(DDTable(data), vulnerable, Player(deal.dealer)).score)


def bid_out(deal: BankDeal, values: CallValues | None, sides: tuple[int, ...] = (0, 1),
            others: CallValues | None = None, score: Score | None = None) -> float:
    """The deal bid by our four players, the values used by the `sides` named (0 N-S,
    1 E-W) and `others` (None: the tables alone) by the other side: what the contract is
    worth to North-South, double dummy (`outcome_ns`; at a rubber's `score`)."""
    return outcome_ns(Bidders(values, sides, others, score).finish(deal, []), deal, score)


class Bidders:
    """Our four players: the tables, or the tables with learned values (for the `sides`
    named: 0 North-South, 1 East-West; the other side with `others`, the values of an
    earlier round, or the tables alone); at a rubber's `score`, bidding to it."""

    def __init__(self, values: CallValues | None, sides: tuple[int, ...] = (0, 1),
                 others: CallValues | None = None, score: Score | None = None) -> None:
        self.values = values
        self.sides = sides
        self.others = others
        self.score = score

    def choose(self, deal: BankDeal, seat: int, calls: Sequence[tuple[int, Call]],
               legal: Sequence[str]) -> tuple[Decision, str, Candidates]:
        """The tables' decision, the call made (the tables', or the values' better one)
        and the decision's candidates as the values worked them out."""
        made = decide(deal.hands[seat], seat, calls, legal, None, self.score)
        known = Candidates(made, legal)
        values = self.values if seat % 2 in self.sides else self.others
        if values is None:
            return made, made.action, known
        return made, values.better(made, legal, vulnerability(deal, self.score), self.score,
                                   known), known

    def call(self, deal: BankDeal, seat: int, calls: Sequence[tuple[int, Call]],
             legal: Sequence[str]) -> str:
        return self.choose(deal, seat, calls, legal)[1]

    def finish(self, deal: BankDeal, calls: list[tuple[int, Call]]) -> Contract | None:
        """Bid on from `calls` to the end of the auction; the contract (None: passed out)."""
        return bid_to_end(deal.dealer, lambda seat, so_far, legal: self.call(
            deal, seat, so_far, legal), calls).contract


def label_deal(deal: BankDeal, values: CallValues | None = None,
               opponents: Sequence[CallValues | None] = (), relative: bool = False,
               rubber: bool = False, extras: Extras = NO_EXTRAS,
               only: Extras = NO_EXTRAS, reading: bool = False) -> list[Row]:
    """Every decision of the deal's auction, with each honest candidate's row. With
    `opponents`, the deal's opponent is one of them (by the deal's number; None: the
    tables): the deal is bid twice, each side in turn using `values` against it, and each
    walk labels the decisions of the side using the values. `relative`: each label is
    against the players' own call, not the tables'. `rubber`: bid and valued at the
    deal's rubber score (`rubber_state`). `extras`: those classes of candidates labelled
    too (`features.EXTRAS`); `only`: just the candidates these classes of `extras` add.
    `reading`: each row ends with the decision's hand reading part (`--reading`)."""
    score = rubber_state(deal.number) if rubber else None
    if not opponents:
        return _label_walk(deal, Bidders(values, score=score), (0, 1), 0, relative, extras,
                           only, reading)[0]
    opponent = opponents[deal.number % len(opponents)]
    north_south, last = _label_walk(deal, Bidders(values, (0,), opponent, score), (0,), 0,
                                    relative, extras, only, reading)
    return north_south + _label_walk(deal, Bidders(values, (1,), opponent, score), (1,),
                                     1 + last, relative, extras, only, reading)[0]


def _label_walk(deal: BankDeal, bidders: Bidders, sides: tuple[int, ...], first: int,
                relative: bool = False, extras: Extras = NO_EXTRAS,
                only: Extras = NO_EXTRAS, reading: bool = False) -> tuple[list[Row], int]:
    """The deal bid by `bidders`, the decisions of `sides` labelled, numbered from
    `first`, each candidate (with `extras`; `only`: just those `only`'s classes add)
    against the tables' call (`relative`: the players' own), its row ending with the
    hand reading part where `reading`. And the last number where
    the rest of the candidates were offered (0: none): the rows of the same deal labelled
    without `only`'s classes are numbered so, and these must be numbered alike."""
    auction = empty_auction(deal.dealer)
    rows: list[Row] = []
    outcomes: dict[tuple[tuple[int, str], ...], float] = {}
    rubber = bidders.score

    def score(calls: list[tuple[int, Call]]) -> float:
        key = tuple((s, c.text) for s, c in calls)
        if key not in outcomes:
            outcomes[key] = outcome_ns(bidders.finish(deal, calls), deal, rubber)
        return outcomes[key]

    number, last = first, 0
    while not auction.finished:
        seat = auction.to_call()
        legal = auction.legal_texts(seat)
        calls = list(auction.calls)
        made, chosen, known = bidders.choose(deal, seat, calls, legal)
        sign = 1 if seat % 2 == 0 else -1
        # Every label is against one call, whichever call the players make (with values,
        # the auction goes on by their choice): the tables', or with `relative` the
        # players' own, the question of a round stacked on theirs.
        reference = chosen if relative else None
        offered = known.readings(reference, extras) if seat % 2 in sides else {}
        others = known.readings(reference, extras - only) if only and offered else offered
        if others:
            last = number
        readings = [action for action in offered if not only or action not in others]
        if readings:
            against = made.action if reference is None else reference
            base = score([*calls, (seat, CALL_BY_TEXT[against])]) * sign
            features = Rows(made, vulnerability(deal, rubber), reference, rubber, known,
                            reading_part if reading else None)
            for action in readings:
                other = score([*calls, (seat, CALL_BY_TEXT[action])]) * sign
                rows.append(Row(deal.number, number, action, against,
                                features.row(action),
                                swing(other - base, rubber is not None)))
        auction.call(seat, CALL_BY_TEXT[chosen])
        number += 1
    return rows, last


def _label_range(args: tuple[Path, int, int, str | None, tuple[str, ...], frozenset[int],
                             bool, bool, Extras, Extras, bool]) -> list[str]:
    (folder, first, count, model, opponents, done, relative, rubber, extras, only,
     reading) = args
    # Once per worker process, not once per range (a worker takes many ranges, and the
    # model and an opponent may be the same file).
    values = shared(Path(model)) if model else None
    against = [None if name == TABLES else shared(Path(name)) for name in opponents]
    lines: list[str] = []
    for deal in read(folder, first=first, limit=count):
        if deal.number in done:
            continue
        lines.extend(row.to_json()
                     for row in label_deal(deal, values, against, relative, rubber, extras,
                                           only, reading))
        lines.append(json.dumps({"done": deal.number}))
    return lines


def done_deals(path: Path) -> set[int]:
    if not path.exists():
        return set()
    return {json.loads(line)["done"] for line in path.read_text().splitlines()
            if line.startswith('{"done"')}


def rows_in(path: Path) -> Iterator[Row]:
    with path.open() as f:
        for line in f:
            if line.startswith('{"deal"'):
                yield Row.from_json(line)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning.rollouts")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=FOLDER)
    parser.add_argument("--model", type=str, default=None)
    parser.add_argument("--opponents", nargs="+", default=[], metavar="MODEL",
                        help=f"bid each deal against one of these (model files, or "
                             f"{TABLES!r}), by the deal's number, each side in turn "
                             "using --model; default: --model in all four seats")
    parser.add_argument("--relative", action="store_true",
                        help="label each candidate against the players' own call (with "
                             "--model, that round's), not the tables': a stacked round's data")
    parser.add_argument("--rubber", action="store_true",
                        help="bid each deal at a rubber score drawn by its number, "
                             "labels in points of the rubber: a rubber round's data")
    parser.add_argument("--slams", action="store_true",
                        help="roll out the small slams too (features.Candidates.wanted): "
                             "the data of a round trained with --slams")
    parser.add_argument("--between", action="store_true",
                        help="roll out the bids between the cheapest and game too "
                             "(features.Candidates.wanted): the data of a round trained "
                             "with --between")
    parser.add_argument("--long", action="store_true",
                        help="roll out the jumps in a long suit where no fit is known too "
                             "(features.Candidates.wanted): the data of a round trained "
                             "with --long")
    parser.add_argument("--reading", action="store_true",
                        help="end each row with the learned hand reading's means at the "
                             "decision (after the part scores with --rubber): the "
                             "data of a round that reads them")
    parser.add_argument("--only", action="append", choices=EXTRAS, default=[],
                        help="label only the candidates this class adds (with its flag "
                             "too): to add them to rows the same players labelled without it")
    parser.add_argument("--step", type=int, default=50, help="deals a job takes at a time")
    args = parser.parse_args(argv)
    if args.reading and shared_reading() is None:
        raise SystemExit("--reading: the hand reading cannot be used (its log line says why)")
    extras = extras_asked(args)
    only = frozenset(args.only)
    if not only <= extras:
        raise SystemExit("--only names a class of candidates not offered ("
                         + ", ".join(f"--{extra}" for extra in EXTRAS) + ")")
    for name in args.opponents:
        if name != TABLES and load(Path(name)) is None:
            raise SystemExit(f"the opponent {name} cannot be used")
    have = done_deals(args.out)
    todo = [first for first in range(args.first, args.first + args.deals, args.step)
            if not all(n in have for n in range(first, first + args.step))]
    with args.out.open("a") as out, ProcessPoolExecutor(
            max_workers=args.jobs, initializer=os.nice, initargs=(5,)) as pool:
        work = [(args.folder, first, min(args.step, args.first + args.deals - first),
                 args.model, tuple(args.opponents), frozenset(have), args.relative,
                 args.rubber, extras, only, args.reading)
                for first in todo]
        for lines in pool.map(_label_range, work):
            out.write("".join(line + "\n" for line in lines))
            out.flush()
    print(f"{len(done_deals(args.out))} deals labelled in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

