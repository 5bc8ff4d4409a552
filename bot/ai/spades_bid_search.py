"""Spades bids by simulation: deal the other hands at random, play them out, pick the bid
whose score is best on average.

The hidden hands are sampled (nothing is known of them but the cards we hold), and each
layout is played out twice with `spades_search`'s fast policy: once with us bidding a
number (trying to win tricks), once with us bidding nil (ducking, partner covering). The
tricks our side takes give, for every bid, the score it would have earned: a contract is
worth its points only when the side makes it, and bags count when the table's options
make them cost. Nil is chosen when it pays better than any number by a clear margin.
Bids not yet made by others are guessed as ordinary bids (not nil) for the play-outs.
"""

from __future__ import annotations

import random

from bot.games.spades_scoring import contract_points, is_nil, nil_points
from bot.games.spades_view import SpadesView

from .budget import Budget
from .spades_search import Knowledge, Position, sample_hands
from .trick_masks import FULL, mask_of

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
    know = Knowledge(me, hand, FULL & ~hand, (13, 13, 13, 13), (0, 0, 0, 0))
    known = [b if b is not None else GUESSED_BID for b in view.bids]
    partner_bid = view.bids[partner]
    partner_nil = partner_bid is not None and is_nil(partner_bid)
    leader = (view.dealer + 1) % 4
    mine: list[int] = []  # my tricks per layout, bidding a number
    side: list[int] = []  # my side's tricks per layout (mine + partner's)
    partner_alone: list[int] = []
    nil_mine: list[int] = []
    nil_partner: list[int] = []
    for _ in range(layouts):
        if budget is not None and budget.spent():
            return None
        hands = sample_hands(know, rng)
        bids = known[:]
        bids[me] = GUESSED_BID
        pos = Position(hands[:], [], leader, False, [0, 0, 0, 0], tuple(bids))
        pos.play_out()
        mine.append(pos.won[me])
        side.append(pos.won[me] + pos.won[partner])
        partner_alone.append(pos.won[partner])
        if not partner_nil:
            bids[me] = 0
            pos = Position(hands[:], [], leader, False, [0, 0, 0, 0], tuple(bids))
            pos.play_out()
            nil_mine.append(pos.won[me])
            nil_partner.append(pos.won[partner])
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
