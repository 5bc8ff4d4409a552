"""A trained forest of regression trees as flat arrays, read with numpy alone.

LightGBM trains the model (`train.py`); the players only read it. Its own predictor costs
about a millisecond a call in Python-side checks, and importing it brings SciPy: seconds
of a worker's start and tens of megabytes. Here every node of every tree is a row of
five arrays (the feature it splits on, the threshold, the next node either way, the
value of a leaf), and all the candidates of a decision descend all the trees at once,
one numpy step per level. A leaf points at itself, so a fixed number of steps (the
deepest tree's depth) brings every path to its leaf.

The file is numpy's `.npz` of those arrays; `from_lightgbm` makes it from a booster's
`dump_model()` (numerical splits only, `x <= threshold` goes left, as LightGBM's trees
trained on our features have).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Forest:
    feature: Ints  # per node: the feature it splits on (0 at a leaf)
    threshold: Floats  # per node: go left when the feature is <= this (+inf at a leaf)
    left: Ints  # per node: the next node (itself at a leaf)
    right: Ints
    value: Floats  # per node: the leaf's value (0 inside the tree)
    roots: Ints  # per tree: its first node
    depth: int
    features: int
    _children: Ints | None = field(default=None, init=False, repr=False, compare=False)

    def predict(self, rows: Sequence[Sequence[float]] | Floats) -> Floats:
        """The sum of the trees' leaves for each row."""
        result: Floats = self.leaves(rows).sum(axis=1)
        return result

    def leaves(self, rows: Sequence[Sequence[float]] | Floats) -> Floats:
        """Each tree's leaf value for each row (rows by trees): several models kept as one
        forest are read in one descent, each summing its own trees."""
        x = np.asarray(rows, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self.features:
            raise ValueError(f"rows of {self.features} features wanted, got {x.shape}")
        at = np.broadcast_to(self.roots, (x.shape[0], self.roots.size)).copy()
        # A row's features at flat offsets, and a node's children side by side: a step is
        # three gathers and a comparison (most of a call's time is numpy's per-step cost).
        first = (np.arange(x.shape[0]) * self.features)[:, None]
        flat = x.ravel()
        children = self.children
        for step in range(self.depth):
            right = ~(flat[first + self.feature[at]] <= self.threshold[at])  # NaN: right
            at = children[2 * at + right]
            if step % 4 == 3 and (children[2 * at] == at).all():
                break  # every path has reached its leaf
        result: Floats = self.value[at]
        return result

    @property
    def children(self) -> Ints:
        """Each node's left child at 2n and right child at 2n + 1 (made once)."""
        if self._children is None:
            object.__setattr__(self, "_children",
                               np.stack([self.left, self.right], axis=1).ravel())
        assert self._children is not None
        return self._children

    def save(self, path: Path) -> None:
        with path.open("wb") as f:
            np.savez_compressed(
                f, feature=self.feature, threshold=self.threshold, left=self.left,
                right=self.right, value=self.value, roots=self.roots,
                shape=np.asarray([self.depth, self.features], dtype=np.int64))

    @classmethod
    def load(cls, path: Path) -> Forest:
        with np.load(path, allow_pickle=False) as data:
            depth, features = (int(v) for v in data["shape"])
            forest = cls(data["feature"].astype(np.int64), data["threshold"].astype(np.float64),
                         data["left"].astype(np.int64), data["right"].astype(np.int64),
                         data["value"].astype(np.float64), data["roots"].astype(np.int64),
                         depth, features)
        forest.check()
        return forest

    def check(self) -> None:
        """Refuse arrays that do not make a forest (a damaged or foreign file)."""
        n = self.feature.size
        if not (self.threshold.size == self.left.size == self.right.size
                == self.value.size == n) or n == 0 or self.roots.size == 0:
            raise ValueError("the forest's arrays do not agree in length")
        for name, index in (("left", self.left), ("right", self.right), ("roots", self.roots)):
            if index.min() < 0 or index.max() >= n:
                raise ValueError(f"the forest's {name} points outside it")
        if self.feature.min() < 0 or self.feature.max() >= self.features:
            raise ValueError("the forest splits on a feature it does not have")
        if not 0 < self.depth <= 64 or not np.isfinite(self.value).all():
            raise ValueError("the forest's depth or values are out of bounds")


def from_lightgbm(dump: dict[str, Any]) -> Forest:
    """The forest of a LightGBM regression booster's `dump_model()`."""
    if dump.get("average_output") or dump.get("num_tree_per_iteration", 1) != 1:
        raise ValueError("only a plain regression forest is read")
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    roots: list[int] = []
    depth = 1

    def add(node: dict[str, Any], level: int) -> int:
        nonlocal depth
        me = len(feature)
        feature.append(0)
        threshold.append(float("inf"))
        left.append(me)
        right.append(me)
        value.append(0.0)
        if "split_feature" not in node:  # a leaf
            value[me] = float(node["leaf_value"])
            depth = max(depth, level)
            return me
        if node.get("decision_type", "<=") != "<=" or node.get("num_cat", 0):
            raise ValueError("only numerical splits are read")
        feature[me] = int(node["split_feature"])
        threshold[me] = float(node["threshold"])
        left[me] = add(node["left_child"], level + 1)
        right[me] = add(node["right_child"], level + 1)
        return me

    for tree in dump["tree_info"]:
        roots.append(add(tree["tree_structure"], 0))
    return Forest(np.asarray(feature, dtype=np.int64), np.asarray(threshold),
                  np.asarray(left, dtype=np.int64), np.asarray(right, dtype=np.int64),
                  np.asarray(value), np.asarray(roots, dtype=np.int64), max(1, depth),
                  int(dump["max_feature_idx"]) + 1)


def joined(forests: Sequence[Forest]) -> Forest:
    """Several forests of the same features as one (their trees in order): read in one
    descent with `Forest.leaves`, each model summing its own trees."""
    if not forests or len({f.features for f in forests}) != 1:
        raise ValueError("forests of the same features wanted")
    offsets = np.cumsum([0, *(f.feature.size for f in forests)])[:-1]
    return Forest(np.concatenate([f.feature for f in forests]),
                  np.concatenate([f.threshold for f in forests]),
                  np.concatenate([f.left + o for f, o in zip(forests, offsets, strict=True)]),
                  np.concatenate([f.right + o for f, o in zip(forests, offsets, strict=True)]),
                  np.concatenate([f.value for f in forests]),
                  np.concatenate([f.roots + o for f, o in zip(forests, offsets, strict=True)]),
                  max(f.depth for f in forests), forests[0].features)
