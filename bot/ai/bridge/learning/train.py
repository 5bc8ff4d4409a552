"""Train the call values from rollout rows, choose their margin, and write the model.

    python -m bot.ai.bridge.learning.train --rows FILE [FILE ...] --out MODEL.npz
        [--trees 300] [--leaves 31] [--held-out 5]

Rows are split by deal: every `--held-out`th deal (by number) is kept out of training. A
LightGBM regressor learns each candidate's gain over the tables' call from the rest. The
held-out deals then choose how the model is used: for each margin (a candidate's
predicted gain must reach it) and scope (`values.SCOPES`: any call of the tables, or the
captain's only), the deals are bid with the values by one side against the base by the
other, each side in turn, as a team match scored double dummy (`held_out_play`). The base
is the tables, or with `--base MODEL` the previous round's values (a later round must beat
the round it improves on, not the tables). The way that gains most is kept, and where no
way's 95% interval is above zero the margin is set out of reach and the tables' calls
stand (against a base model: the round does not pay, and the base stays shipped). Each
way's IMPs from par with all four players using the values are on the card too, and the
one-step figure of each margin (each decision alone changed, the rest by the tables: its
rollout label).
The model is written as the players read it (`forest.Forest`, numpy arrays; checked to
give LightGBM's own predictions) with its card beside it (`values.card_path`): features,
margin, the command, the rows' files, deals and rows, and the held-out figures. LightGBM
is needed here only (`pip install -e ".[learn]"`), not by the bot.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.bridge_scoring import imps

from .bank import FOLDER, BankDeal, read
from .features import NAMES
from .forest import from_lightgbm
from .rollouts import Row, bid_out, par_ns, rows_in
from .values import SCOPES, CallValues, card_path, load

MAX_DEPTH = 10  # a forest this deep is read in at most 10 numpy steps a call
PLAY_MARGINS = (1.0, 1.5, 2.5)  # tried in full play (each costs a bidding of the deals)
MARGINS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)


def realised(rows: Sequence[Row], predicted: Sequence[float], margin: float
             ) -> tuple[float, int, int]:
    """Over the held-out decisions: the IMPs a deal the chosen calls gain by their own
    rollouts, how many decisions change, and over how many deals."""
    best: dict[tuple[int, int], tuple[float, float]] = {}
    deals = {row.deal for row in rows}
    for row, guess in zip(rows, predicted, strict=True):
        key = (row.deal, row.decision)
        if guess >= margin and (key not in best or guess > best[key][0]):
            best[key] = (guess, row.gain)
    total = sum(gain for _, gain in best.values())
    return total / max(1, len(deals)), len(best), len(deals)


@dataclass(frozen=True, slots=True)
class Play:
    """Held-out deals bid in full with one way of using the values."""

    team: float  # IMPs a deal the values' side gains against the tables' side
    team_low: float  # the lower end of its 95% interval
    team_high: float
    par_values: float  # IMPs a deal from par, all four with the values
    par_tables: float  # the same, the base alone (the tables, or the previous round)

    def as_dict(self) -> dict[str, float]:
        return {k: round(getattr(self, k), 4) for k in self.__slots__}


def held_out_play(deals: Sequence[BankDeal], way: CallValues,
                  base: CallValues | None = None) -> Play:
    """Each deal bid with the values by North-South against the base (None: the tables),
    then by East-West (a team match against the base, in IMPs), and by all four (IMPs
    from par)."""
    team: list[float] = []
    par_values: list[int] = []
    par_tables: list[int] = []
    for deal in deals:
        tables = bid_out(deal, base)
        ns, ew, both = (bid_out(deal, way, sides, base) for sides in ((0,), (1,), (0, 1)))
        team.append((imps(ns - tables) + imps(tables - ew)) / 2)
        par = par_ns(deal)
        par_values.append(abs(imps(both - par)))
        par_tables.append(abs(imps(tables - par)))
    mean = statistics.fmean(team)
    half = 1.96 * statistics.stdev(team) / math.sqrt(len(team)) if len(team) > 1 else 0.0
    return Play(mean, mean - half, mean + half, statistics.fmean(par_values),
                statistics.fmean(par_tables))


def fit(rows: Sequence[Row], trees: int, leaves: int, seed: int = 1) -> Any:
    import lightgbm
    import numpy as np

    x = np.asarray([row.features for row in rows], dtype=np.float64)
    y = np.asarray([row.gain for row in rows], dtype=np.float64)
    data = lightgbm.Dataset(x, y, feature_name=[n for n in NAMES], free_raw_data=True)
    params = {"objective": "regression", "learning_rate": 0.05, "num_leaves": leaves,
              "min_data_in_leaf": 40, "feature_fraction": 0.9, "bagging_fraction": 0.8,
              "bagging_freq": 1, "lambda_l2": 1.0, "seed": seed, "num_threads": 2,
              "max_depth": MAX_DEPTH, "verbose": -1, "deterministic": True,
              "force_row_wise": True}
    return lightgbm.train(params, data, num_boost_round=trees)


def train(files: Sequence[Path], out: Path, trees: int, leaves: int, held_out: int,
          command: str, play_deals: int = 400, bank_folder: Path = FOLDER,
          base: Path | None = None) -> tuple[dict[str, Any], Any]:
    """Train, choose the margin, write the forest and its card; the card and the booster."""
    import numpy as np

    rows = [row for path in files for row in rows_in(path)]
    if not rows:
        raise SystemExit("no rows to train on")
    train_rows = [r for r in rows if r.deal % held_out != 0]
    check_rows = [r for r in rows if r.deal % held_out == 0]
    booster = fit(train_rows, trees, leaves)
    check_x = np.asarray([r.features for r in check_rows])
    predicted = booster.predict(check_x, num_threads=2)
    forest = from_lightgbm(booster.dump_model())
    if not np.allclose(forest.predict(check_x), predicted, rtol=0, atol=1e-9):
        raise SystemExit("the forest's arrays do not give LightGBM's predictions")
    figures = {m: realised(check_rows, predicted, m) for m in MARGINS}
    held = set(sorted({r.deal for r in check_rows})[:play_deals])
    deals = [deal for deal in read(bank_folder) if deal.number in held]
    against = load(base) if base is not None else None
    if base is not None and against is None:
        raise SystemExit(f"the base model {base} cannot be used")
    plays = {(scope, margin): held_out_play(deals, CallValues(forest, margin, scope), against)
             for scope in SCOPES for margin in PLAY_MARGINS}
    (scope, margin), best = max(plays.items(), key=lambda kv: kv[1].team)
    if best.team_low <= 0:
        margin = 99.0  # no way of using it beats the tables for sure: their calls stand
    forest.save(out)
    card = {
        "features": list(NAMES),
        "margin": margin,
        "scope": scope,
        "held_out_play": (
            f"{len(deals)} held-out deals; team: IMPs a deal the values' side gains against "
            f"the {'tables' if base is None else base.name + ' side'} (each side in turn, "
            "95% interval); par: IMPs a deal from par with all four using the values, and "
            "with the base alone"),
        "held_out_play_by_way": {f"{s} {m}": p.as_dict() for (s, m), p in plays.items()},
        "command": command,
        "rows_files": [p.name for p in files],
        "deals": len({r.deal for r in rows}),
        "rows": len(rows),
        "held_out": f"every deal whose number is a multiple of {held_out}",
        "one_step_gain_by_margin": {str(m): [round(g, 4), c]
                                    for m, (g, c, _) in figures.items()},
        "trees": trees,
        "leaves": leaves,
        "mean_label": round(statistics.fmean(r.gain for r in rows), 4),
    }
    card_path(out).write_text(json.dumps(card, indent=1) + "\n")
    return card, booster


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bridge.learning.train")
    parser.add_argument("--rows", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--trees", type=int, default=300)
    parser.add_argument("--leaves", type=int, default=31)
    parser.add_argument("--held-out", type=int, default=5)
    parser.add_argument("--play-deals", type=int, default=400,
                        help="held-out deals bid in full to choose the margin and scope")
    parser.add_argument("--base", type=Path, default=None,
                        help="the previous round's model, the held-out team match's other "
                             "side (default: the tables)")
    args = parser.parse_args(argv)
    command = "python -m bot.ai.bridge.learning.train " + " ".join(argv)
    card, _ = train(args.rows, args.out, args.trees, args.leaves, args.held_out, command,
                    args.play_deals, base=args.base)
    print(json.dumps({k: v for k, v in card.items() if k != "features"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
