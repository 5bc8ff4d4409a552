"""A trained forest of regression trees as flat arrays, read with numpy alone.

LightGBM trains the model (`train.py`); the players only read it. Its own predictor costs
about a millisecond a call in Python-side checks, and importing it brings SciPy: seconds
of a worker's start and tens of megabytes. Here every node of every tree is a row of
five arrays (the feature it splits on, the threshold, the next node either way, the
value of a leaf), and all the candidates of a decision descend all the trees at once,
one numpy step per level. A leaf points at itself, so a fixed number of steps (the
deepest tree's depth) brings every path to its leaf.

The candidates of one decision share most of their row (the hand, the auction) and differ
only in a few columns (the candidate call's). Given those columns (`leaves(rows, vary)`),
the forest is read the other way round, as QuickScorer does: every split is tested once,
a split on a shared column once for all rows, and each split that sends a row right rules
out the leaves of its left subtree (a bit mask of the tree's leaves, numbered left to
right); a tree's leaf is the leftmost one no split ruled out. That is a few numpy steps
over all splits instead of one step per level over every tree and row: about half the
time of the descent for a decision's rows. Rows of whole numbers are compared as 16-bit
integers; others (the hand reading's means) as they are, with the same rule as the
descent (`x <= threshold` goes left, NaN right). Rows that differ outside the columns
named are read by the descent.
`Forests` reads several models' forests on the same rows in one such reading (the rounds
of a stacked chain weighing the same candidates against the same reference).

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
Masks = npt.NDArray[np.uint32]
Small = npt.NDArray[np.int16]

MOST_LEAVES = 32  # a tree's leaves must fit one mask's bits to be read split by columns
SMALL = 2**15 - 1  # rows read split by columns are whole numbers within +-SMALL


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
    _splits: dict[tuple[int, ...], _Split | None] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def predict(self, rows: Sequence[Sequence[float]] | Floats,
                vary: tuple[int, ...] | None = None) -> Floats:
        """The sum of the trees' leaves for each row (`vary`: as for `leaves`)."""
        result: Floats = self.leaves(rows, vary).sum(axis=1)
        return result

    def leaves(self, rows: Sequence[Sequence[float]] | Floats,
               vary: tuple[int, ...] | None = None) -> Floats:
        """Each tree's leaf value for each row (rows by trees): several models kept as one
        forest are read in one descent, each summing its own trees. `vary`: the columns
        in which the rows may differ; where they agree in all the others, the forest is
        read split by columns (the module's note), with the same leaves."""
        x = np.asarray(rows, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self.features:
            raise ValueError(f"rows of {self.features} features wanted, got {x.shape}")
        if vary is not None and x.shape[0] > 0:
            split = self.split_by(vary)
            readable = None if split is None else split.readable(x)
            if split is not None and readable is not None:
                return split.leaves(readable)
        return self._descend(x)

    def split_by(self, vary: tuple[int, ...]) -> _Split | None:
        """The forest arranged for rows differing only in `vary` (made once; None where it
        cannot be: `_Split.of`)."""
        if vary not in self._splits:
            self._splits[vary] = _Split.of(self, vary)
        return self._splits[vary]

    def _descend(self, x: Floats) -> Floats:
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


@dataclass(frozen=True, slots=True)
class _Splits:
    """Some splits of a forest, each tree's together after a first one that rules out
    nothing (so no tree's run is empty for `reduceat`). On whole-number rows, `x <= t`
    is `x <= floor(t)`: the thresholds are kept as whole numbers, and rows and thresholds
    as 16-bit integers, which numpy gathers and compares fastest; and as they are, for
    other rows."""
    feature: Ints
    threshold: Small
    exact: Floats  # per split: the threshold itself
    ruled_out: Masks  # per split: the leaves of its left subtree (a row going right)
    starts: Ints  # per tree: where its run begins

    def kept(self, x: Small | Floats) -> Masks:
        """Per row of `x` (the last axis: features) and tree, the leaves no split rules out."""
        if x.dtype == np.int16:
            right = x[..., self.feature] > self.threshold
        else:
            right = ~(x[..., self.feature] <= self.exact)  # NaN goes right
        out = self.ruled_out * right
        result: Masks = ~np.bitwise_or.reduceat(out, self.starts, axis=-1)
        return result

    @staticmethod
    def of(feature: Ints, threshold: Floats, ruled_out: Masks, tree: Ints,
           trees: int) -> _Splits:
        """The splits given tree by tree (`tree`: each one's), each run led by one that
        rules out nothing."""
        at = np.arange(tree.size) + tree + 1  # past its tree's leading split and those before
        starts = np.arange(trees) + np.searchsorted(tree, np.arange(trees))
        size = tree.size + trees
        out = _Splits(np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int16),
                      np.zeros(size), np.zeros(size, dtype=np.uint32),
                      starts.astype(np.int64))
        whole = np.floor(np.nan_to_num(threshold, nan=-np.inf))  # NaN: every row goes right
        out.feature[at] = feature
        out.threshold[at] = np.clip(whole, -SMALL - 1, SMALL)
        out.exact[at] = threshold
        out.ruled_out[at] = ruled_out
        return out

    @staticmethod
    def joined(parts: Sequence[_Splits]) -> _Splits:
        offsets = np.cumsum([0, *(part.feature.size for part in parts)])[:-1]
        return _Splits(np.concatenate([part.feature for part in parts]),
                       np.concatenate([part.threshold for part in parts]),
                       np.concatenate([part.exact for part in parts]),
                       np.concatenate([part.ruled_out for part in parts]),
                       np.concatenate([part.starts + o
                                       for part, o in zip(parts, offsets, strict=True)]))


