"""Bid the first deal of each seed with four computer players and write each auction as
one JSON line: the half of the bidding benchmark that runs the code under test.

    python PATH/bench/bidding_auctions.py --first-seed S --deals N [--kind K] [--think T]
        [--duplicate]
    python PATH/bench/bidding_auctions.py --serve-calls

It needs only `bot` (from the current directory, put first on the path), so the bidding
benchmark runs it from a temporary worktree of another commit (`--against REV`) and
scores both commits' auctions on the same double-dummy tables. `--serve-calls` answers
single calls instead (`serve_calls`): the rubber benchmark seats that commit's players at
its tables beside this checkout's.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from bot.ai import Budget


@dataclass(frozen=True, slots=True)
class Auction:
    """One deal's auction. `contract` is (level, strain 0..4 C D H S NT, declarer 0..3 N E
    S W, doubled 0..2), None when passed out; `cpu` each call's process CPU seconds."""

    seed: int
    pbn: str  # "N:..." the four hands
    dealer: int
    vulnerable: tuple[bool, bool]
    calls: tuple[tuple[int, str], ...]
    contract: tuple[int, int, int, int] | None
    cpu: tuple[float, ...]

    def to_json(self) -> str:
        return json.dumps({"seed": self.seed, "pbn": self.pbn,
                           "dealer": self.dealer, "vulnerable": self.vulnerable,
                           "calls": self.calls, "contract": self.contract, "cpu": self.cpu})

    @classmethod
    def from_json(cls, line: str) -> Auction:
        d: dict[str, Any] = json.loads(line)
        contract = d["contract"]
        return cls(int(d["seed"]), d["pbn"],
                   int(d["dealer"]), (bool(d["vulnerable"][0]), bool(d["vulnerable"][1])),
                   tuple((int(s), str(c)) for s, c in d["calls"]),
                   None if contract is None else (int(contract[0]), int(contract[1]),
                                                  int(contract[2]), int(contract[3])),
                   tuple(float(t) for t in d["cpu"]))


def match_options(duplicate: bool) -> dict[str, object]:
    """A rubber (its first deal at love), or duplicate boards (the first is board 1:
    North deals, nobody vulnerable), as daily deals and challenges are played."""
    return {"boards": 1} if duplicate else {}


def bid(seed: int, kind: str | None, think: float, duplicate: bool = False) -> Auction:
    """Four players of `kind` bid the first deal of seed `seed`'s match (`match_options`);
    each call gets `think` seconds of the thinking thread's CPU (0: no budget, the rule
    tables alone)."""
    from bot.ai import make_player
    from bot.games import create
    from bot.games.cards import Seat, format_deal

    # Older commits (before per-call budgets and kinds) are compared at --think 0.
    budget_class = getattr(importlib.import_module("bot.ai"), "Budget", None)
    try:  # older commits have no served round trip (and their players pickled)
        served = importlib.import_module("bot.tables.thinking").think_as_served
    except (ImportError, AttributeError):
        served = None
    game = create("bridge", options=match_options(duplicate), seed=seed)
    players = [make_player("bridge", seed * 4 + seat, kind) if kind  # type: ignore[call-arg,unused-ignore]
               else make_player("bridge", seed * 4 + seat) for seat in range(4)]
    deal_no = game.view(None).deal_no
    record = game.deal_record()
    calls: list[tuple[int, str]] = []
    cpu: list[float] = []
    while True:
        view = game.view(None)
        if view.phase != "bidding" or view.deal_no != deal_no:
            break
        seat = next(iter(game.to_act()))
        start = time.process_time()  # the solver's threads included
        if budget_class is None:
            action = players[seat].choose(game.view(seat), game.legal(seat))
        else:
            budget = budget_class(think, clock=time.thread_time) if think > 0 else None
            if served is None:
                action = players[seat].choose(game.view(seat), game.legal(seat), budget)
            else:  # as the bot serves it: the player's round trip through a worker
                action, players[seat] = served(players[seat], game.view(seat),
                                               game.legal(seat), budget)
        cpu.append(time.process_time() - start)
        game.apply(seat, action)
        calls.append((seat, action))
    view = game.view(None)
    c = view.contract if view.deal_no == deal_no else None
    contract = None if c is None else (c.level, int(c.strain), c.declarer, c.doubled)
    pbn = format_deal({Seat(i): list(h) for i, h in enumerate(record.hands)})
    return Auction(seed, pbn, int(record.dealer),
                   (bool(record.vulnerable[0]), bool(record.vulnerable[1])),
                   tuple(calls), contract, tuple(cpu))


def call_budget(think: float) -> Budget | None:
    """A call's budget of `think` seconds (None at 0: no thinking) on the thinking thread's
    CPU clock. Both sides of a bench that seats two commits' bidders (`serve_calls` in the
    other commit's process, this checkout's in the bench's) budget with this, so that
    other work on a shared machine changes neither side's thinking."""
    from bot.ai import Budget
    return Budget(think, clock=time.thread_time) if think > 0 else None


def serve_calls(requests: Iterable[str], answer: TextIO) -> None:
    """Each request (a JSON line: the player's seed, hand, seat, calls, legal calls,
    vulnerability, the rubber's score or null on a duplicate board, deal number, budget in
    seconds) answered with the call of this code's rubber-aware default bidder
    (`SampledBidding`), a JSON line."""
    from bot.ai.bridge.bidding import Score
    from bot.ai.bridge.bidding.simulation import SampledBidding
    from bot.games.bridge_auction import CALL_BY_TEXT
    from bot.games.cards import Card

    for line in requests:
        r: dict[str, Any] = json.loads(line)
        think = float(r["think"])
        budget = call_budget(think)
        score = None  # a duplicate board
        if r["score"] is not None:
            games, parts = r["score"]
            score = Score((int(games[0]), int(games[1])), (int(parts[0]), int(parts[1])))
        action = SampledBidding(int(r["seed"])).call(
            [Card.parse(c) for c in r["hand"]], int(r["seat"]),
            [(int(s), CALL_BY_TEXT[c]) for s, c in r["calls"]], list(r["legal"]),
            (bool(r["vulnerable"][0]), bool(r["vulnerable"][1])), score,
            int(r["deal_no"]), budget)
        answer.write(json.dumps(action) + "\n")
        answer.flush()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bidding_auctions.py")
    parser.add_argument("--serve-calls", action="store_true",
                        help="answer call requests on standard input (`serve_calls`)")
    parser.add_argument("--first-seed", type=int)
    parser.add_argument("--deals", type=int)
    parser.add_argument("--kind", default=None)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--duplicate", action="store_true",
                        help="bid each seed's first duplicate board, not a rubber's first deal")
    args = parser.parse_args(argv)
    if args.serve_calls:
        serve_calls(sys.stdin, sys.stdout)
        return 0
    if args.first_seed is None or args.deals is None:
        parser.error("--first-seed and --deals are needed to bid deals")
    for seed in range(args.first_seed, args.first_seed + args.deals):
        print(bid(seed, args.kind, args.think, args.duplicate).to_json(), flush=True)
    return 0


if __name__ == "__main__":
    # Run as a script from another checkout: its `bot`, not this file's folder's modules.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [os.getcwd()] + [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.exit(main(sys.argv[1:]))
