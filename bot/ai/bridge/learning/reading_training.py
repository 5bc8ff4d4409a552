"""Making the hand reading (`reading`): rows from our players' auctions, and training.

    python -m bot.ai.bridge.learning.reading_training make --first 0 --deals 6500 --out ROWS.npz
    python -m bot.ai.bridge.learning.reading_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/hand_reading.npz

`make`: on bank deals, our four players bid as the bot serves them at no thinking budget
(the tables with the shipped learned call values: `rollouts.Bidders`). At every point of
the auction (before the first call and after each call) and for each observer seat, a row
is the observer's hand and the auction as the system reads it from that seat
(`reading.observed`), and its targets the three other hands' high-card points and suit
lengths (LHO, partner, RHO).

`train`: a LightGBM regressor per target (15 of them, small) learns the mean; every
`--held-out`th deal is kept out, and the held-out residuals give each target a spread
per number of calls so far. The forests are written as one numpy forest with its JSON
card (`reading.HandReading` reads them). LightGBM is needed here only (`.[learn]`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bot.games.bridge_auction import CALL_BY_TEXT

from ..bidding.context import empty_auction
from ..bidding.rules import Hand
from ..bidding.system import context_of
from .bank import FOLDER, BankDeal, read
from .forest import Forest, from_lightgbm, joined
from .making import Step, held_out_mask, in_steps, provenance, run
from .reading import (
    BUCKETS,
    INPUTS,
    MIN_SPREAD,
    SEATS,
    TARGETS,
    HandReading,
    measures,
    observed,
)
from .rollouts import Bidders
from .values import CallValues, card_path
from .values import shared as shared_values


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


def _rows_of(job: Step) -> tuple[list[list[float]], list[list[float]], list[int], list[int]]:
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
    parts = in_steps(_rows_of, first, deals, jobs, folder, step)
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
    check = held_out_mask(deal, held_out)
    fit = ~check
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
        **provenance(files, loaded, deal, held_out, command),
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
    return run(argv, "bot.ai.bridge.learning.reading_training", make, train, 100, 15,
               ("inputs", "spread"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