@dataclass(frozen=True, slots=True)
class _Split:
    """A forest read split by columns (the module's note): the splits on the shared
    columns, read on the first row alone, and those on `vary`, read on every row."""
    vary: tuple[int, ...]
    shared: _Splits
    per_row: _Splits
    value: Floats  # tree t's leaf i (left to right) at t * MOST_LEAVES + i
    first: Ints  # per tree: t * MOST_LEAVES

    def readable(self, x: Floats) -> Small | Floats | None:
        """The rows as this reading takes them where they agree outside `vary` (NaN never
        agrees), else None: as 16-bit whole numbers where they are whole numbers within
        +-SMALL, else as they are."""
        differs = x[1:] != x[0]
        # `vary` may name columns past narrower rows' (a chain that reads fewer)
        differs[:, [v for v in self.vary if v < x.shape[1]]] = False
        if differs.any():
            return None
        with np.errstate(invalid="ignore"):  # NaN or out of range: caught just below
            small = x.astype(np.int16)
        if not np.array_equal(small, x) or small.min(initial=0) < -SMALL:
            return x
        return small

    def leaves(self, x: Small | Floats) -> Floats:
        kept = self.per_row.kept(x) & self.shared.kept(x[0])
        leftmost = np.bitwise_count((kept & (~kept + np.uint32(1))) - np.uint32(1))
        result: Floats = self.value[self.first + leftmost]
        return result

    @staticmethod
    def of(forest: Forest, vary: tuple[int, ...]) -> _Split | None:
        """None where the forest's nodes are not in preorder (each tree's nodes after its
        root, a split's left subtree right after it, then its right subtree, as
        `from_lightgbm` writes them) or a tree has more than `MOST_LEAVES` leaves."""
        n = forest.feature.size
        nodes = np.arange(n)
        leaf = forest.left == nodes
        end = nodes + 1  # per node: one past its subtree (complete after `depth` steps)
        for _ in range(forest.depth + 1):
            end = np.where(leaf, nodes + 1, end[forest.right])
        inner = np.flatnonzero(~leaf)
        left, right = forest.left[inner], forest.right[inner]
        bounds = np.append(forest.roots, n)
        if not (forest.roots[0] == 0 and np.array_equal(left, inner + 1)
                and np.array_equal(right, end[left])
                and np.array_equal(end[forest.roots], bounds[1:])):
            return None
        # In preorder the leaves come left to right: a leaf's number in its tree is the
        # count of leaves before it, less those of the trees before.
        before = np.concatenate([[0], np.cumsum(leaf)])
        tree = np.searchsorted(forest.roots, nodes, side="right") - 1
        first = before[forest.roots][tree]
        if (before[bounds[1:]] - before[forest.roots]).max() > MOST_LEAVES:
            return None
        trees = forest.roots.size
        value = np.zeros(trees * MOST_LEAVES)
        leaves = np.flatnonzero(leaf)
        value[tree[leaves] * MOST_LEAVES + before[leaves] - first[leaves]] = forest.value[leaves]
        ruled_out = _below(before[right] - first[inner]) ^ _below(before[left] - first[inner])
        varied = np.zeros(max([forest.features, *(v + 1 for v in vary)]), dtype=bool)
        varied[list(vary)] = True  # `vary` may name columns past this forest's own
        on_varied = varied[forest.feature[inner]]
        groups = [_Splits.of(forest.feature[inner][chosen], forest.threshold[inner][chosen],
                             ruled_out[chosen], tree[inner][chosen], trees)
                  for chosen in (~on_varied, on_varied)]
        return _Split(vary, groups[0], groups[1], value,
                      np.arange(trees, dtype=np.int64) * MOST_LEAVES)

    @staticmethod
    def joined(parts: Sequence[_Split]) -> _Split:
        """Forests' splits as one forest's: read on rows as wide as the widest."""
        return _Split(parts[0].vary,
                      _Splits.joined([part.shared for part in parts]),
                      _Splits.joined([part.per_row for part in parts]),
                      np.concatenate([part.value for part in parts]),
                      np.arange(sum(part.first.size for part in parts),
                                dtype=np.int64) * MOST_LEAVES)


