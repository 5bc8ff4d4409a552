"""Rubber bridge: the rubber-aware bidders against the same bidders bidding as at duplicate.

    python -m bench.strength bridge-rubber [--rubbers 200] [--first-seed S] [--think 0]
        [--max-deals 40] [--against REV]

Each seed `s` is a rubber of fresh deals (deal k of rubber s is the same wherever it is
played; the first dealer is drawn from the seed, the deal passes clockwise). Every rubber
is played twice on the same deals: the new players (rubber-aware: they read the part
scores and games won, `bot.ai.bridge.bidding.Score`) North-South against the previous ones
(the same system bidding every deal as a duplicate board) East-West, then the seats
switched. `--against REV` seats commit REV's rubber-aware players as the previous ones
instead (its `bot` exported as `bench.strength bridge-bidding --against` does, each of
its calls answered by a subprocess running that code, `bidding_auctions.serve_calls`).
The auction is bid by the four players; the contract is scored from declarer's
double-dummy tricks (each deal's trick table solved once and shared by both ways) on a
rubber sheet (`bot.games.bridge_rubber`; honours left out) until a side wins two games
(`--max-deals` deals at most: then the rubber is stopped and scored unfinished, as the
Laws say). Passed-out deals are thrown in and the next dealer deals.

Printed: the seeds; per rubber, the new players' points minus the previous players'
(the mean of the two ways) with a normal 95% interval over rubbers; the same per deal;
and for each kind of player, the share of deals where the declaring side had a part score
and bid a contract completing its game below the full game (2♥ with 70 below), or a
contract at the full game that a lower level would have completed, on which it stopped at
the lowest level that completes game (above the opponents' last bid), with a Wilson 95%
interval. `--think 0` bids by the rule tables alone; a budget in seconds runs the
simulation of close calls (`SampledBidding`) on the thinking thread's CPU clock.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from endplay.dds import calc_dd_table
from endplay.types import Deal, Player

from bot.ai import Budget
from bot.ai.bridge.bidding import Score, explain_calls
from bot.ai.bridge.bidding.context import Caller, bid_to_end
from bot.ai.bridge.bidding.simulation import SampledBidding
from bot.games.bridge_auction import Auction, Call, Contract
from bot.games.bridge_rubber import RubberScorer
from bot.games.bridge_scoring import GAME_POINTS, trick_score
from bot.games.cards import FULL_DECK, Card, Seat, format_deal

from .bidding_auctions import call_budget
from .intervals import mean_half, wilson_text
from .strength_bridge_bidding import DENOMS, exported

Hands = tuple[tuple[Card, ...], ...]


class Bidder(Protocol):
    def call(self, hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
             legal: Sequence[str], vulnerable: tuple[bool, bool], score: Score | None,
             deal_no: int, budget: Budget | None = None) -> str: ...


# The previous players: a bidder for a player's seed.
Previous = Callable[[int], Bidder]


class Served:
    """A rubber-aware bidder of another commit, its calls answered by a subprocess
    (`bidding_auctions.serve_calls`); `think` is its budget per call."""

    def __init__(self, server: subprocess.Popen[str], seed: int, think: float) -> None:
        self.server, self.seed, self.think = server, seed, think

    def call(self, hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
             legal: Sequence[str], vulnerable: tuple[bool, bool], score: Score | None,
             deal_no: int, budget: Budget | None = None) -> str:
        assert self.server.stdin is not None and self.server.stdout is not None
        request = {"seed": self.seed, "hand": [c.text for c in hand], "seat": seat,
                   "calls": [(s, c.text) for s, c in calls], "legal": list(legal),
                   "vulnerable": vulnerable,
                   "score": None if score is None else [score.games, score.parts],
                   "deal_no": deal_no, "think": self.think}
        self.server.stdin.write(json.dumps(request) + "\n")
        self.server.stdin.flush()
        answer = self.server.stdout.readline()
        if not answer:
            raise RuntimeError("the previous commit's bidder stopped answering" + (
                " (a duplicate board: commits before 59af7eb answer only at a rubber)"
                if score is None else ""))
        action: str = json.loads(answer)
        return action


@contextmanager
def previous_at(rev: str, think: float) -> Iterator[Previous]:
    """Commit `rev`'s rubber-aware players, bidding in a subprocess run from its `bot`."""
    worker = Path(__file__).resolve().parent / "bidding_auctions.py"
    with exported(rev) as folder, subprocess.Popen(
            [sys.executable, str(worker), "--serve-calls"], cwd=folder,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as server:
        try:
            yield lambda seed: Served(server, seed, think)
        finally:
            assert server.stdin is not None
            server.stdin.close()


def duplicate_minded(seed: int) -> Bidder:
    """The default previous players: this checkout's, bidding every deal as a board."""
    return SampledBidding(seed, rubber_aware=False)


def deal_of(seed: int, k: int) -> Hands:
    """Deal `k` (from 0) of rubber `seed`: 13 cards to each of N, E, S, W."""
    cards = list(FULL_DECK)
    random.Random(f"rubber-bench:{seed}:{k}").shuffle(cards)
    return tuple(tuple(cards[13 * i:13 * i + 13]) for i in range(4))


class Tricks:
    """Each deal's double-dummy trick table, solved once: `[strain][declarer]`; with a
    `cache` file, kept there across runs (a deal's table does not depend on the bidding,
    so runs on the same seeds share it)."""

    def __init__(self, cache: Path | None = None) -> None:
        self.tables: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}
        self.cache = cache
        if cache is not None and cache.exists():
            for key, table in json.loads(cache.read_text()).items():
                seed, k = key.split(":")
                self.tables[(int(seed), int(k))] = tuple(tuple(row) for row in table)

    def save(self) -> None:
        if self.cache is not None:
            self.cache.write_text(json.dumps({f"{s}:{k}": t for (s, k), t
                                              in self.tables.items()}))

    def of(self, seed: int, k: int, hands: Hands) -> tuple[tuple[int, ...], ...]:
        key = (seed, k)
        if key not in self.tables:
            deal = Deal(format_deal({Seat(i): list(h) for i, h in enumerate(hands)}))
            table = calc_dd_table(deal)
            self.tables[key] = tuple(tuple(table[DENOMS[s], Player(p)] for p in range(4))
                                     for s in range(5))
        return self.tables[key]


