"""Train the call values from rollout rows, choose their margin, and write the model.

    python -m bot.ai.bridge.learning.train --rows FILE [FILE ...] --out MODEL.npz
        [--trees 300] [--leaves 31] [--held-out 5]

Rows are split by deal: every `--held-out`th deal (by number) is kept out of training. A
LightGBM regressor learns each candidate's gain over the tables' call from the rest. The
held-out deals then choose how the model is used: for each margin (a candidate's
predicted gain must reach it) and scope (`values.TRAINED_SCOPES`: any call of the
tables, or the captain's only; `--scopes` and `--play-margins` name other ways, such as
the contested scope or margins below the usual ones, so that the command says how the
way that ships was chosen), the deals
are bid with the values by one side against the base by the other, each side in turn,
as a team match scored double dummy (`held_out_play`). The base
is the tables, or with `--base MODEL` the previous round's values (a later round must beat
the round it improves on, not the tables). With a base the same ways also meet the
tables (a third opponent), and every way is bid by all four players (IMPs from par).
`choose` keeps the way that gains most against the base among those whose interval is
above zero and that are not surely worse than the base against the tables nor from par
(paired a deal, the difference's interval wholly on the wrong side of zero); where
none is, the margin is set out of reach and the tables' calls stand (against a base
model: the round does not pay, and the base stays shipped). The card also holds the
one-step figure of each margin (each decision alone changed, the rest by the tables: its
rollout label).
The model is written as the players read it (`forest.Forest`, numpy arrays; checked to
give LightGBM's own predictions) with its card beside it (`values.card_path`): features,
margin, the command, the rows' files, deals and rows, and the held-out figures. LightGBM
is needed here only (`pip install -e ".[learn]"`), not by the bot.

`--stack-on MODEL` trains a round stacked on an earlier one (`values.CallValues.base`),
from rows labelled against that round's own calls (`rollouts --model MODEL --relative`);
the earlier round is then the held-out match's base, and the card names it (`stacked_on`:
the new model must sit in the same folder). `--play-first N` bids the held-out match on
bank deals N.. that no rows file holds, instead of the rows' own held-out deals: deals
that chose an earlier round's margin favour that round against any later one.

`--rubber` trains a rubber round from `rollouts --rubber` rows (stacked on a duplicate
round, `--stack-on`): its labels and margins are points of the rubber, and the held-out
match is bid at each deal's rubber score (`rollouts.rubber_state`) and scored in points of
the rubber a deal (no par: a rubber has none).

`--slams` trains a round from `rollouts --slams` rows: it weighs the small slams too
(its card says `slam_candidates`); `--between`, from `rollouts --between` rows, the bids
between the cheapest and game (`between_candidates`); `--long`, from `rollouts --long`
rows, the jumps in a long suit where no fit is known (`long_suit_candidates`).

Rows from `rollouts --reading` (known by their width: `features.READING_NAMES` after
`NAMES`, or at a rubber after the part scores) train a round that reads the hand
reading's means: its card's features say so, and it is trained and matched as any
round of its kind. With `--side` such a round reads besides our side's sums as read
(`features.SIDE_NAMES`, worked out from the rows' own columns: the rows files stay as
`rollouts --reading` wrote them).
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
from .features import NO_EXTRAS, Extras, extras_asked, row_names, with_side
from .forest import from_lightgbm
from .reading import digest as reading_digest
from .reading import shared as shared_reading
from .rollouts import Row, bid_out, par_ns, rows_in, rubber_state, swing
from .values import CARD_EXTRAS, SCOPES, TRAINED_SCOPES, CallValues, card_path, load

MAX_DEPTH = 10  # a forest this deep is read in at most 10 numpy steps a call
PLAY_MARGINS = (1.0, 1.5, 2.5, 3.5)  # tried in full play (each costs biddings of the deals)
MARGINS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
# A rubber round's, in points of the rubber (an IMP is worth some 30 to 50 points here).
RUBBER_PLAY_MARGINS = (25.0, 50.0, 100.0, 150.0)
RUBBER_MARGINS = (10.0, 25.0, 50.0, 75.0, 100.0, 150.0, 200.0)


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
class Interval:
    """A paired team match's mean IMPs a deal and its 95% interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, boards: Sequence[float]) -> Interval:
        mean = statistics.fmean(boards)
        half = (1.96 * statistics.stdev(boards) / math.sqrt(len(boards))
                if len(boards) > 1 else 0.0)
        return cls(mean, mean - half, mean + half)


