"""What one Bid Fair seat knows of the hidden cards, and the opponent's holdings that agree.

With 24 cards and 12 each, a seat knows the opponent's 12 dealt cards exactly (all it was
not dealt). What is hidden is how the opponent split them: which 4 went to the crib and,
when its bid card lies face down, which one that is. So every possible holding can be
listed (at most 495 cribs times 8 bid cards) and checked against what is known: the cut
card came from the crib, an exchange swapped a hand for the crib (after our own exchange
the opponent's crib is known exactly), the cards the opponent played, and the suits it
showed out of. Each holding is weighted by how likely a player is to put those cards in
the crib and face down (both `bidfair-basic` and the greedy baseline part with aces and
nines first), and layouts are drawn by weight.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from bot.games.bidfair_view import BidFairView
from bot.games.cards import Rank

from ..core.trick_masks import SUIT_BITS, SUIT_OF, bits, mask_of
from .search import PACK_MASK, trick_rules

# How readily a player parts with a card of each rank (crib or face down): a guess at
# what players do, not a measured frequency; it only tilts the layouts.
PART_WITH: dict[int, float] = {
    int(Rank.ACE): 3.0, int(Rank.NINE): 2.0, int(Rank.TEN): 1.4, int(Rank.JACK): 1.0,
    int(Rank.QUEEN): 0.8, int(Rank.KING): 0.6}
_WEIGHT = tuple(PART_WITH.get(i % 13 + 2, 0.0) for i in range(52))
HIDDEN_BID = -1  # the opponent's bid card lies face down
NOT_PLACED = -2


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of a deal after the crib is built (bidding, exchange, play)."""

    me: int
    theirs: int  # the opponent's 12 dealt cards
    my_crib: int
    their_bid: int  # card index, HIDDEN_BID or NOT_PLACED
    cut: int  # card index, -1 before the cut
    they_exchanged: bool
    my_play_cards: int  # after our exchange: the crib cards we took (0 otherwise)
    their_played: int
    their_voids: int  # suits' bits the opponent has shown out of
    their_size: int  # cards in the opponent's hand now


def seats_of_plays(view: BidFairView) -> list[tuple[int, int]]:
    """(seat, card index) of every card played this deal, in order, the seats worked out
    from who led (the holder, else the non-dealer) and who won each trick."""
    if view.trump is None or not view.played:
        return []
    rules = trick_rules(view.high_rank, view.trump)
    leader = view.holder if view.holder is not None else 1 - view.dealer
    out: list[tuple[int, int]] = []
    cards = [c.index for c in view.played]
    for i in range(0, len(cards), 2):
        led = cards[i]
        out.append((leader, led))
        if i + 1 < len(cards):
            second = cards[i + 1]
            out.append((1 - leader, second))
            leader = 1 - leader if rules.beaten_by[led] >> second & 1 else leader
    return out


def read_knowledge(view: BidFairView) -> Knowledge:
    assert view.seat is not None
    me, opp = view.seat, 1 - view.seat
    plays = seats_of_plays(view)
    mine_played = mask_of_indices(c for s, c in plays if s == me)
    their_played = mask_of_indices(c for s, c in plays if s == opp)
    voids = 0
    for i in range(0, len(plays) - 1, 2):
        (_, led), (seat, second) = plays[i], plays[i + 1]
        if SUIT_OF[second] != SUIT_OF[led]:
            voids |= SUIT_BITS[SUIT_OF[led]] if seat == opp else 0
    i_exchanged = bool(view.exchanged) and view.holder == me
    they_exchanged = bool(view.exchanged) and view.holder == opp
    my_bid = view.bids[me]
    mine = mask_of(view.my_crib)
    if my_bid is not None and my_bid.card is not None:
        mine |= 1 << my_bid.card.index
    mine |= mask_of(view.set_aside) if i_exchanged else mask_of(view.hand) | mine_played
    their_bid_placement = view.bids[opp]
    if their_bid_placement is None:
        their_bid = NOT_PLACED
    elif their_bid_placement.card is None:
        their_bid = HIDDEN_BID
    else:
        their_bid = their_bid_placement.card.index
    return Knowledge(
        me=me, theirs=PACK_MASK & ~mine, my_crib=mask_of(view.my_crib), their_bid=their_bid,
        cut=view.cut.index if view.cut is not None else -1, they_exchanged=they_exchanged,
        my_play_cards=mask_of(view.hand) | mine_played if i_exchanged else 0,
        their_played=their_played, their_voids=voids, their_size=view.hand_sizes[opp])


def mask_of_indices(indices: Iterable[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


@dataclass(frozen=True, slots=True)
class Holding:
    """One way the opponent may have split its 12 cards."""

    hand: int  # its hand now
    crib: int  # the 4 it put in the crib
    bid: int  # its bid card's index (-1: not placed yet)


def holdings(know: Knowledge) -> tuple[list[Holding], list[float]]:
    """Every holding that agrees with `know`, and its weight."""
    out: list[Holding] = []
    weights: list[float] = []
    cut_bit = 1 << know.cut if know.cut >= 0 else 0
    theirs = bits(know.theirs)
    for crib_cards in combinations(theirs, 4):
        crib = 0
        w_crib = 1.0
        for c in crib_cards:
            crib |= 1 << c
            w_crib *= _WEIGHT[c]
        whole_crib = crib | know.my_crib
        if cut_bit and not whole_crib & cut_bit:
            continue
        if know.my_play_cards and whole_crib & ~cut_bit != know.my_play_cards:
            continue
        rest = know.theirs & ~crib
        if know.their_bid == NOT_PLACED:
            bids: list[int] = [-1]
        elif know.their_bid == HIDDEN_BID:
            bids = bits(rest)
        elif rest >> know.their_bid & 1:
            bids = [know.their_bid]
        else:
            continue
        for bid in bids:
            bid_bit = 1 << bid if bid >= 0 else 0
            start = whole_crib & ~cut_bit if know.they_exchanged else rest & ~bid_bit
            if know.their_played & ~start:
                continue
            hand = start & ~know.their_played
            if hand & know.their_voids or hand.bit_count() != know.their_size:
                continue
            weight = w_crib * (_WEIGHT[bid] if know.their_bid == HIDDEN_BID else 1.0)
            out.append(Holding(hand, crib, bid))
            weights.append(weight)
    return out, weights


def sample_holdings(know: Knowledge, n: int, rng: random.Random) -> list[Holding]:
    """`n` holdings drawn by weight (with repeats); none when nothing fits (a view that
    contradicts itself, which the engine never gives)."""
    options, weights = holdings(know)
    if not options:
        return []
    return rng.choices(options, weights, k=n)


def part_with_weight(card: int) -> float:
    return _WEIGHT[card]