def full_game(contract: Contract) -> int:
    return 3 if contract.strain == 4 else 4 if contract.strain >= 2 else 5


def completing_level(contract: Contract, part: int) -> int:
    """The lowest level of the contract's strain whose trick score completes game."""
    return next(level for level in range(1, 8)
                if part + trick_score(level, contract.strain) >= GAME_POINTS
                or level == full_game(contract))


@dataclass
class Way:
    """One playing of a rubber: points per side, deals played, part-score stops."""

    points: tuple[int, int] = (0, 0)
    deals: int = 0
    # per kind ("new", "old"): (stopped at the completing level, such deals)
    stops: dict[str, list[int]] = field(default_factory=lambda: {"new": [0, 0],
                                                                 "old": [0, 0]})
    # the rubber-aware side's deals that went past the completing level (`--list`)
    missed: list[str] = field(default_factory=list)


def stop_check(auction: Auction, contract: Contract, part: int) -> bool | None:
    """None when the deal does not count (no part score, a slam, or a contract that does
    not complete game); else whether the contract is the lowest completing level above
    the opponents' last bid."""
    if part == 0 or contract.level >= 6:
        return None
    need = completing_level(contract, part)
    if need >= full_game(contract) or contract.level < need:
        return None
    side = contract.declarer % 2
    theirs = [c.bid for s, c in auction.calls if c.bid is not None and s % 2 != side]
    floor = 1
    if theirs:
        top = max(theirs)
        floor = top.level + (0 if contract.strain > top.strain else 1)
    return contract.level <= max(need, floor)


def missed_stop(seed: int, k: int, hands: Hands, auction: Auction, contract: Contract,
                score: Score) -> str:
    """A deal where the side with the part score went past the completing level: the
    hands, the score, and each call with the rubber-aware reader's explanation."""
    side = contract.declarer % 2
    lines = [f"seed {seed} deal {k}: {contract.label} by {'NESW'[contract.declarer]}, "
             f"{score.parts[side]} below (games {score.games}), completing level "
             f"{completing_level(contract, score.parts[side])}"]
    lines += [f"  {'NESW'[i]} {' '.join(str(c) for c in hand)}"
              for i, hand in enumerate(hands)]
    says = explain_calls(auction.calls, score)
    lines += [f"  {'NESW'[s]} {c.text:9} {text}"
              for (s, c), text in zip(auction.calls, says, strict=True)]
    return "\n".join(lines)


def seated(bidders: list[Bidder], hands: Hands, score: Score, k: int, think: float
           ) -> Caller:
    """Deal `k`'s calls by the four `bidders`, at the rubber's `score`."""
    vulnerable = (score.vulnerable(0), score.vulnerable(1))

    def call(seat: int, calls: Sequence[tuple[int, Call]], legal: Sequence[str]) -> str:
        action = bidders[seat].call(hands[seat], seat, calls, legal, vulnerable, score, k,
                                    call_budget(think))
        # As the bot serves it: this checkout's bidder crosses to a worker and back
        # pickled (the other commit's answers from its own process).
        if isinstance(bidders[seat], SampledBidding):
            bidders[seat] = pickle.loads(pickle.dumps(bidders[seat]))
        return action

    return call