def team_boards(values_ns: Sequence[float], values_ew: Sequence[float],
                other: Sequence[float], rubber: bool = False) -> list[float]:
    """Each deal's IMPs (at a rubber, points) for the values' side: North-South with them
    against `other`, then East-West with them (each side in turn, scores for N-S)."""
    return [(swing(ns - o, rubber) + swing(o - ew, rubber)) / 2
            for ns, ew, o in zip(values_ns, values_ew, other, strict=True)]


@dataclass(frozen=True, slots=True)
class Baseline:
    """The held-out deals without the new values, worked out once for every way: the
    scores with the base (the previous round, or the tables) in all four seats and with
    the tables in all four, par, and the base's own team match against the tables. At a
    rubber (`rubber`), each deal is bid and valued at its rubber score, and there is no
    par."""

    deals: tuple[BankDeal, ...]
    base: CallValues | None
    by_base: tuple[float, ...]
    by_tables: tuple[float, ...]
    par: tuple[int, ...] | None
    base_tables: tuple[float, ...] | None  # the base's team boards against the tables
    rubber: bool = False

    @property
    def base_against_tables(self) -> Interval | None:
        """The base's team match against the tables (None: the base is the tables)."""
        return None if self.base_tables is None else Interval.of(self.base_tables)

    @classmethod
    def of(cls, deals: Sequence[BankDeal], base: CallValues | None,
           rubber: bool = False) -> Baseline:
        def out(deal: BankDeal, values: CallValues | None,
                sides: tuple[int, ...] = (0, 1)) -> float:
            return bid_out(deal, values, sides, None, rubber_state(deal.number) if rubber
                           else None)

        by_tables = tuple(out(deal, None) for deal in deals)
        by_base = by_tables if base is None else tuple(out(deal, base) for deal in deals)
        against = None
        if base is not None:
            against = tuple(team_boards(
                [out(deal, base, (0,)) for deal in deals],
                [out(deal, base, (1,)) for deal in deals], by_tables, rubber))
        par = None if rubber else tuple(par_ns(deal) for deal in deals)
        return cls(tuple(deals), base, by_base, by_tables, par, against, rubber)

    def score(self, deal: BankDeal, values: CallValues | None,
              sides: tuple[int, ...] = (0, 1), others: CallValues | None = None) -> float:
        """The deal bid with `values` by `sides` and `others` by the rest, for N-S."""
        return bid_out(deal, values, sides, others,
                       rubber_state(deal.number) if self.rubber else None)

    def par_imps(self, scores: Sequence[float]) -> list[int] | None:
        """Each deal's IMPs from par (None at a rubber: it has no par)."""
        if self.par is None:
            return None
        return [abs(imps(round(s - p))) for s, p in zip(scores, self.par, strict=True)]


@dataclass(frozen=True, slots=True)
class Play:
    """Held-out deals bid in full with one way of using the values."""

    team: float  # IMPs (at a rubber, points) a deal the values' side gains against the base's
    team_low: float  # the lower end of its 95% interval
    team_high: float
    tables: float  # the same against the tables' side
    tables_low: float
    tables_high: float
    par_values: float | None  # IMPs a deal from par, all four with the values (None: rubber)
    par_base: float | None  # the same, all four with the base
    # Paired a deal, the upper end of the interval of the values' gain against the tables
    # less the base's, and the lower end of that of their IMPs from par less the base's.
    tables_change_high: float
    par_change_low: float | None

    def as_dict(self) -> dict[str, float | None]:
        return {k: None if getattr(self, k) is None else round(getattr(self, k), 4)
                for k in self.__slots__}


def held_out_play(baseline: Baseline, way: CallValues) -> Play:
    """The held-out deals bid with the values by North-South against the base, then by
    East-West (a team match against the base, in IMPs); the same against the tables; and
    by all four (IMPs from par)."""
    deals, base, rubber = baseline.deals, baseline.base, baseline.rubber
    ns, ew = ([baseline.score(deal, way, (side,), base) for deal in deals]
              for side in (0, 1))
    team = Interval.of(team_boards(ns, ew, baseline.by_base, rubber))
    if baseline.base_tables is None:  # the base is the tables
        tables, change = team, team
    else:
        tables_ns, tables_ew = ([baseline.score(deal, way, (side,)) for deal in deals]
                                for side in (0, 1))
        against = team_boards(tables_ns, tables_ew, baseline.by_tables, rubber)
        tables = Interval.of(against)
        change = Interval.of([a - b for a, b in zip(against, baseline.base_tables,
                                                    strict=True)])
    both = [baseline.score(deal, way) for deal in deals] if not rubber else []
    par_values, par_base = baseline.par_imps(both), baseline.par_imps(baseline.by_base)
    par_change = None if par_values is None or par_base is None else Interval.of(
        [a - b for a, b in zip(par_values, par_base, strict=True)])
    return Play(team.mean, team.low, team.high, tables.mean, tables.low, tables.high,
                None if par_values is None else statistics.fmean(par_values),
                None if par_base is None else statistics.fmean(par_base),
                change.high, None if par_change is None else par_change.low)


