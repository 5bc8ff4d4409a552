"""Hand reading learned from self-play: what each hidden hand holds, for any auction so far.

    python -m bot.ai.bridge.learning.reading make --first 0 --deals 3000 --out ROWS.npz
    python -m bot.ai.bridge.learning.reading train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/hand_reading.npz

`make`: on bank deals, our four players bid as the bot serves them at no thinking budget
(the tables with the shipped learned call values: `rollouts.Bidders`). At every point of
the auction (before the first call and after each call) and for each observer seat, a row
is the observer's hand and the auction as the system reads it from that seat
(`features.hand_part`, `features.auction_part`: the call values' own pieces), and its
targets the three other hands' high-card points and suit lengths (LHO, partner, RHO).

`train`: a LightGBM regressor per target (15 of them, small) learns the mean; every
`--held-out`th deal is kept out, and the held-out residuals give each target a spread
per number of calls so far. The forests are kept as one numpy forest (`forest.joined`:
one descent a reading) with a JSON card beside it: the inputs and targets, the spreads,
the command, the bank deals, the rows, and the held-out mean absolute errors against two
baselines (the ranges' midpoint, and the mean given the observer's hand alone).

At play (`HandReading.read`, once per decision) a reading gives each hidden seat a mean
and spread of its points and lengths. A hand's log-weight (`Reading.log_weight`) is the
Gaussian log-density of its five numbers under the reading less that under the deal alone
(the mean and spread of a hand dealt from the cards the observer cannot see): layouts are
dealt from (roughly) the deal alone, cut to the auction's ranges, so the ratio is what
the calls add. A Gaussian, not a distribution per value: the model learns means cheaply
(one regressor a number, ~1 ms a reading), and a mean and a spread are what a hand's
points and lengths need to tell a likely layout from an unlikely one; the five numbers
are taken as independent (their sum of lengths is 13, so shape is counted a little too
strongly: `TEMPER` would soften it).
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import math
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bot.games.bridge_auction import CALL_BY_TEXT, Call
from bot.games.bridge_view import BridgeView
from bot.games.cards import FULL_DECK, Card

from ..bidding.context import Context, empty_auction
from ..bidding.rubber import Score
from ..bidding.rules import Hand
from ..bidding.system import context_of
from .bank import FOLDER, BankDeal, read
from .features import AUCTION_NAMES, HAND_NAMES, auction_part, hand_part
from .forest import Forest, from_lightgbm, joined
from .loading import logged, once
from .rollouts import Bidders
from .values import MODELS, CallValues, card_path
from .values import shared as shared_values

log = logging.getLogger(__name__)

DEFAULT = MODELS / "hand_reading.npz"
INPUTS: tuple[str, ...] = (*HAND_NAMES, *AUCTION_NAMES)
MEASURES = ("hcp", "len_c", "len_d", "len_h", "len_s")
SEATS = ("lho", "partner", "rho")  # relations 1, 2, 3 to the observer
TARGETS: tuple[str, ...] = tuple(f"{who}_{what}" for who in SEATS for what in MEASURES)
BUCKETS = 9  # spreads by calls so far: 0 .. 7, and 8 or more
MIN_SPREAD = (1.0, 0.4, 0.4, 0.4, 0.4)  # a reading is never surer than this (HCP, lengths)
# The weight's strength: 1 trusts the five numbers as independent (four lengths that add
# to 13 count shape a little too strongly). Chosen by the bench (`bench.strength
# bridge-reading --temper`) on seeds 100..159, not those of the figures: at the bidding
# simulation's decisions 1.0 kept 56.6% of layouts fitting the calls, 0.5 kept 52.9%.
TEMPER = 1.0


def measures(cards: Sequence[Card]) -> list[float]:
    """A hand's high-card points and its lengths (clubs, diamonds, hearts, spades)."""
    out = [0.0, 0.0, 0.0, 0.0, 0.0]
    for card in cards:
        out[0] += max(0, card.rank - 10)
        out[1 + card.suit] += 1
    return out


