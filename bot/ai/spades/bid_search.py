"""Spades bids by simulation: deal the other hands at random, play them out, pick the bid
whose score is best on average.

The hidden hands are sampled (nothing is known of them but the cards we hold), and each
layout is played out twice with `search`'s fast policy: once with us bidding a
number (trying to win tricks), once with us bidding nil (ducking, partner covering). The
tricks our side takes give, for every bid, the score it would have earned: a contract is
worth its points only when the side makes it, and bags count when the table's options
make them cost. Nil is chosen when it pays better than any number by a clear margin.
Bids not yet made by others are guessed as ordinary bids (not nil) for the play-outs.
"""

from __future__ import annotations

import random

from bot.games.spades_scoring import DOUBLE_NIL, NIL, contract_points, is_nil, nil_points
from bot.games.spades_view import SpadesView

from ..core.budget import Budget
from ..core.sampling import sample_values
from ..core.trick_masks import FULL, cards_of, mask_of
from .bidding import estimate_tricks, nil_is_safe
from .search import Knowledge, Position, Stakes, sample_hands

LAYOUTS = 48
NIL_MARGIN = 25.0  # points a nil must be expected to gain over the best number
NIL_SAFETY = 0.72  # and how often, at least, it must have survived the play-outs
GUESSED_BID = 3  # an unknown bid, for the play-outs' sake


def choose_bid_by_simulation(view: SpadesView, rng: random.Random,
                             budget: Budget | None = None,
                             layouts: int = LAYOUTS) -> str | None:
    """The bid action, or None when the budget ran out first."""
    assert view.seat is not None
    me, partner = view.seat, (view.seat + 2) % 4
    hand = mask_of(view.hand)
    know = Knowledge(me, hand, FULL & ~hand, (13, 13, 13, 13), (0, 0, 0, 0), bids=view.bids)
    known = [b if b is not None else GUESSED_BID for b in view.bids]
    partner_bid = view.bids[partner]
    partner_nil = partner_bid is not None and is_nil(partner_bid)
    leader = (view.dealer + 1) % 4
    # A number (guessed) for us, and nil unless partner bid nil: per layout, the tricks
    # we and partner take in the play-out.
    candidates = (GUESSED_BID,) if partner_nil else (GUESSED_BID, 0)

    def taken(hands: list[int], mine_bid: int) -> tuple[int, int]:
        bids = known[:]
        bids[me] = mine_bid
        pos = Position(hands[:], [], leader, False, [0, 0, 0, 0], tuple(bids))
        pos.play_out()
        return pos.won[me], pos.won[partner]

    outcomes = sample_values(candidates, layouts, lambda: sample_hands(know, rng), taken,
                             budget)
    if outcomes is None:
        return None
    mine = [t for t, _ in outcomes[GUESSED_BID]]  # my tricks per layout, bidding a number
    side = [t + p for t, p in outcomes[GUESSED_BID]]  # my side's tricks per layout
    partner_alone = [p for _, p in outcomes[GUESSED_BID]]
    nil_mine = [t for t, _ in outcomes.get(0, [])]
    nil_partner = [p for _, p in outcomes.get(0, [])]
    bag_cost = 10 if view.bags_penalty else 0

    def contract_value(contract: int, taken: list[int]) -> float:
        total = 0.0
        for t in taken:
            points, bags = contract_points(contract, t)
            total += points - bag_cost * bags
        return total / len(taken)

    if partner_nil:
        # Our bid is scored alone, on our own tricks.
        best = max(range(1, 14), key=lambda b: (contract_value(b, mine), -b))
        return f"bid:{best}"
    if partner_bid is not None:
        base = partner_bid
        partner_guess = partner_bid
    else:
        # Partner will bid about what they take: the side's contract is ours plus that.
        partner_guess = max(1, round(sum(partner_alone) / len(partner_alone)))
        base = partner_guess
    best = max(range(1, 14), key=lambda b: (contract_value(base + b, side), -b))
    best_value = contract_value(base + best, side)
    if nil_mine:
        survived = sum(1 for t in nil_mine if t == 0) / len(nil_mine)
        nil_value = (sum(nil_points(0, t) for t in nil_mine) / len(nil_mine)
                     + contract_value(partner_guess, nil_partner))
        if survived >= NIL_SAFETY and nil_value > best_value + NIL_MARGIN:
            return "bid:nil"
    return f"bid:{min(13, best)}"


DOUBLE_NIL_LAYOUTS = 48
DOUBLE_NIL_MARGIN = 20.0  # points a double nil must be expected to gain over looking


def _bid_for(hand: int) -> int:
    """What a seat that looks at `hand` bids, by the rule-of-thumb estimate (for layouts)."""
    cards = cards_of(hand)
    estimate = estimate_tricks(cards)
    if estimate < 1.3 and nil_is_safe(cards):
        return NIL
    return min(13, max(1, int(estimate + 0.35)))


def double_nil_pays(view: SpadesView, rng: random.Random, budget: Budget | None = None,
                    layouts: int = DOUBLE_NIL_LAYOUTS) -> bool | None:
    """Whether bidding double nil blind is worth more than looking, on the game's score:
    deal every hand at random (ours is unseen too), and play each layout out twice, once
    with our double nil and once with the bid our hand would get after a look (the other
    seats bid what they bid, or what their hands are worth). The target counts (`Stakes`
    gives reaching it first a bonus), so a double nil pays mostly when far behind near the
    end. None when the budget ran out."""
    assert view.seat is not None
    me = view.seat
    stakes = Stakes(side=me % 2, totals=(view.score.totals[0], view.score.totals[1]),
                    target=view.target, bags_penalty=view.bags_penalty)
    leader = (view.dealer + 1) % 4

    def draw() -> tuple[int, list[int]]:
        """Every hand dealt at random, ours too."""
        mine = 0
        for c in rng.sample(range(52), 13):
            mine |= 1 << c
        know = Knowledge(me, mine, FULL & ~mine, (13, 13, 13, 13), (0, 0, 0, 0),
                         bids=view.bids)
        return mine, sample_hands(know, rng)

    def value(layout: tuple[int, list[int]], double_nil: bool) -> float:
        mine, hands = layout
        bids = [b if b is not None else _bid_for(hands[s]) for s, b in enumerate(view.bids)]
        bids[me] = DOUBLE_NIL if double_nil else _bid_for(mine)
        pos = Position(hands[:], [], leader, False, [0, 0, 0, 0], tuple(bids))
        pos.play_out()
        return stakes.value(pos.bids, pos.won)

    values = sample_values((True, False), layouts, draw, value, budget)
    if values is None:
        return None
    gain = sum((blind - looked for blind, looked in zip(values[True], values[False],
                                                         strict=True)), 0.0)
    return gain / layouts > DOUBLE_NIL_MARGIN