def refusal(play: Play, baseline: Baseline) -> str | None:
    """Why a way may not ship, or None where it may: it must beat the base head to head
    with its interval above zero, and not be surely worse than the base against the
    tables (the third opponent: a round can learn to beat the round it was labelled with
    and nothing else) nor from par with all four using it (bidding sense, not only
    contest). Surely: paired a deal, the difference's interval lies wholly on the wrong
    side of zero; two means of one match held against each other would refuse a round
    for noise (round 8, which fresh boards shipped, was refused so)."""
    floor = baseline.base_against_tables.mean if baseline.base_against_tables else 0.0
    if play.team_low <= 0:
        return f"not surely better than the base (interval from {play.team_low:+.3f})"
    if play.tables_change_high < 0:
        return (f"surely less against the tables than the base ({play.tables:+.3f} "
                f"against {floor:+.3f}; the difference's interval up to "
                f"{play.tables_change_high:+.3f})")
    if play.par_change_low is not None and play.par_change_low > 0:
        return (f"surely further from par than the base ({play.par_values:.3f} against "
                f"{play.par_base:.3f}; the difference's interval from "
                f"{play.par_change_low:+.3f})")
    return None


def choose(plays: dict[tuple[str, float], Play], baseline: Baseline
           ) -> tuple[str, float] | None:
    """The way to ship, or None where the round does not pay: of the ways `refusal`
    lets through, the one that gains most against the base."""
    fit = {key: play for key, play in plays.items() if refusal(play, baseline) is None}
    if not fit:
        return None
    return max(fit, key=lambda key: fit[key].team)


def verdicts(plays: dict[tuple[str, float], Play], baseline: Baseline,
             chosen: tuple[str, float] | None) -> list[str]:
    """A line a way: its gain against the base, and whether it was `chosen`, may ship or
    why not."""
    lines = []
    for key, play in plays.items():
        why = refusal(play, baseline)
        said = "chosen" if key == chosen else "may ship" if why is None else why
        lines.append(f"{key[0]} {key[1]:g}: {play.team:+.3f} against the base, {said}")
    return lines


def matrix(rows: Sequence[Row], side: bool = False, rubber: bool = False) -> Any:
    """The rows' features as a matrix, with our side's sums after them (`side`; `rubber`:
    the rows hold the part scores before the hand reading's means)."""
    import numpy as np

    x = np.asarray([row.features for row in rows], dtype=np.float64)
    return with_side(x, rubber) if side else x


def fit(rows: Sequence[Row], names: Sequence[str], trees: int, leaves: int,
        seed: int = 1, side: bool = False, rubber: bool = False) -> Any:
    """LightGBM's regressor of the rows' gains, its columns named `names` (`train`'s,
    from `features.row_names`; `side`: the rows' features with our side's sums after them,
    `rubber`: of rubber rows)."""
    import lightgbm
    import numpy as np

    x = matrix(rows, side, rubber)
    y = np.asarray([row.gain for row in rows], dtype=np.float64)
    data = lightgbm.Dataset(x, y, feature_name=list(names), free_raw_data=True)
    params = {"objective": "regression", "learning_rate": 0.05, "num_leaves": leaves,
              "min_data_in_leaf": 40, "feature_fraction": 0.9, "bagging_fraction": 0.8,
              "bagging_freq": 1, "lambda_l2": 1.0, "seed": seed, "num_threads": 2,
              "max_depth": MAX_DEPTH, "verbose": -1, "deterministic": True,
              "force_row_wise": True}
    return lightgbm.train(params, data, num_boost_round=trees)


