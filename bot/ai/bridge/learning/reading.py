"""Hand reading learned from self-play: what each hidden hand holds, for any auction so far.

    python -m bot.ai.bridge.learning.reading_training make --first 0 --deals 3000 --out ROWS.npz
    python -m bot.ai.bridge.learning.reading_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/hand_reading.npz

This module is what the players read (a worker imports it); the rows and the training
are `reading_training`'s, so that its command runs without this package importing it
first.

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

A round of the call values may read the means themselves as features (`reading_part`,
`features.READING_NAMES`; `rollouts --reading`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bot.games.bridge_auction import Call
from bot.games.bridge_view import BridgeView
from bot.games.cards import FULL_DECK, Card

from ...core.layouts import Weigh
from ..bidding.context import Context
from ..bidding.rubber import Score
from ..bidding.rules import Hand
from ..bidding.system import context_of
from .features import AUCTION_NAMES, HAND_NAMES, auction_part, hand_part
from .forest import Forest
from .loading import MODELS, Shelf, card_path

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

    def log_weights(self, seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        """`log_weight` of each of `hands` as `seat`'s (a `Weigh`)."""
        return [self.log_weight(seat, cards) for cards in hands]


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
        return self.read_all([facts], ctx, vulnerable)[0]

    def part(self, facts: Hand, ctx: Context, vulnerable: tuple[bool, bool]) -> list[float]:
        """`read`'s means alone, LHO's, partner's and RHO's in turn (`TARGETS`' order,
        `features.READING_NAMES`): the part of a row of the call values that read it."""
        return [float(v) for v in self.means([observed(facts, ctx, vulnerable)])[0]]

    def read_all(self, hands: Sequence[Hand], ctx: Context, vulnerable: tuple[bool, bool]
                 ) -> list[Reading]:
        """`read` of each of `hands` as `ctx.seat`'s, in one reading of the forest."""
        means = self.means([observed(facts, ctx, vulnerable) for facts in hands])
        bucket = min(len(ctx.calls), BUCKETS - 1)
        spread = [self.spread[t][bucket] for t in range(len(TARGETS))]
        spreads = tuple(tuple(spread[i * 5:i * 5 + 5]) for i in range(3))
        out = []
        for facts, row in zip(hands, means, strict=True):
            mean = [float(v) for v in row]
            alone_mean, alone_spread = dealt_alone(facts.cards)
            out.append(Reading(ctx.seat, tuple(tuple(mean[i * 5:i * 5 + 5]) for i in range(3)),
                               spreads, alone_mean, alone_spread))
        return out


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


# Without it (None), the layouts are dealt by the auction's ranges alone.
SHELF = Shelf(log, "hand reading", "layouts by the auction's ranges alone", _make, DEFAULT)
load = SHELF.load
shared = SHELF.shared


def weigh(facts: Hand, ctx: Context, vulnerable: tuple[bool, bool]) -> Weigh | None:
    """The shipped model's weight of a hidden hand, as `ctx.seat` holding `facts` reads
    the auction (None where no model loaded)."""
    model = shared()
    return None if model is None else model.read(facts, ctx, vulnerable).log_weights


def digest(model: Path = DEFAULT) -> str | None:
    """The model file's fingerprint (its bytes' SHA-256, 16 hex digits; None where it
    cannot be read): a round of the call values that reads the hand reading names the one
    it learned from, and is not asked beside another (its inputs would have moved)."""
    try:
        return hashlib.sha256(model.read_bytes()).hexdigest()[:16]
    except OSError:
        return None


def reading_part(facts: Hand, ctx: Context, vulnerable: tuple[bool, bool]) -> list[float]:
    """The shipped model's means (`HandReading.part`) as `ctx.seat` holding `facts` reads
    the auction: a decision's part of the rows of the call values that read the hand
    reading (a `features.Reader`). Asked only where the model loaded: a round that reads
    it does not act without it (`values.CallValues.acting`)."""
    model = shared()
    if model is None:
        raise RuntimeError("the hand reading is off: no reading part to read")
    return model.part(facts, ctx, vulnerable)


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
