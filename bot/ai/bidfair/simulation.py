"""Playing a sampled Bid Fair deal to its end from the crib or the bidding, for the
decisions taken before the cards are played (the crib, the placements).

Every card is known in a sample: the hands, the crib and the card its cut turns up. The
placements still to come are made by a simple model of a sensible player (bid face up
only with a strong hand, else place the least useful card face down; the same judgement
`bidfair-basic` uses), both passing throws the deal in (worth 0), the holder then exchanges
or keeps by whichever plays out better for it, and the play is the fast policy of
`search`. The deal is valued for one seat by the game's score (`DealStakes`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.bidfair_bidding import bid_floor, bid_turn, contract_of
from bot.games.bidfair_rank import CONTRACT_VALUES
from bot.games.bidfair_view import Placement
from bot.games.cards import FULL_DECK

from ..core.trick_masks import cards_of
from .basic import BidFairPlayer, hand_strength, keep_value
from .search import BidFairPosition, DealStakes, trick_rules


@dataclass(frozen=True, slots=True)
class Match:
    """Where the match stands, for valuing a deal: totals before it and the target."""

    totals: tuple[int, int]
    target: int


def model_placement(hand: int, seat: int, placed: list[Placement | None]) -> Placement:
    """The placement a sensible player makes (never a pass)."""
    cards = cards_of(hand)
    if hand_strength(cards) >= BidFairPlayer.BID_STRENGTH:
        floor = bid_floor(seat, placed)
        ups = [c for c in cards if floor is None or c.rank > floor]
        if ups:
            # The highest rank makes the contract hardest; among equals the card we miss least.
            return Placement(True, max(ups, key=lambda c: (c.rank, -keep_value(c), c.index)))
    return Placement(False, min(cards, key=lambda c: (keep_value(c), c.index)))


def place(placement: Placement | None, seat: int, hands: list[int],
          placed: list[Placement | None], passes: list[bool]) -> None:
    """Make a placement (None: a pass) in a sample."""
    if placement is None or placement.card is None:
        passes[seat] = True
        return
    hands[seat] &= ~(1 << placement.card.index)
    placed[seat] = placement


def finish_deal(hands: list[int], crib: int, cut: int, dealer: int,
                placed: list[Placement | None], passes: list[bool], me: int,
                match: Match) -> float:
    """Play a sampled deal on from its bidding to the end; its value for `me`. The lists
    are the sample's own (they are changed)."""
    while (seat := bid_turn(dealer, placed, passes)) is not None:
        if all(passes):
            return 0.0  # both passed: the deal is thrown in
        place(model_placement(hands[seat], seat, placed), seat, hands, placed, passes)
    if all(passes):
        return 0.0
    contract = contract_of(placed)
    cut_card = FULL_DECK[cut]
    if contract is None:
        holder, value, high = None, None, None
    else:
        bidder, high = contract
        holder, value = 1 - bidder, CONTRACT_VALUES[high]
    trump = cut_card.suit
    trump_bid = tuple(p is not None and p.face_up and p.card is not None
                      and p.card.suit == trump for p in placed)
    stakes = DealStakes(me, holder, value,
                        all(p is not None and p.face_up for p in placed),
                        (trump_bid[0], trump_bid[1]), match.totals, match.target)
    rules = trick_rules(high, trump)
    if holder is None:
        pos = BidFairPosition(hands[:], -1, 1 - dealer, [0, 0], rules)
        pos.play_out()
        return stakes.value_of(pos.captured)
    keep = BidFairPosition(hands[:], -1, holder, [0, 0], rules)
    keep.play_out()
    swapped = hands[:]
    swapped[holder] = crib & ~(1 << cut)
    exchange = BidFairPosition(swapped, -1, holder, [0, 0], rules)
    exchange.play_out()
    kept, took = stakes.value_of(keep.captured), stakes.value_of(exchange.captured)
    return max(kept, took) if holder == me else min(kept, took)