def _played_on(model: Path) -> range:
    """The bank deals whose held-out match chose `model`'s margin, where its card says
    (`play_deals`, first and last, written by `--play-first`); else none."""
    try:
        said = json.loads(card_path(model).read_text()).get("play_deals")
    except (OSError, ValueError):
        return range(0)
    if not (isinstance(said, list) and len(said) == 2
            and all(isinstance(n, int) for n in said)):
        return range(0)
    return range(said[0], said[1] + 1)


def train(files: Sequence[Path], out: Path, trees: int, leaves: int, held_out: int,
          command: str, play_deals: int = 400, bank_folder: Path = FOLDER,
          base: Path | None = None, stack_on: Path | None = None,
          play_first: int | None = None, rubber: bool = False,
          extras: Extras = NO_EXTRAS, scopes: Sequence[str] = TRAINED_SCOPES,
          play_margins: Sequence[float] | None = None, side: bool = False
          ) -> tuple[dict[str, Any], Any]:
    """Train, choose the margin, write the forest and its card; the card and the booster.
    The held-out match tries each of `scopes` at each of `play_margins` (default: the
    usual margins of a duplicate or a rubber round). `side`: the round reads our side's
    sums as read too (hand-reading rows only)."""
    import numpy as np

    if play_margins is None:
        play_margins = RUBBER_PLAY_MARGINS if rubber else PLAY_MARGINS
    if not scopes or not play_margins:
        raise SystemExit("the held-out match needs at least one scope and one margin")
    if play_deals < 2:  # one deal's team match has no interval, and would ship on its sign
        raise SystemExit("the held-out match needs two deals or more")

    rows = [row for path in files for row in rows_in(path)]
    if not rows:
        raise SystemExit("no rows to train on")
    reading_width = len(row_names(rubber, reading=True))
    reading = len(rows[0].features) == reading_width
    if side and not reading:
        raise SystemExit("--side: our side's sums are read from the hand reading's means, "
                         "which only rollouts --reading rows hold")
    names = row_names(rubber, reading, side)
    width = reading_width if side else len(names)
    if any(len(row.features) != width for row in rows):
        kind = ("rubber" if rubber else "duplicate") + (" hand-reading" if reading else "")
        flag = (" --rubber" if rubber else "") + (" --reading" if reading else "")
        raise SystemExit(f"the rows are not {kind} rows ({width} features): "
                         f"rollouts{flag}")
    if reading and shared_reading() is None:
        raise SystemExit("these rows read the hand reading (rollouts --reading), which "
                         "cannot be used (its log line says why)")
    train_rows = [r for r in rows if r.deal % held_out != 0]
    check_rows = [r for r in rows if r.deal % held_out == 0]
    # The held-out match's deals and base are checked before the fit (minutes of it).
    if play_first is None:
        held = set(sorted({r.deal for r in check_rows})[:play_deals])
        deals = [deal for deal in read(bank_folder) if deal.number in held]
    else:
        deals = list(read(bank_folder, first=play_first, limit=play_deals))
        if len(deals) < play_deals:
            raise SystemExit(f"--play-first: the bank holds {len(deals)} deals from "
                             f"{play_first}, not {play_deals}")
        if {deal.number for deal in deals} & {r.deal for r in rows}:
            raise SystemExit("--play-first: the held-out match's deals are in the rows")
    if len(deals) < 2:
        raise SystemExit(f"the held-out match needs two deals or more; the rows' held-out "
                         f"part holds {len(deals)}")
    if stack_on is not None:
        if base is not None and base != stack_on:
            raise SystemExit("a stacked round is matched against its own base")
        base = stack_on
    if base is not None and play_first is not None:
        chosen_on = _played_on(base)
        if any(deal.number in chosen_on for deal in deals):
            raise SystemExit(f"--play-first: {base.name}'s own margin was chosen on some of "
                             "these deals, which would favour it")
    against = load(base) if base is not None else None
    if base is not None and against is None:
        raise SystemExit(f"the base model {base} cannot be used")
    booster = fit(train_rows, names, trees, leaves, side=side, rubber=rubber)
    check_x = matrix(check_rows, side, rubber)
    predicted = booster.predict(check_x, num_threads=2)
    forest = from_lightgbm(booster.dump_model())
    if not np.allclose(forest.predict(check_x), predicted, rtol=0, atol=1e-9):
        raise SystemExit("the forest's arrays do not give LightGBM's predictions")
    figures = {m: realised(check_rows, predicted, m)
               for m in (RUBBER_MARGINS if rubber else MARGINS)}
    under = against if stack_on is not None else None
    baseline = Baseline.of(deals, against, rubber)
    plays = {(scope, margin): held_out_play(baseline,
                                            CallValues(forest, margin, scope, under, rubber,
                                                       extras, reading, side))
             for scope in scopes for margin in play_margins}
    chosen = choose(plays, baseline)
    for line in verdicts(plays, baseline, chosen):
        print(line, file=sys.stderr)
    if chosen is None:
        print("no way pays: the margin is set out of reach", file=sys.stderr)
    # Where no way pays, the margin is set out of reach: the tables' calls stand (against
    # a base model the round is not shipped; the base stays).
    scope, margin = chosen if chosen is not None else ("all", 99999.0 if rubber else 99.0)
    forest.save(out)
    unit = "points of the rubber" if rubber else "IMPs"
    card = {
        "features": list(names),
        "margin": margin,
        "scope": scope,
        "held_out_play": (
            f"{len(deals)} held-out deals"
            + (", each bid at its rubber score (rollouts.rubber_state)" if rubber else "")
            + f"; team: {unit} a deal the values' side gains against "
            f"the {'tables' if base is None else base.name + ' side'} (each side in turn, "
            "95% interval); tables: the same against the tables' side"
            + ("" if rubber else "; par: IMPs a deal from par with all four using the "
               "values, and with the base alone")),
        "held_out_play_by_way": {f"{s} {m}": p.as_dict() for (s, m), p in plays.items()},
        "base_against_tables": (None if baseline.base_against_tables is None else
                                round(baseline.base_against_tables.mean, 4)),
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
    if play_first is not None:  # bank deals first..last, which later rounds may not reuse
        card["play_deals"] = [deals[0].number, deals[-1].number]
    if stack_on is not None:
        card["stacked_on"] = stack_on.name
    if reading:  # the hand reading its rows read: the players ask it beside no other
        card["hand_reading"] = reading_digest()
    for extra in sorted(extras):
        card[CARD_EXTRAS[extra]] = True
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
    parser.add_argument("--stack-on", type=Path, default=None,
                        help="the earlier round this one is stacked on (rows from "
                             "rollouts --model it --relative); also the held-out base")
    parser.add_argument("--rubber", action="store_true",
                        help="a rubber round, from rollouts --rubber rows (labels and "
                             "margins in points of the rubber)")
    parser.add_argument("--play-first", type=int, default=None,
                        help="bid the held-out match on bank deals from this one, which "
                             "no rows file may hold (default: the rows' held-out deals)")
    parser.add_argument("--slams", action="store_true",
                        help="a round that weighs the small slams too, from rollouts "
                             "--slams rows")
    parser.add_argument("--between", action="store_true",
                        help="a round that weighs the bids between the cheapest and game "
                             "too, from rollouts --between rows")
    parser.add_argument("--long", action="store_true",
                        help="a round that weighs the jumps in a long suit where no fit "
                             "is known too, from rollouts --long rows")
    parser.add_argument("--side", action="store_true",
                        help="a round that reads our side's sums as read too (partner's "
                             "means added to this hand's numbers), from rollouts "
                             "--reading rows")
    parser.add_argument("--scopes", nargs="+", choices=SCOPES, default=list(TRAINED_SCOPES),
                        help="the scopes the held-out match tries (default: %(default)s)")
    parser.add_argument("--play-margins", type=float, nargs="+", default=None,
                        help="the margins the held-out match tries (default: "
                             f"{', '.join(f'{m:g}' for m in PLAY_MARGINS)} IMPs; at a "
                             f"rubber {', '.join(f'{m:g}' for m in RUBBER_PLAY_MARGINS)} "
                             "points)")
    args = parser.parse_args(argv)
    if args.play_margins is not None and any(m < 0 for m in args.play_margins):
        parser.error("--play-margins: a margin is a gain of at least zero")
    extras = extras_asked(args)
    command = "python -m bot.ai.bridge.learning.train " + " ".join(argv)
    card, _ = train(args.rows, args.out, args.trees, args.leaves, args.held_out, command,
                    args.play_deals, base=args.base, stack_on=args.stack_on,
                    play_first=args.play_first, rubber=args.rubber, extras=extras,
                    scopes=tuple(dict.fromkeys(args.scopes)),
                    play_margins=(None if args.play_margins is None
                                  else tuple(dict.fromkeys(args.play_margins))),
                    side=args.side)
    print(json.dumps({k: v for k, v in card.items() if k != "features"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