def observed(facts: Hand, ctx: Context, vulnerable: tuple[bool, bool]) -> list[float]:
    """What the observer (`ctx.seat`, holding `facts`) knows, as the model reads it."""
    return hand_part(facts) + auction_part(ctx, vulnerable)


def dealt_alone(cards: Sequence[Card]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The mean and spread of each of a hidden hand's five numbers given the observer's
    13 cards alone (13 cards drawn from the 39 unseen, without replacement)."""
    mine = set(cards)
    unseen = [c for c in FULL_DECK if c not in mine]
    n, drawn = len(unseen), 13
    means: list[float] = []
    spreads: list[float] = []
    for k in range(5):
        values = [(max(0, c.rank - 10) if k == 0 else float(c.suit == k - 1)) for c in unseen]
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / n
        means.append(drawn * mean)
        spreads.append(math.sqrt(max(drawn * var * (n - drawn) / (n - 1), 0.25)))
    return tuple(means), tuple(spreads)


@dataclass(frozen=True, slots=True)
class Reading:
    """One observer's reading of the three other hands (by relation LHO, partner, RHO):
    the mean and spread of each hand's points and lengths, and the same given the
    observer's cards alone."""

    seat: int
    mean: tuple[tuple[float, ...], ...]
    spread: tuple[tuple[float, ...], ...]
    alone_mean: tuple[float, ...]
    alone_spread: tuple[float, ...]

    def log_weight(self, seat: int, cards: Sequence[Card]) -> float:
        """How much likelier the calls make `cards` as `seat`'s hand as dealt (a log
        ratio, up to a constant per seat; 0 for the observer's own seat)."""
        rel = (seat - self.seat) % 4
        if rel == 0:
            return 0.0
        mean, spread = self.mean[rel - 1], self.spread[rel - 1]
        total = 0.0
        for k, x in enumerate(measures(cards)):
            base = self.alone_spread[k]
            s = min(spread[k], base)  # never wider than the deal alone: the ratio stays bounded
            z = (x - mean[k]) / s
            z0 = (x - self.alone_mean[k]) / base
            total += 0.5 * (z0 * z0 - z * z)
        return TEMPER * total


@dataclass(frozen=True, slots=True)
class HandReading:
    """The loaded model: one forest holding each target's trees in turn, and the spreads."""

    forest: Forest
    trees: tuple[int, ...]  # per target, how many trees (in TARGETS order)
    spread: tuple[tuple[float, ...], ...]  # per target, per bucket of calls so far

    def means(self, rows: Sequence[Sequence[float]]) -> Any:
        """Each row's predicted mean of each target (rows by targets)."""
        leaves = self.forest.leaves(rows)
        starts = np.cumsum([0, *self.trees[:-1]])
        return np.add.reduceat(leaves, starts, axis=1)

    def read(self, facts: Hand, ctx: Context, vulnerable: tuple[bool, bool]) -> Reading:
        """`ctx.seat`'s reading of the other hands, holding `facts` (its hand as dealt)."""
        mean = [float(v) for v in self.means([observed(facts, ctx, vulnerable)])[0]]
        bucket = min(len(ctx.calls), BUCKETS - 1)
        spread = [self.spread[t][bucket] for t in range(len(TARGETS))]
        alone_mean, alone_spread = dealt_alone(facts.cards)
        return Reading(ctx.seat, tuple(tuple(mean[i * 5:i * 5 + 5]) for i in range(3)),
                       tuple(tuple(spread[i * 5:i * 5 + 5]) for i in range(3)),
                       alone_mean, alone_spread)


def _make(model: Path) -> HandReading:
    card = json.loads(card_path(model).read_text())
    if tuple(card["inputs"]) != INPUTS or tuple(card["targets"]) != TARGETS:
        raise ValueError("it was made for other features than this code computes")
    forest = Forest.load(model)
    trees = tuple(int(n) for n in card["trees_per_target"])
    spread = tuple(tuple(float(v) for v in row) for row in card["spread"])
    if forest.features != len(INPUTS) or len(trees) != len(TARGETS) or min(trees) < 1 \
            or sum(trees) != forest.roots.size:
        raise ValueError("its forest does not match its card")
    if len(spread) != len(TARGETS) or any(len(row) != BUCKETS or min(row) <= 0
                                          or not all(map(math.isfinite, row))
                                          for row in spread):
        raise ValueError("its spreads are not one positive number per target and bucket")
    return HandReading(forest, trees, spread)


def load(model: Path) -> HandReading | None:
    """The model at `model` with its card, or None (logged) where it cannot be used."""
    return logged(log, "hand reading", "layouts by the auction's ranges alone", _make, model)


_loaded: dict[Path, HandReading | None] = {}


def shared(model: Path | None = None) -> HandReading | None:
    """The model (default: the shipped one) loaded once per process (None: layouts by the
    ranges alone; said once)."""
    return once(_loaded, DEFAULT if model is None else model, load)


Weigh = Callable[[int, Sequence[Card]], float]


def weigh(facts: Hand, ctx: Context, vulnerable: tuple[bool, bool]) -> Weigh | None:
    """The shipped model's weight of a hidden hand, as `ctx.seat` holding `facts` reads
    the auction (None where no model loaded)."""
    model = shared()
    return None if model is None else model.read(facts, ctx, vulnerable).log_weight


def view_weigh(view: BridgeView) -> Weigh | None:
    """`weigh` for a card player's view (its hand as dealt: in hand and played), read
    once per deal and seat in this process (the auction is over by the play)."""
    if view.seat is None or shared() is None:
        return None
    dealt = [*view.hand, *(c for s, c in view.played if s == view.seat),
             *(c for s, c in view.trick if s == view.seat)]
    return _view_weigh(tuple(sorted(dealt)), view.seat, tuple(view.calls), Score.of(view),
                       view.vulnerable)


@functools.lru_cache(maxsize=16)
def _view_weigh(dealt: tuple[Card, ...], seat: int, calls: tuple[tuple[int, Call], ...],
                score: Score | None, vulnerable: tuple[bool, bool]) -> Weigh | None:
    return weigh(Hand.of(dealt), context_of(seat, calls, score), vulnerable)


# --- Making the rows -------------------------------------------------------------------


def deal_rows(deal: BankDeal, values: CallValues | None
              ) -> tuple[list[list[float]], list[list[float]], list[int]]:
    """Every point of our players' auction on `deal`, seen by each seat: the rows, their
    targets (TARGETS order) and the calls so far."""
    bidders = Bidders(values)
    facts = [Hand.of(h) for h in deal.hands]
    truth = [measures(h) for h in deal.hands]
    auction = empty_auction(deal.dealer)
    x: list[list[float]] = []
    y: list[list[float]] = []
    calls_so_far: list[int] = []
    while True:
        calls = list(auction.calls)
        for seat in range(4):
            x.append(observed(facts[seat], context_of(seat, calls), deal.vulnerable))
            y.append([v for rel in (1, 2, 3) for v in truth[(seat + rel) % 4]])
            calls_so_far.append(len(calls))
        if auction.finished:
            return x, y, calls_so_far
        seat = auction.to_call()
        action = bidders.call(deal, seat, auction.calls, auction.legal_texts(seat))
        auction.call(seat, CALL_BY_TEXT[action])


def _rows_of(job: tuple[Path, int, int]) -> tuple[list[list[float]], list[list[float]],
                                                   list[int], list[int]]:
    folder, first, count = job
    values = shared_values()  # as served: the tables with the shipped call values
    xs: list[list[float]] = []
    ys: list[list[float]] = []
    calls: list[int] = []
    deals: list[int] = []
    for deal in read(folder, first=first, limit=count):
        x, y, c = deal_rows(deal, values)
        xs += x
        ys += y
        calls += c
        deals += [deal.number] * len(x)
    return xs, ys, calls, deals


def make(first: int, deals: int, out: Path, jobs: int = 1, folder: Path = FOLDER,
         step: int = 100, command: str = "") -> int:
    """Rows of bank deals `first` .. `first + deals - 1` written to `out` (numpy `.npz`);
    how many rows."""
    work = [(folder, start, min(step, first + deals - start))
            for start in range(first, first + deals, step)]
    parts: list[Any] = []
    if jobs <= 1:
        parts = [_rows_of(job) for job in work]
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=os.nice, initargs=(5,)) as pool:
            parts = list(pool.map(_rows_of, work))
    x = np.asarray([r for p in parts for r in p[0]], dtype=np.float32).reshape(-1, len(INPUTS))
    y = np.asarray([r for p in parts for r in p[1]], dtype=np.int8).reshape(-1, len(TARGETS))
    calls = np.asarray([c for p in parts for c in p[2]], dtype=np.int16)
    numbers = np.asarray([d for p in parts for d in p[3]], dtype=np.int32)
    if numbers.size == 0:
        raise SystemExit("no bank deals in that range")
    with out.open("wb") as f:
        np.savez_compressed(f, x=x, y=y, calls=calls, deal=numbers,
                            command=np.asarray(command))
    return int(numbers.size)


