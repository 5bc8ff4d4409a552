"""AdvancedTennisPlayer ("tennis-advanced"): card play by sampling the opponent's hands.

It remembers its own two hands as `tennis-basic` does (a Tennis view shows one at a time)
and the suits each opponent hand has shown out of. At each card it deals the unseen cards
to the opponent's Backhand and Forehand in ways that agree with that, and plays each
candidate card out on every layout (the fast policy of `search` for all four hands,
or exactly with few cards left), valuing the end of the game by both players' errors: ours
count against us, the opponent's for us. So it steers tricks to the hand that still needs
them and away from a hand that has made its bid, and pushes unwanted tricks onto the
opponent's hands. Bids are chosen by simulation (`bid_search`). The work is sized
by counts (a seed always gives the same card); out of budget, or missing the memory of its
other hand (a bot that took over a seat mid-game), it plays as `tennis-basic`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.cards import Card
from bot.games.tennis_rules import bid_value, hand_id
from bot.games.tennis_views import TennisView

from ..core.budget import Budget
from ..core.sampling import sample_totals
from ..core.search import end_value
from ..core.trick_masks import FULL, SUIT_BITS, SUIT_OF, equivalent_classes, mask_of
from .basic import OTHER_KIND, TennisPlayer
from .bid_search import choose_bid_by_simulation
from .search import TennisPosition, sample_opponent

PLAYOUTS = 120
MIN_LAYOUTS = 6
EXACT_CARDS = 8
EXACT_LAYOUTS = 10
KINDS = {"Backhand": 0, "Forehand": 1}


class AdvancedTennisPlayer(TennisPlayer):
    kind = "tennis-advanced"

    def __init__(self, seed: int = 0, playouts: int = PLAYOUTS) -> None:
        super().__init__(seed)
        self.playouts = playouts
        self._void_game = 0
        self._voids = [0, 0, 0, 0]  # per hand id: cards it cannot hold

    def choose(self, view: TennisView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if view.phase == "bidding" and len(legal) > 1 and view.seat is not None:
            self._remember(view)
            rng = random.Random(f"{self.seed}:{view.deal_no}:{view.seat}:{view.bidding}")
            bid = choose_bid_by_simulation(view, self._backhand(view), rng, budget)
            if bid is not None and bid in legal:
                return bid
        if view.phase != "play" or len(legal) == 1 or view.seat is None:
            return super().choose(view, legal, budget)
        self._remember(view)
        self._note_voids(view)
        picked = self._search(view, legal, budget)
        return picked if picked is not None else super().choose(view, legal, budget)

    def _backhand(self, view: TennisView) -> list[Card] | None:
        """Our Backhand as dealt (remembered from its bid), for the Forehand bid."""
        seen = self._seen.get("Backhand")
        return sorted(seen) if seen is not None and view.bidding == "Forehand" else None

    def _note_voids(self, view: TennisView) -> None:
        if view.deal_no != self._void_game:
            self._void_game, self._voids = view.deal_no, [0, 0, 0, 0]
        tricks = [list(zip(view.trick, view.trick_hands, strict=True))]
        if view.last_trick is not None:
            tricks.append(list(zip(view.last_trick.cards, view.last_trick.hands, strict=True)))
        for trick in tricks:
            if not trick:
                continue
            led = trick[0][0][1].suit
            for (seat, c), kind in trick:
                if c.suit != led:
                    self._voids[hand_id(seat, KINDS[kind])] |= SUIT_BITS[led]

    def _search(self, view: TennisView, legal: Sequence[str],
                budget: Budget | None) -> str | None:
        seat = view.seat
        assert seat is not None
        kind = view.hand_kind
        other_kind = OTHER_KIND[kind]
        bids = (view.backhand_bids[0], view.backhand_bids[1], view.forehand_bids[0],
                view.forehand_bids[1])
        if any(b is None for b in bids) or other_kind not in self._seen:
            return None
        bid_cards = {b for b in bids if b is not None}
        on_table = {c for _, c in view.trick}
        current = mask_of(view.hand)
        other = mask_of(self._seen[other_kind] - self._played - bid_cards - on_table)
        mine = [0, 0]
        mine[KINDS[kind]], mine[KINDS[other_kind]] = current, other
        gone = mask_of(self._played | bid_cards | on_table)
        unseen = FULL & ~gone & ~current & ~other
        played_now = {hand_id(s, KINDS[k]) for (s, _), k in zip(view.trick, view.trick_hands,
                                                              strict=True)}
        sizes = tuple(12 - view.tricks_played - (h in played_now) for h in range(4))
        opp = 1 - seat
        if unseen.bit_count() != sizes[opp] + sizes[opp + 2] or (
                current.bit_count() != sizes[hand_id(seat, KINDS[kind])]):
            return None  # memory out of step with the view: play from the view alone
        trick = [(hand_id(s, KINDS[k]), c.index)
                 for (s, c), k in zip(view.trick, view.trick_hands, strict=True)]
        leader = trick[0][0] if trick else hand_id(seat, KINDS[view.to_play_hand or kind])
        won = [view.backhand_tricks[0], view.backhand_tricks[1], view.forehand_tricks[0],
               view.forehand_tricks[1]]
        values = tuple(bid_value(b) for b in bids if b is not None)
        trump = -1 if view.trump is None else int(view.trump)
        by_index = {Card.parse(a[5:]).index: a for a in legal}
        candidates = equivalent_classes(mask_of(Card.parse(a[5:]) for a in legal),
                                        unseen | mask_of(on_table) | other)
        if len(candidates) == 1:
            return by_index[candidates[0]]
        exact = sum(sizes) - 1 <= EXACT_CARDS
        layouts = EXACT_LAYOUTS if exact else max(MIN_LAYOUTS,
                                                  self.playouts // len(candidates))
        rng = random.Random(f"{self.seed}:{view.deal_no}:{seat}:{view.tricks_played}:"
                            f"{len(view.trick)}")
        voids = tuple(self._voids)

        def draw() -> list[int]:
            return sample_opponent((mine[0], mine[1]), seat, unseen, sizes, voids, rng)

        def value(hands: list[int], c: int) -> float:
            pos = TennisPosition(hands[:], trick[:], leader, trump, won[:], values)
            pos.play(c)
            return end_value(pos, exact, lambda p: p.turn & 1 == seat,
                             lambda p: p.value(seat))

        totals = sample_totals(candidates, layouts, draw, value, budget)
        if totals is None:
            return None
        top = max(totals.values())
        tied = [c for c in candidates if totals[c] >= top - 1e-9]
        if len(tied) > 1:
            # Equal on the layouts: the rule-based player's sense decides.
            basic = Card.parse(super().choose(view, legal)[5:]).index
            same_run = [c for c in candidates if SUIT_OF[c] == SUIT_OF[basic] and c <= basic]
            if same_run and max(same_run) in tied:
                return by_index[max(same_run)]
        return by_index[tied[0]]
