"""AdvancedBidFairPlayer ("bidfair-advanced"): every decision by sampling and search.

The opponent's 12 cards are known (all we were not dealt); `knowledge` lists the
ways it may have split them (crib, bid card, hand) that agree with what we have seen, and
each decision draws layouts from them and values its options by the game's score on the
same layouts:
- the crib: a few plans made of our least useful cards, each played on from the crib to
  the end (`simulation`: modelled placements, the cut, the holder's exchange, the
  fast play-out);
- a placement (face up, face down, which card, a pass): each candidate played on the same
  way;
- the exchange: our hand against the crib we would get, each played out from our lead;
- a card: each candidate played out, or searched exactly once few cards are left.
The work is sized by counts, so a seed always gives the same decision; out of budget it
plays as `bidfair-basic`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from bot.games.bidfair_view import BidFairView, Placement
from bot.games.cards import FULL_DECK, Card

from ..core.budget import Budget
from ..core.sampling import sample_totals
from ..core.search import end_value
from ..core.trick_masks import bits, mask_of
from .basic import BidFairPlayer, keep_value
from .knowledge import (
    HIDDEN_BID,
    Holding,
    Knowledge,
    part_with_weight,
    read_knowledge,
    sample_holdings,
)
from .search import PACK_MASK, BidFairPosition, DealStakes, trick_rules
from .simulation import Match, finish_deal, place

PLAYOUTS = 160  # play-outs per card decision, shared among the candidate cards
MIN_LAYOUTS = 12
EXACT_CARDS = 8  # with this many cards left in both hands (after ours), search exactly
EXACT_LAYOUTS = 16
EXCHANGE_LAYOUTS = 80
PLACEMENT_LAYOUTS = 60
CRIB_LAYOUTS = 40
CRIB_CHOICE = 2  # crib plans draw from our least useful cards, this many beyond the 4


def _stakes(view: BidFairView) -> DealStakes:
    assert view.seat is not None and view.trump is not None
    trump = view.trump
    up = [p is not None and p.face_up and p.card is not None and p.card.suit == trump
          for p in view.bids]
    return DealStakes(view.seat, view.holder, view.contract_value,
                      all(p is not None and p.face_up for p in view.bids), (up[0], up[1]),
                      (view.score.totals[0], view.score.totals[1]), view.target)


def _match(view: BidFairView) -> Match:
    return Match((view.score.totals[0], view.score.totals[1]), view.target)


def _weighted_four(cards: list[int], rng: random.Random) -> int:
    """Four of `cards` drawn without replacement, each in proportion to how readily a
    player parts with it (Efraimidis-Spirakis keys)."""
    keyed = sorted(cards, key=lambda c: rng.random() ** (1.0 / part_with_weight(c)))
    return mask_of_list(keyed[-4:])


def mask_of_list(indices: Sequence[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


class AdvancedBidFairPlayer:
    kind = "bidfair-advanced"

    def __init__(self, seed: int = 0, playouts: int = PLAYOUTS) -> None:
        self.seed = seed
        self.playouts = playouts
        self.basic = BidFairPlayer(seed)

    def choose(self, view: BidFairView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if len(legal) == 1:
            return legal[0]
        pick: str | None = None
        if view.seat is not None:
            if view.phase == "crib":
                pick = self.choose_crib(view, legal, budget)
            elif view.phase == "bidding":
                pick = self.choose_placement(view, legal, budget)
            elif view.phase == "exchange":
                pick = self.choose_exchange(view, budget)
            elif view.phase == "play":
                pick = self.choose_card(view, legal, budget)
        if pick is None or pick not in legal:
            return self.basic.choose(view, legal, budget)
        return pick

    def _rng(self, view: BidFairView, what: str) -> random.Random:
        """The same decision gets the same random numbers (a string seed is stable)."""
        return random.Random(f"{self.seed}:{view.deal_no}:{view.redeals}:{view.seat}:{what}:"
                             f"{len(view.my_crib)}:{len(view.played)}")

    def _sample(self, view: BidFairView, what: str,
                count: int) -> tuple[random.Random, Knowledge, list[Holding]]:
        """This decision's random numbers, what the view tells of the opponent's cards,
        and `count` holdings of them drawn with those numbers (none: the view is out of
        step with what can be known)."""
        rng = self._rng(view, what)
        know = read_knowledge(view)
        return rng, know, sample_holdings(know, count, rng)

    # -- the crib -------------------------------------------------------------------

    def choose_crib(self, view: BidFairView, legal: Sequence[str],
                    budget: Budget | None) -> str | None:
        assert view.seat is not None
        me = view.seat
        given = mask_of(view.my_crib)
        hand = mask_of(view.hand)
        theirs = bits(PACK_MASK & ~(given | hand))
        owed = 4 - len(view.my_crib)
        pool = sorted(view.hand, key=lambda c: (keep_value(c), c.index))[:owed + CRIB_CHOICE]
        plans = [given | mask_of(extra) for extra in combinations(pool, owed)]
        if len(plans) > 1:
            rng = self._rng(view, "crib")
            match = _match(view)

            def draw_crib() -> tuple[int, int]:
                """Their four crib cards (weighted) and where the cut falls."""
                return _weighted_four(theirs, rng), rng.randrange(8)

            def crib_value(layout: tuple[int, int], i: int) -> float:
                their_crib, cut_at = layout
                crib = plans[i] | their_crib
                hands = [0, 0]
                hands[me], hands[1 - me] = (given | hand) & ~plans[i], (
                    mask_of_list(theirs) & ~their_crib)
                return finish_deal(hands, crib, bits(crib)[cut_at], view.dealer,
                                   [None, None], [False, False], me, match)

            totals = sample_totals(range(len(plans)), CRIB_LAYOUTS, draw_crib, crib_value,
                                   budget)
            if totals is None:
                return None
            plan = plans[max(range(len(plans)), key=lambda i: (totals[i], -i))]
        else:
            plan = plans[0]
        card = min(bits(plan & hand))
        return f"crib:{FULL_DECK[card].text}"

    # -- placements -----------------------------------------------------------------

    def _placement_candidates(self, view: BidFairView,
                              legal: Sequence[str]) -> list[str]:
        """Pass, the two least useful cards face down, and per rank one card face up (of
        the suit most of our crib cards are: the likeliest trump, for the 40 bonus)."""
        crib_suits = [c.suit for c in view.my_crib]
        out = ["pass"] if "pass" in legal else []
        downs = sorted((Card.parse(a[5:]) for a in legal if a.startswith("down:")),
                       key=lambda c: (keep_value(c), c.index))
        out += [f"down:{c.text}" for c in downs[:2]]
        by_rank: dict[int, Card] = {}
        for a in legal:
            if a.startswith("up:"):
                c = Card.parse(a[3:])
                key = (crib_suits.count(c.suit), -keep_value(c), c.index)
                old = by_rank.get(c.rank)
                if old is None or key > (crib_suits.count(old.suit), -keep_value(old),
                                         old.index):
                    by_rank[c.rank] = c
        out += [f"up:{c.text}" for c in by_rank.values()]
        return out

    def choose_placement(self, view: BidFairView, legal: Sequence[str],
                         budget: Budget | None) -> str | None:
        assert view.seat is not None
        me = view.seat
        candidates = self._placement_candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        rng, know, layouts = self._sample(view, "place", PLACEMENT_LAYOUTS)
        if not layouts:
            return None
        match = _match(view)
        mine = mask_of(view.hand)
        holdings = iter(layouts)

        def draw_placed() -> tuple[Holding, int, int, list[Placement | None]]:
            """The next holding, the crib and cut it makes, the placements it shows."""
            holding = next(holdings)
            crib = know.my_crib | holding.crib
            cut = bits(crib)[rng.randrange(8)]
            placed = list(view.bids)
            if holding.bid >= 0 and know.their_bid == HIDDEN_BID:
                placed[1 - me] = Placement(False, FULL_DECK[holding.bid])
            return holding, crib, cut, placed

        def placement_value(layout: tuple[Holding, int, int, list[Placement | None]],
                            action: str) -> float:
            holding, crib, cut, placed = layout
            hands = self._hands(me, mine, holding)
            mine_placed, passes = placed[:], list(view.passes)
            verb, _, text = action.partition(":")
            placement = None if verb == "pass" else Placement(verb == "up", Card.parse(text))
            place(placement, me, hands, mine_placed, passes)
            return finish_deal(hands, crib, cut, view.dealer, mine_placed, passes, me, match)

        totals = sample_totals(candidates, len(layouts), draw_placed, placement_value,
                               budget)
        if totals is None:
            return None
        return max(candidates, key=lambda a: totals[a])

    # -- the exchange ---------------------------------------------------------------

    def choose_exchange(self, view: BidFairView, budget: Budget | None) -> str | None:
        assert view.seat is not None and view.trump is not None
        me = view.seat
        _, know, layouts = self._sample(view, "exchange", EXCHANGE_LAYOUTS)
        if not layouts:
            return None
        stakes = _stakes(view)
        rules = trick_rules(view.high_rank, view.trump)
        mine = mask_of(view.hand)
        cut_bit = 1 << know.cut
        holdings = iter(layouts)

        def exchange_value(holding: Holding, exchange: bool) -> float:
            ours = (know.my_crib | holding.crib) & ~cut_bit if exchange else mine
            pos = BidFairPosition(self._hands(me, ours, holding), -1, me, [0, 0], rules)
            pos.play_out()
            return stakes.value_of(pos.captured)

        totals = sample_totals((False, True), len(layouts), lambda: next(holdings),
                               exchange_value, budget)
        if totals is None:
            return None
        return "exchange" if totals[True] > totals[False] else "keep"

    # -- card play ------------------------------------------------------------------

    def choose_card(self, view: BidFairView, legal: Sequence[str],
                    budget: Budget | None) -> str | None:
        assert view.seat is not None and view.trump is not None
        me = view.seat
        by_index = {Card.parse(a[5:]).index: a for a in legal}
        candidates = sorted(by_index)
        exact = view.hand_sizes[0] + view.hand_sizes[1] - 1 <= EXACT_CARDS
        count = EXACT_LAYOUTS if exact else max(MIN_LAYOUTS,
                                                self.playouts // len(candidates))
        _, _, layouts = self._sample(view, "play", count)
        if not layouts:
            return None
        stakes = _stakes(view)
        rules = trick_rules(view.high_rank, view.trump)
        led = view.trick[0][1].index if view.trick else -1
        captured = [view.captured[0], view.captured[1]]
        mine = mask_of(view.hand)
        holdings = iter(layouts)

        def card_value(holding: Holding, c: int) -> float:
            pos = BidFairPosition(self._hands(me, mine, holding), led, me, captured[:], rules)
            pos.play(c)
            return end_value(pos, exact, lambda p: p.turn == me,
                             lambda p: stakes.value_of(p.captured))

        totals = sample_totals(candidates, len(layouts), lambda: next(holdings), card_value,
                               budget)
        if totals is None:
            return None
        best = max(candidates, key=lambda c: (totals[c], -c))
        return by_index[best]

    @staticmethod
    def _hands(me: int, mine: int, holding: Holding) -> list[int]:
        hands = [0, 0]
        hands[me], hands[1 - me] = mine, holding.hand
        return hands
