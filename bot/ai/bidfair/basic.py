"""A basic Bid Fair computer player: a crib of its least useful cards, bids only with strong
hands, an exchange when the crib looks better, greedy card-point play.

Reasoning behind the bidding: bidding makes the opponent the contract holder, who leads,
may exchange its hand for the crib and, reaching the contract, takes the difference bonus
(doubled if both bid) while the bidder gets only the reward of 40. So the player bids only
with a hand better than an average one, which expects to out-take the holder: then a high
bid rank makes the contract hard to reach, the bidder's other cards of that rank become
the top of their suits, and a bid card of a suit it put in the crib may come up trump
(40). An ace costs only 1 card point to place. Otherwise it places its least useful card
face down and is glad to hold a contract. In seeded tournaments of 400 matches this
threshold beat both always bidding and never bidding, and a crib of the least useful cards
beat cribs that stack or void a suit (suit length matters more than a trump chance).

It decides only from the view and the legal actions it is given.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from bot.games.bidfair_rank import (
    CONTRACT_VALUES,
    beats,
    bidfair_pack,
    card_points,
    make_power,
)
from bot.games.bidfair_view import BidFairView
from bot.games.cards import Card, Rank, Suit
from bot.games.tricks import Power

from ..core.budget import Budget

# How much a card is worth keeping, before trump and high rank are known.
_KEEP: dict[Rank, float] = {
    Rank.KING: 10, Rank.QUEEN: 9, Rank.JACK: 8, Rank.TEN: 7, Rank.NINE: 5, Rank.ACE: 3,
}
AVERAGE_KEEP = sum(_KEEP.values()) / len(_KEEP)
_PACK = tuple(bidfair_pack())

_RANK_DENIAL: dict[Rank, float] = {r: 2.0 * i for i, r in enumerate(CONTRACT_VALUES)}


def keep_value(c: Card, high: Rank | None = None, trump: Suit | None = None) -> float:
    value = _KEEP[c.rank]
    if high is not None and c.rank == high:
        value += 3
    if trump is not None and c.suit == trump:
        value += 5
    return value


def hand_strength(cards: Sequence[Card]) -> float:
    """How much better than an average hand of its size a hand looks (1.0: average)."""
    return sum(keep_value(c) for c in cards) / (AVERAGE_KEEP * len(cards))


def _cheapest(cards: Iterable[Card], power: Power, trump: Suit | None) -> Card:
    """The card that costs least to give away: fewest points, then non-trump, then weakest."""
    return min(cards, key=lambda c: (card_points(c), c.suit == trump, power(c, 1), c.index))


class BidFairPlayer:
    """The default Bid Fair computer player."""

    kind = "bidfair-basic"
    BID_STRENGTH = 1.1  # bid face up only with a hand this much better than an average one

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: BidFairView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if len(legal) == 1:
            return legal[0]
        if view.phase == "crib":
            return self._crib(view, legal)
        if view.phase == "bidding":
            return self._bid(view, legal)
        if view.phase == "exchange":
            return "exchange" if self._crib_looks_better(view) else "keep"
        return self._play(view, legal)

    # -- crib -----------------------------------------------------------------------

    @staticmethod
    def crib_plan(cards: Sequence[Card]) -> list[Card]:
        """The 4 cards to put in the crib from the 12 dealt: the least useful in play.

        Tournaments against variants showed that stacking a suit in the crib (for a trump
        bid) or voiding a suit both cost more in play than they bring.
        """
        return sorted(cards, key=lambda c: (keep_value(c), c.index))[:4]

    def _crib(self, view: BidFairView, legal: Sequence[str]) -> str:
        plan = self.crib_plan(list(view.hand) + list(view.my_crib))
        for c in plan:
            if f"crib:{c.text}" in legal and c not in view.my_crib:
                return f"crib:{c.text}"
        return legal[0]

    # -- bidding --------------------------------------------------------------------

    def _bid(self, view: BidFairView, legal: Sequence[str]) -> str:
        crib_suits = [c.suit for c in view.my_crib]
        ups = [Card.parse(a[3:]) for a in legal if a.startswith("up:")]
        downs = [Card.parse(a[5:]) for a in legal if a.startswith("down:")]
        junk = min(downs, key=lambda c: (keep_value(c), c.index))
        if hand_strength(view.hand) < self.BID_STRENGTH:
            return f"down:{junk.text}"

        def worth(c: Card) -> float:
            # Expected trump bonus, denial by a high rank, and our other cards of that rank
            # becoming top of their suits; less what the card itself is worth in play.
            in_crib = crib_suits.count(c.suit) + (6 - crib_suits.count(c.suit)) * 4 / 16
            same_rank = sum(x.rank == c.rank for x in view.hand) - 1
            return (40 * in_crib / 8 + _RANK_DENIAL[c.rank] + 3 * same_rank
                    - keep_value(c))

        if ups:
            best = max(ups, key=lambda c: (worth(c), c.index))
            if worth(best) > -keep_value(junk) + 4:
                return f"up:{best.text}"
        return f"down:{junk.text}"

    # -- exchange -------------------------------------------------------------------

    def _seen_elsewhere(self, view: BidFairView) -> set[Card]:
        seen = set(view.hand) | set(view.my_crib) | set(view.played)
        seen |= {p.card for p in view.bids if p is not None and p.card is not None}
        if view.cut is not None:
            seen.add(view.cut)
        return seen

    def _crib_looks_better(self, view: BidFairView) -> bool:
        """Compare the hand with the crib: what we put in it, plus the opponent's share,
        guessed as the weakest of the cards we have not seen (it put its least useful)."""
        high, trump = view.high_rank, view.trump
        seen = self._seen_elsewhere(view)
        unknown = sorted(keep_value(c, high, trump) for c in _PACK if c not in seen)
        known_in_crib = [c for c in view.my_crib if c != view.cut]
        unknown_in_crib = 7 - len(known_in_crib)
        weakest = unknown[:max(unknown_in_crib, len(unknown) // 3)]
        average = sum(weakest) / len(weakest) if weakest else 0.0
        crib = sum(keep_value(c, high, trump) for c in known_in_crib)
        crib += unknown_in_crib * average
        hand = sum(keep_value(c, high, trump) for c in view.hand)
        return crib > hand + 2

    # -- play -----------------------------------------------------------------------

    def _opponent_may_hold(self, view: BidFairView) -> list[Card]:
        """Cards the opponent might hold: all unseen ones (and my crib if they took it)."""
        me = view.seat
        out = set(_PACK) - set(view.hand) - set(view.played) - set(view.set_aside)
        out -= {p.card for p in view.bids if p is not None and p.card is not None}
        if view.cut is not None:
            out.discard(view.cut)
        opponent_took_crib = view.exchanged and view.holder is not None and view.holder != me
        if not opponent_took_crib:
            out -= set(view.my_crib)
        return sorted(out)

    def _play(self, view: BidFairView, legal: Sequence[str]) -> str:
        cards = [Card.parse(a[5:]) for a in legal]
        power = make_power(view.high_rank)
        trump = view.trump
        assert trump is not None
        if view.trick:
            led = view.trick[0][1]
            winners = [c for c in cards if beats(led, c, trump, power)]
            if winners:
                # Win as cheaply as possible; a second-played ace is top and worth 1 point.
                pick = min(winners, key=lambda c: (c.suit == trump and led.suit != trump,
                                                   power(c, 1), card_points(c)))
            else:
                pick = _cheapest(cards, power, trump)
            return f"play:{pick.text}"
        possible = self._opponent_may_hold(view)
        safe = [c for c in cards if self._cannot_be_beaten(c, possible, trump, power)]
        if safe:
            pick = max(safe, key=lambda c: (card_points(c), -power(c, 0), c.index))
        else:
            pick = _cheapest(cards, power, trump)
        return f"play:{pick.text}"

    @staticmethod
    def _cannot_be_beaten(c: Card, possible: Sequence[Card], trump: Suit,
                          power: Power) -> bool:
        same = [x for x in possible if x.suit == c.suit]
        if same:
            return not any(beats(c, x, trump, power) for x in same)
        # They may be void: then a trump beats a plain card.
        return c.suit == trump or not any(x.suit == trump for x in possible)
