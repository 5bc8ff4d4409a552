"""The learned hand reading: the share of layouts that fit the calls, before and after.

    python -m bench.strength bridge-reading [--deals N] [--first-seed S] [--layouts K]
        [--model FILE]

Fresh deals, dealt here from `random.Random(f"reading-bench:{seed}")` (checked to be none
of the learning bank's), are bid by our four players as served at no thinking budget (the
tables with the learned call values). Two kinds of point are measured:

- the bidding simulation's decisions (a captain's call it would settle: `worth_settling`):
  `simulation.deal_layouts` deals K layouts of the three other hands, by the auction's
  ranges alone (before) and weighed by the hand reading (after);
- the opening lead: the leader's layouts as card play deals them (`layouts.sample` with
  the ranges and the calls' check, as `advanced.decision` builds them), before and after.

A layout fits where every hidden hand would have made its seat's calls by the system
(`advanced.auction_check`); partner's alone is counted too. Printed: the shares with the
layouts counted and Wilson 95% intervals (layouts of one point are not independent: the
points are printed too), the reading's mean absolute error of the other hands' HCP and
lengths against the ranges' midpoint and the mean given the observer's hand alone, and
the CPU of a reading (the model's features, inference and spreads; the system's reading of
the auction, which a decision has already, is not counted).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.ai.bridge.advanced import _auction_check
from bot.ai.bridge.bidding import read_auction
from bot.ai.bridge.bidding.context import empty_auction
from bot.ai.bridge.bidding.rules import Hand
from bot.ai.bridge.bidding.simulation import deal_layouts, worth_settling
from bot.ai.bridge.bidding.system import context_of, decide
from bot.ai.bridge.learning import bank, reading, values
from bot.ai.bridge.learning.rollouts import Bidders
from bot.ai.core.hand_range import ANY_HAND
from bot.ai.core.layouts import Knowledge, sample
from bot.games.bridge_auction import CALL_BY_TEXT, Call
from bot.games.cards import FULL_DECK, Card

from .intervals import wilson_text
from .strength_bridge_bidding import fresh_seed
from .strength_bridge_leads import percentiles


@dataclass
class Tally:
    """Layouts counted at one kind of point, before and after the reading."""

    points: int = 0
    layouts: dict[str, int] = field(default_factory=lambda: {"before": 0, "after": 0})
    all_fit: dict[str, int] = field(default_factory=lambda: {"before": 0, "after": 0})
    partner_fits: dict[str, int] = field(default_factory=lambda: {"before": 0, "after": 0})

    def count(self, when: str, observer: int, hands: list[tuple[tuple[Card, ...], ...]],
              calls: tuple[tuple[int, Call], ...]) -> None:
        agrees = _auction_check(calls, None)
        partner = (observer + 2) % 4
        for layout in hands:
            self.layouts[when] += 1
            self.all_fit[when] += all(agrees(s, layout[s]) for s in range(4) if s != observer)
            self.partner_fits[when] += agrees(partner, layout[partner])

    def lines(self, name: str) -> list[str]:
        out = [f"{name}: {self.points} points"]
        for when in ("before", "after"):
            n = self.layouts[when]
            out.append(f"  {when:6} all hidden hands fit {wilson_text(self.all_fit[when], n)}; "
                       f"partner's {wilson_text(self.partner_fits[when], n)}")
        return out


@dataclass
class Errors:
    """Absolute errors of the other hands' HCP and lengths, by estimate."""

    hcp: dict[str, list[float]] = field(default_factory=dict)
    lengths: dict[str, list[float]] = field(default_factory=dict)

    def add(self, estimate: str, truth: list[float], guess: list[float]) -> None:
        self.hcp.setdefault(estimate, []).append(abs(truth[0] - guess[0]))
        self.lengths.setdefault(estimate, []).extend(
            abs(t - g) for t, g in zip(truth[1:], guess[1:], strict=True))


def _deal(seed: int) -> tuple[list[list[Card]], int, tuple[bool, bool]]:
    rng = random.Random(f"reading-bench:{seed}")
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hands = [[c for c in FULL_DECK if c in set(deck[i * 13:i * 13 + 13])] for i in range(4)]
    return hands, seed % 4, (seed % 3 == 1, seed % 5 in (1, 3))


