"""The opening lead read (`leads.lead_weigh`): how much sharper declarer's picture of the
leader's hand is when the card search's layouts are weighed by the lead.

    python -m bench.strength bridge-lead-reading [--deals 60] [--first-seed S]
        [--layouts 100] [--tempers 0.02,0.05,0.1,0.25]

The deal set is bridge-play's (the first deals of matches --first-seed, ..., bid by
bridge-basic, passed-out seeds skipped). `bridge-advanced` makes the opening lead (the
learned model, as served). From declarer's seat after it, --layouts layouts are dealt as
its card search deals them before reading the lead (`advanced.decision`: the ranges, the
calls' check, the hand reading's weight). Each layout's weight is then the lead model's
chance of leading the card led from the leader's hand in it, at each temperature: the
layouts the search would keep are drawn by that weight, so a weighed average over these
layouts is what the kept ones average.

Printed per temperature, against the layouts unweighed: how far the layouts miss the
leader's real holding in the suit led (its length, its honour points, its honours from
the ten up that differ), weighed, with the change's 95% interval over deals; and the
weights' effective number of layouts (how many the weighing leaves in play). Only the
picture is measured here, never double-dummy tricks: whether a sharper picture plays
better is `bridge-lead-play`'s question.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

import numpy as np

from bot.ai import make_player
from bot.ai.bridge.advanced import auction_check, auction_ranges, decision
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.learning import leads
from bot.ai.bridge.learning.reading import view_weigh
from bot.ai.core.layouts import sample
from bot.games.bridge import ContractBridge
from bot.games.cards import Card

from .intervals import mean_half
from .strength_bridge_play import deal_set, spans

MEASURES = ("length", "honour points", "honours")


def holding(hand: Sequence[Card], suit: int) -> tuple[int, int, frozenset[int]]:
    """A hand's length, honour points and honours (ten up) in `suit`."""
    ranks = [c.rank for c in hand if c.suit == suit]
    return len(ranks), sum(max(0, r - 10) for r in ranks), frozenset(r for r in ranks
                                                                      if r >= 10)


def misses(layout: Sequence[Card], real: Sequence[Card], suit: int) -> list[float]:
    """How far a layout's hand misses the real one in `suit` (`MEASURES`)."""
    mine, theirs = holding(layout, suit), holding(real, suit)
    return [abs(mine[0] - theirs[0]), abs(mine[1] - theirs[1]), len(mine[2] ^ theirs[2])]


def deal_point(game: ContractBridge, seed: int, layouts: int, tempers: Sequence[float]
               ) -> tuple[list[float], list[list[float]], list[float]] | None:
    """Deal `seed` (`game`, bid: played on here) after its opening lead: the unweighed
    misses, the weighed ones and the effective number of layouts per temperature (None
    where no layout could be dealt)."""
    assert game.contract is not None
    leader = next(iter(game.to_act()))
    view, legal = game.view(leader), game.legal(leader)
    action = make_player("bridge", seed * 7 + leader, "bridge-advanced").choose(view, legal)
    game.apply(leader, action)
    led = Card.parse(action[5:])
    declarer = game.contract.declarer
    seen = game.view(declarer)
    # Legal or not, the layouts are those of any card declarer's side would play now.
    cards = [f"play:{c.text}" for c in seen.hand]
    know = decision(seen, cards, auction_ranges(seen), auction_check(seen),
                    view_weigh(seen)).know
    dealt = sample(know, layouts, random.Random(seed)).hands
    if not dealt:
        return None
    real = game.dealt[leader]
    hands = [[*hands[leader], led] for hands in dealt]
    missed = np.array([misses(hand, real, led.suit) for hand in hands], dtype=float)
    weighed, kept = [], []
    for temper in tempers:
        weigh = leads.weigh_lead(leader, led, tuple(seen.calls), Score.of(seen),
                                 seen.vulnerable, game.contract, temper)
        logs = np.array(weigh(leader, hands))
        w = np.exp(logs - logs.max())
        w /= w.sum()
        weighed.append([float(v) for v in w @ missed])
        kept.append(float(1 / (w * w).sum()))
    return [float(v) for v in missed.mean(axis=0)], weighed, kept


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.strength bridge-lead-reading")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=771300101)
    parser.add_argument("--layouts", type=int, default=100)
    parser.add_argument("--tempers", default="0.02,0.05,0.1,0.25",
                        help="softmax temperatures, comma-separated")
    args = parser.parse_args(argv)
    tempers = [float(t) for t in args.tempers.split(",")]
    if leads.shared() is None:
        print("the lead model did not load: nothing to measure")
        return 1
    seeds = deal_set(args.first_seed, args.deals)
    points = [p for p in (deal_point(game, seed, args.layouts, tempers)
                          for seed, game in seeds.items()) if p]
    print(f"The opening lead read from declarer's seat on {len(points)} deals "
          f"(seeds {spans(seeds)}), {args.layouts} layouts a deal as card play deals them")
    plain = np.array([p[0] for p in points])
    print("  misses of the leader's holding in the suit led, a layout: "
          + ", ".join(f"{m} {v:.3f}" for m, v in zip(MEASURES, plain.mean(axis=0),
                                                   strict=True))
          + "  (unweighed)")
    for k, temper in enumerate(tempers):
        weighed = np.array([p[1][k] for p in points])
        parts = []
        for m, name in enumerate(MEASURES):
            change, half = mean_half(list(weighed[:, m] - plain[:, m]))
            parts.append(f"{name} {weighed[:, m].mean():.3f} ({change:+.3f} ± "
                         f"{half if not math.isnan(half) else 0:.3f})")
        kept = float(np.mean([p[2][k] for p in points]))
        print(f"  weighed at {temper:g}: " + ", ".join(parts)
              + f"; effective layouts {kept:.1f} of {args.layouts}")
    return 0