# --- Training ---------------------------------------------------------------------------


def _midpoints(x: Any) -> Any:
    """The auction's ranges' midpoint of each target, from the rows' own range features."""
    out = np.empty((x.shape[0], len(TARGETS)))
    for i, who in enumerate(SEATS):
        lo = x[:, INPUTS.index(f"{who}_min_hcp")]
        hi = x[:, INPUTS.index(f"{who}_max_hcp")]
        out[:, i * 5] = (lo + hi) / 2
        for k, suit in enumerate("cdhs"):
            lo = x[:, INPUTS.index(f"{who}_min_{suit}")]
            hi = x[:, INPUTS.index(f"{who}_max_{suit}")]
            out[:, i * 5 + 1 + k] = (lo + hi) / 2
    return out


def _alone(x: Any) -> Any:
    """The mean of each target given the observer's hand alone."""
    out = np.empty((x.shape[0], len(TARGETS)))
    for i in range(3):
        out[:, i * 5] = (40 - x[:, INPUTS.index("hcp")]) / 3
        for k, suit in enumerate("cdhs"):
            out[:, i * 5 + 1 + k] = (13 - x[:, INPUTS.index(f"len_{suit}")]) / 3
    return out


def train(files: Sequence[Path], out: Path, trees: int, leaves: int, held_out: int,
          command: str, threads: int = 2) -> dict[str, Any]:
    """Train the 15 regressors, check the numpy forest gives LightGBM's values, measure
    the held-out errors and spreads, and write the model and its card; the card."""
    import lightgbm

    loaded = [np.load(path) for path in files]
    x = np.concatenate([d["x"] for d in loaded]).astype(np.float64)
    y = np.concatenate([d["y"] for d in loaded]).astype(np.float64)
    calls = np.concatenate([d["calls"] for d in loaded])
    deal = np.concatenate([d["deal"] for d in loaded])
    keep = deal % held_out == 0
    fit, check = ~keep, keep
    if not fit.any() or not check.any():
        raise SystemExit("too few deals to hold some out")
    params = {"objective": "regression", "learning_rate": 0.1, "num_leaves": leaves,
              "min_data_in_leaf": 50, "feature_fraction": 0.9, "bagging_fraction": 0.8,
              "bagging_freq": 1, "lambda_l2": 1.0, "seed": 1, "num_threads": threads,
              "max_depth": 8, "verbose": -1, "deterministic": True, "force_row_wise": True}
    forests: list[Forest] = []
    predicted = np.empty((int(check.sum()), len(TARGETS)))
    for t in range(len(TARGETS)):
        data = lightgbm.Dataset(x[fit], y[fit, t], feature_name=list(INPUTS))
        booster = lightgbm.train(params, data, num_boost_round=trees)
        predicted[:, t] = booster.predict(x[check], num_threads=threads)
        forests.append(from_lightgbm(booster.dump_model()))
    model = HandReading(joined(forests), tuple(f.roots.size for f in forests),
                        tuple((1.0,) * BUCKETS for _ in TARGETS))
    if not np.allclose(model.means(x[check]), predicted, rtol=0, atol=1e-6):
        raise SystemExit("the forest's arrays do not give LightGBM's predictions")
    residual = y[check] - predicted
    bucket = np.minimum(calls[check], BUCKETS - 1)
    spread = []
    for t in range(len(TARGETS)):
        overall = float(residual[:, t].std())
        row = []
        for b in range(BUCKETS):
            r = residual[bucket == b, t]
            s = float(r.std()) if r.size >= 30 else overall
            row.append(round(max(s, MIN_SPREAD[t % 5]), 4))
        spread.append(row)
    mae = {name: {"reading": round(float(np.abs(residual[:, t]).mean()), 4),
                  "ranges_midpoint": round(float(np.abs(
                      y[check, t] - _midpoints(x[check])[:, t]).mean()), 4),
                  "hand_alone": round(float(np.abs(
                      y[check, t] - _alone(x[check])[:, t]).mean()), 4)}
           for t, name in enumerate(TARGETS)}
    model.forest.save(out)
    card = {
        "inputs": list(INPUTS),
        "targets": list(TARGETS),
        "trees_per_target": list(model.trees),
        "spread": spread,
        "spread_buckets": f"calls so far 0 .. {BUCKETS - 2}, then {BUCKETS - 1} or more",
        "command": command,
        "rows_files": [p.name for p in files],
        "rows_commands": [str(d["command"]) for d in loaded if "command" in d],
        "seeds": "bank deal i is dealt from random.Random(f'bank:{i}'); LightGBM's seed 1",
        "bank_deals": [int(deal.min()), int(deal.max())],
        "deals": int(np.unique(deal).size),
        "rows": int(deal.size),
        "held_out": f"every deal whose number is a multiple of {held_out}",
        "held_out_rows": int(check.sum()),
        "held_out_mae": mae,
        "trees": trees,
        "leaves": leaves,
        "seed": 1,
        "bidders": "the tables with the shipped call values (rollouts.Bidders), as served",
    }
    card_path(out).write_text(json.dumps(card, indent=1) + "\n")
    return card


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning.reading")
    sub = parser.add_subparsers(dest="what", required=True)
    rows = sub.add_parser("make", help="rows from our players' auctions on bank deals")
    rows.add_argument("--first", type=int, default=0)
    rows.add_argument("--deals", type=int, required=True)
    rows.add_argument("--out", type=Path, required=True)
    rows.add_argument("--jobs", type=int, default=1)
    rows.add_argument("--folder", type=Path, default=FOLDER)
    learn = sub.add_parser("train", help="the model and its card from rows")
    learn.add_argument("--rows", type=Path, nargs="+", required=True)
    learn.add_argument("--out", type=Path, required=True)
    learn.add_argument("--trees", type=int, default=100)
    learn.add_argument("--leaves", type=int, default=15)
    learn.add_argument("--held-out", type=int, default=5)
    args = parser.parse_args(argv)
    if args.what == "make":
        n = make(args.first, args.deals, args.out, args.jobs, args.folder,
                 command="python -m bot.ai.bridge.learning.reading " + " ".join(argv))
        print(f"{n} rows of bank deals {args.first}..{args.first + args.deals - 1} "
              f"in {args.out}")
        return 0
    command = "python -m bot.ai.bridge.learning.reading " + " ".join(argv)
    card = train(args.rows, args.out, args.trees, args.leaves, args.held_out, command)
    print(json.dumps({k: v for k, v in card.items() if k not in ("inputs", "spread")},
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