def play_rubber(seed: int, new_side: int, tricks: Tricks, think: float,
                max_deals: int, previous: Previous = duplicate_minded) -> Way:
    """The rubber of `seed` with the rubber-aware players on `new_side` (0 N-S, 1 E-W)
    and the `previous` ones on the other side."""
    rng = random.Random(f"rubber-bench-dealer:{seed}")
    dealer = rng.randrange(4)
    bidders: list[Bidder] = [SampledBidding(seed * 4 + seat) if seat % 2 == new_side
                             else previous(seed * 4 + seat) for seat in range(4)]
    sheet = RubberScorer()
    way = Way()
    for k in range(max_deals):
        rubber = sheet.current
        if rubber.finished:
            break
        hands = deal_of(seed, k)
        score = Score((rubber.games_won(0), rubber.games_won(1)),
                      (rubber.part_score(0), rubber.part_score(1)))
        auction = bid_to_end(dealer, seated(bidders, hands, score, k, think))
        way.deals += 1
        dealer = (dealer + 1) % 4
        contract = auction.contract
        if contract is None:
            continue
        side = contract.declarer % 2
        taken = tricks.of(seed, k, hands)[contract.strain][contract.declarer]
        checked = stop_check(auction, contract, score.parts[side])
        if checked is not None:
            kind = "new" if side == new_side else "old"
            way.stops[kind][0] += int(checked)
            way.stops[kind][1] += 1
            if kind == "new" and not checked:
                way.missed.append(missed_stop(seed, k, hands, auction, contract, score))
        sheet.record_deal(k + 1, contract, side, taken, None)
    if not sheet.current.finished:
        sheet.stop(way.deals)
    total = sheet.current.total(0), sheet.current.total(1)
    way.points = (total[0], total[1])
    return way


def interval(values: Sequence[float]) -> str:
    mean, half = mean_half(values)
    return f"{mean:+.1f} (95% CI {mean - half:+.1f} to {mean + half:+.1f}, n={len(values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-rubber")
    parser.add_argument("--rubbers", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=None,
                        help="first rubber's seed (default: drawn anew and printed)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="budget per call in seconds (0: the rule tables alone)")
    parser.add_argument("--max-deals", type=int, default=40)
    parser.add_argument("--cache", type=Path, default=None,
                        help="a file keeping the deals' double-dummy tables across runs")
    parser.add_argument("--list", action="store_true",
                        help="print the deals where the rubber-aware side went past the "
                             "level completing its game")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="the previous players are commit REV's rubber-aware ones "
                             "(default: this checkout's bidding every deal as a board)")
    args = parser.parse_args(argv)
    if args.against is None:
        return run(args, duplicate_minded, "previous (duplicate-minded)")
    with previous_at(args.against, args.think) as previous:
        return run(args, previous, f"commit {args.against}")


def run(args: argparse.Namespace, previous: Previous, previous_name: str) -> int:
    first = args.first_seed if args.first_seed is not None \
        else random.SystemRandom().randrange(10**6, 10**9)
    seeds = range(first, first + args.rubbers)
    print(f"bridge-rubber: {args.rubbers} rubbers, seeds {seeds.start}..{seeds.stop - 1}, "
          f"each played both ways; --think {args.think:g}; at most {args.max_deals} deals; "
          f"new: this checkout, rubber-aware; previous: {previous_name}")
    tricks = Tricks(args.cache)
    per_rubber: list[float] = []
    per_deal: list[float] = []
    stops = {"new": [0, 0], "old": [0, 0]}
    rubbers_won = [0, 0]  # way A then B: the new side's rubbers won
    start = time.monotonic()
    for seed in seeds:
        diffs = []
        deals = 0
        for new_side in (0, 1):
            way = play_rubber(seed, new_side, tricks, args.think, args.max_deals, previous)
            diffs.append(way.points[new_side] - way.points[1 - new_side])
            rubbers_won[new_side] += int(way.points[new_side] > way.points[1 - new_side])
            deals += way.deals
            if args.list:
                for text in way.missed:
                    print(text)
            for kind in stops:
                stops[kind][0] += way.stops[kind][0]
                stops[kind][1] += way.stops[kind][1]
        per_rubber.append(statistics.fmean(diffs))
        per_deal.append(sum(diffs) / max(1, deals))
    elapsed = time.monotonic() - start
    tricks.save()
    print(f"new minus previous, points a rubber (mean of both ways): {interval(per_rubber)}")
    print(f"new minus previous, points a deal: {interval(per_deal)}")
    print(f"rubbers the new players won: N-S {rubbers_won[0]}/{args.rubbers}, "
          f"E-W {rubbers_won[1]}/{args.rubbers}")
    for kind, label in (("new", "rubber-aware"), ("old", previous_name)):
        k, n = stops[kind]
        print(f"stopped at the level completing game with a part score ({label}): "
              f"{wilson_text(k, n)}")
    print(f"{len(tricks.tables)} deals solved; {elapsed:.0f} s")
    return 0
