"""Learning to rank a position's candidate cards by the double-dummy tricks each gives away
(the opening lead's `leads_training`, the defence's `defence_training`): one LightGBM
ranker whose groups are the positions, kept as a numpy forest; and what its choice
loses on held-out positions. LightGBM is needed here only (`.[learn]`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .forest import Forest, from_lightgbm
from .train import Interval

# A card's relevance for the ranking: 3 for a best card, then one less a trick given away.
TOP_RELEVANCE = 3


def runs(group: Any) -> tuple[Any, Any]:
    """Where each position's rows start and end (a position's rows are consecutive)."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    return starts, np.r_[starts[1:], group.size]


def chosen(scores: Any, y: Any, group: Any) -> Any:
    """Each position's target at its best-scored row (the first of equals)."""
    starts, ends = runs(group)
    return np.asarray([float(y[a + int(np.argmax(scores[a:b]))])
                       for a, b in zip(starts, ends, strict=True)])


def mean_with_half(values: Any) -> tuple[float, float, int]:
    """The mean of `values`, its 95% interval's half-width (`train.Interval`'s: 0 for
    fewer than two) and their number."""
    interval = Interval.of([float(v) for v in values])
    return interval.mean, interval.mean - interval.low, int(values.size)


def lost_by_choice(scores: Any, y: Any, group: Any) -> tuple[float, float, int]:
    """Mean tricks lost per position by playing each position's best-scored row, with a
    95% interval's half-width, and the number of positions."""
    return mean_with_half(chosen(scores, y, group))


def fit_ranker(x: Any, y: Any, group: Any, fit: Any, names: Sequence[str], trees: int,
               leaves: int, threads: int) -> tuple[Forest, Any]:
    """The ranker learned from the rows `fit` selects (`y`: tricks given away), checked to
    give LightGBM's values as a numpy forest; the forest and its scores of the other rows."""
    import lightgbm

    # Ranking within a position, not regression: which card is best matters, not by how
    # much (held out, the opening lead gave away fewer tricks than regressing them).
    params = {"objective": "lambdarank", "label_gain": list(range(TOP_RELEVANCE + 1)),
              "learning_rate": 0.05, "num_leaves": leaves, "min_data_in_leaf": 100,
              "feature_fraction": 0.9, "bagging_fraction": 0.8, "bagging_freq": 1,
              "lambda_l2": 1.0, "seed": 1, "num_threads": threads, "max_depth": 8,
              "verbose": -1, "deterministic": True, "force_row_wise": True}
    relevance = np.clip(TOP_RELEVANCE - y[fit], 0, TOP_RELEVANCE).astype(int)
    starts, ends = runs(group[fit])
    data = lightgbm.Dataset(x[fit], relevance, group=ends - starts, feature_name=list(names))
    booster = lightgbm.train(params, data, num_boost_round=trees)
    check = ~fit
    predicted = booster.predict(x[check], num_threads=threads)
    forest = from_lightgbm(booster.dump_model())
    if not np.allclose(forest.predict(x[check]), predicted, rtol=0, atol=1e-6):
        raise SystemExit("the forest's arrays do not give LightGBM's predictions")
    return forest, predicted
