"""Tennis bids by simulation: deal the cards we have not seen, play the game out, and bid
the card whose value best matches the tricks our hand takes.

At the Backhand bid we know only our Backhand; at the Forehand bid also our Backhand (as
remembered) and both Backhand bids. The rest is dealt at random to the hands we cannot
see, each unseen hand bids what `estimate` says it should, and each candidate bid
card is tried on the same layouts: taken out of our hand, the game is played out with
`search`'s fast policy, and the candidate scores the error its value would have
made against the tricks our hand took. The play-outs steer our hand towards the
rule-of-thumb bid for every candidate: steering for each candidate's own value would make
any bid look reachable. Candidates are the bid values near the estimate, one card per
value (the card the hand misses least in play), and the rule-of-thumb card, which also
wins ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.cards import Card, Suit
from bot.games.tennis_rules import bid_value, hand_id
from bot.games.tennis_views import TennisView

from ..core.budget import Budget
from ..core.sampling import sample_totals
from ..core.trick_masks import FULL, cards_of, deal_unseen, mask_of
from .estimate import best_bid, expected_tricks, rule_of_thumb_bid
from .search import TennisPosition

LAYOUTS = 24
REACH = 3  # candidate bids lie within this many tricks of the estimate
KINDS = {"Backhand": 0, "Forehand": 1}


def bid_candidates(hand: Sequence[Card], trump: Suit | None) -> list[Card]:
    """One card per bid value near what the rest of the hand should take."""
    by_value: dict[int, Card] = {}
    for c in hand:
        rest = [x for x in hand if x is not c]
        value = bid_value(c)
        if abs(expected_tricks(rest, trump) - value) > REACH:
            continue
        keep = int(c.rank) + (8 if c.suit == trump else 0)
        old = by_value.get(value)
        if old is None or keep < int(old.rank) + (8 if old.suit == trump else 0):
            by_value[value] = c
    return list(by_value.values())


def _bid_out(hand: int, trump: Suit | None) -> tuple[int, int]:
    """(hand less its bid card, bid) for a hand we cannot see, as the estimate bids it."""
    cards = cards_of(hand)
    c = best_bid(cards, trump)
    return hand & ~(1 << c.index), bid_value(c)


def choose_bid_by_simulation(view: TennisView, my_backhand: Sequence[Card] | None,
                             rng: random.Random, budget: Budget | None = None,
                             layouts: int = LAYOUTS) -> str | None:
    """The bid action; None when the budget ran out or a Forehand bid lacks the memory
    of our Backhand (a bot that took over the seat part way)."""
    assert view.seat is not None
    seat, opp = view.seat, 1 - view.seat
    kind = KINDS[view.bidding]
    hand = list(view.hand)
    reference = rule_of_thumb_bid(view, hand)
    candidates = bid_candidates(hand, view.trump)
    if reference not in candidates:
        candidates.append(reference)
    if len(candidates) <= 1:
        return f"bid:{candidates[0].text}" if candidates else None
    trump = -1 if view.trump is None else int(view.trump)
    known = mask_of(hand)
    hands = [0, 0, 0, 0]
    bids = [0, 0, 0, 0]
    if kind == 1:
        my_bh_bid, opp_bh_bid = view.backhand_bids[seat], view.backhand_bids[opp]
        if my_backhand is None or my_bh_bid is None or opp_bh_bid is None:
            return None
        hands[hand_id(seat, 0)] = mask_of(c for c in my_backhand if c != my_bh_bid)
        known |= mask_of(my_backhand) | 1 << my_bh_bid.index | 1 << opp_bh_bid.index
        bids[hand_id(seat, 0)] = bid_value(my_bh_bid)
        bids[hand_id(opp, 0)] = bid_value(opp_bh_bid)
        sizes = {hand_id(opp, 0): 12, hand_id(opp, 1): 13}
    else:
        sizes = {hand_id(opp, 0): 13, hand_id(seat, 1): 13, hand_id(opp, 1): 13}
    unseen = FULL & ~known
    mine = hand_id(seat, kind)
    leader = hand_id(1 - view.dealer, 1)  # the non-dealer's Forehand leads the first trick
    held = mask_of(hand)
    # Every candidate is played steering for the rule-of-thumb bid: a play-out that
    # steered for each candidate's own bid would make any bid look reachable.
    steer = bid_value(reference)
    bids[mine] = steer

    def draw() -> tuple[list[int], tuple[int, ...]]:
        """The unseen hands dealt, each that has not bid yet bidding as estimated."""
        dealt = deal_unseen(unseen, sizes, (0, 0, 0, 0), rng)
        for h, cards in dealt.items():
            if cards.bit_count() == 13:
                hands[h], bids[h] = _bid_out(cards, view.trump)
            else:
                hands[h] = cards
        return hands[:], tuple(bids)

    def value(layout: tuple[list[int], tuple[int, ...]], c: Card) -> float:
        dealt, dealt_bids = layout
        dealt[mine] = held & ~(1 << c.index)
        pos = TennisPosition(dealt[:], [], leader, trump, [0, 0, 0, 0], dealt_bids)
        pos.play_out()
        return -abs(pos.won[mine] - bid_value(c))

    totals = sample_totals(candidates, layouts, draw, value, budget)
    if totals is None:
        return None
    best = max(candidates, key=lambda c: (totals[c], c == reference, -c.index))
    return f"bid:{best.text}"