def _observe(errors: Errors, model: reading.HandReading, hands: list[list[Card]], seat: int,
             calls: tuple[tuple[int, Call], ...], vulnerable: tuple[bool, bool],
             times: list[float]) -> reading.Reading:
    ctx = context_of(seat, calls)  # the system's reading of the auction (a decision has it)
    start = time.thread_time()
    read = model.read(Hand.of(hands[seat]), ctx, vulnerable)
    times.append(time.thread_time() - start)
    for rel in (1, 2, 3):
        other = (seat + rel) % 4
        truth = reading.measures(hands[other])
        shown = ctx.shown[other]
        mid = [(shown.min_hcp + min(shown.max_hcp, 37)) / 2,
               *((lo + hi) / 2 for lo, hi in zip(shown.min_len, shown.max_len, strict=True))]
        errors.add("reading", truth, list(read.mean[rel - 1]))
        errors.add("ranges' midpoint", truth, mid)
        errors.add("hand alone", truth, list(read.alone_mean))
    return read


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength bridge-reading")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--layouts", type=int, default=20, help="layouts dealt at a point")
    parser.add_argument("--model", type=Path, default=reading.DEFAULT)
    parser.add_argument("--temper", type=float, default=reading.TEMPER,
                        help="the weight's strength (reading.TEMPER)")
    args = parser.parse_args(argv)
    reading.TEMPER = args.temper
    model = reading.load(args.model)
    if model is None:
        print(f"no usable hand reading at {args.model}")
        return 1
    first = fresh_seed() if args.first_seed is None else args.first_seed
    seeds = range(first, first + args.deals)
    print(f"hand reading {args.model.name} (temper {reading.TEMPER}); {args.layouts} layouts "
          f"a point; deals random.Random('reading-bench:SEED') for seeds "
          f"{seeds.start}..{seeds.stop - 1} (--first-seed {first} repeats them)")
    learned = {bank.hands_key(d.hands) for d in bank.read()}
    inference: list[float] = []
    forest = model.forest

    class TimedForest:  # the forest's own part of a reading: its descent of the trees
        features = forest.features

        def leaves(self, rows: object) -> object:
            start = time.thread_time()
            out = forest.leaves(rows)  # type: ignore[arg-type]
            inference.append(time.thread_time() - start)
            return out

    model = replace(model, forest=TimedForest())  # type: ignore[arg-type]
    bidders = Bidders(values.shared())
    simulation, lead, errors = Tally(), Tally(), Errors()
    times: list[float] = []
    for seed in seeds:
        hands, dealer, vulnerable = _deal(seed)
        hand_tuple = tuple(tuple(h) for h in hands)
        if bank.hands_key(hand_tuple) in learned:
            raise SystemExit(f"seed {seed}'s deal is in the learning bank: choose other seeds")
        deal = bank.BankDeal(-1, hand_tuple, dealer, vulnerable, ())
        auction = empty_auction(dealer)
        while not auction.finished:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            calls = tuple(auction.calls)
            made = decide(hands[seat], seat, calls, legal)
            if not made.by_rule and worth_settling(made.ctx, made.action):
                read = _observe(errors, model, hands, seat, calls, vulnerable, times)
                simulation.points += 1
                for when, weigh in (("before", None), ("after", read.log_weights)):
                    rng = random.Random(f"reading-bench:{seed}:{len(calls)}")
                    dealt = deal_layouts(made.ctx, hands[seat], args.layouts, rng, weigh)
                    simulation.count(when, seat, dealt.hands, calls)
            auction.call(seat, CALL_BY_TEXT[bidders.call(deal, seat, calls, legal)])
        contract = auction.contract
        if contract is None:
            continue
        calls = tuple(auction.calls)
        leader = (contract.declarer + 1) % 4
        read = _observe(errors, model, hands, leader, calls, vulnerable, times)
        lead.points += 1
        ranges = tuple(ANY_HAND if r.empty else r for r in read_auction(dealer, calls))
        known: list[tuple[Card, ...] | None] = [None] * 4
        known[leader] = tuple(hands[leader])
        for when, weigh in (("before", None), ("after", read.log_weights)):
            know = Knowledge(known=tuple(known),
                             unseen=tuple(c for c in FULL_DECK if c not in hands[leader]),
                             sizes=(13, 13, 13, 13), ranges=ranges,
                             agrees=_auction_check(calls, None), weigh=weigh)
            rng = random.Random(f"reading-bench:{seed}:lead")
            lead.count(when, leader, sample(know, args.layouts, rng).hands, calls)
    print(f"none of the {len(seeds)} deals is among the {len(learned)} of the learning bank")
    print("share of layouts whose hidden hands all fit their calls (and partner's alone)")
    for line in (*simulation.lines("bidding simulation's decisions (ranges only before)"),
                 *lead.lines("opening lead (ranges and the calls' check before)")):
        print(line)
    print("mean absolute error of the other hands, at those points: HCP / a suit's length")
    for estimate in errors.hcp:
        print(f"  {estimate:17} {statistics.fmean(errors.hcp[estimate]):6.3f} / "
              f"{statistics.fmean(errors.lengths[estimate]):5.3f} "
              f"({len(errors.hcp[estimate])} hands)")
    print("CPU of a reading (the model's features, inference and spreads, once a decision): "
          f"{percentiles([t * 1000 for t in times], unit=' ms', digits=2)}")
    print("the inference alone (the forests' descent), CPU a reading: "
          f"{percentiles([t * 1000 for t in inference], unit=' ms', digits=2)}")
    return 0