def _below(count: Ints) -> Masks:
    """The mask of the first `count` leaves (0 to `MOST_LEAVES`)."""
    wide = np.left_shift(np.uint64(1), count.astype(np.uint64)) - np.uint64(1)
    result: Masks = wide.astype(np.uint32)
    return result


class Forests:
    """Several forests (several models) asked about the same rows at once: one read of all
    their trees, split by columns where every forest allows it (the module's note), each
    forest's own sum as its `predict` gives it. Rows are as wide as the widest forest's; a
    narrower forest reads their first columns (its features are a prefix of the others')."""

    def __init__(self, forests: Sequence[Forest], vary: tuple[int, ...]) -> None:
        if not forests:
            raise ValueError("no forests to read")
        self.forests = tuple(forests)
        self.features = max(f.features for f in forests)
        parts = [f.split_by(vary) for f in forests]
        self.split = (None if any(part is None for part in parts)
                      else _Split.joined([part for part in parts if part is not None]))
        ends = np.cumsum([f.roots.size for f in forests])
        self.trees = [slice(int(e) - f.roots.size, int(e)) for f, e in zip(forests, ends,
                                                                            strict=True)]

    def predict(self, rows: Sequence[Sequence[float]] | Floats) -> list[Floats]:
        """Per forest, the sum of its trees' leaves for each row."""
        x = np.asarray(rows, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self.features:
            raise ValueError(f"rows of {self.features} features wanted, got {x.shape}")
        readable = (None if self.split is None or x.shape[0] == 0
                    else self.split.readable(x))
        if self.split is None or readable is None:
            return [f.predict(x[:, :f.features]) for f in self.forests]
        leaves = self.split.leaves(readable)
        # Each forest's trees summed as `predict` sums them, to the last bit.
        return [np.ascontiguousarray(leaves[:, trees]).sum(axis=1) for trees in self.trees]


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
