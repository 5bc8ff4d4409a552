"""AdvancedSpadesPlayer ("spades-advanced"): look-ahead by sampling the hidden hands.

Card play: deal the unseen cards to the other seats in ways that agree with what is known
(cards played, suits shown out of, a spade lead before spades were broken), and for each
candidate card play every layout to the end, with the fast policy of `search` for
all four seats or, with few cards left, exactly. Each finished deal is valued by the
game's score for our side against theirs (nils, sets, bags when they cost, the target),
and the card with the best average is played. The same layouts serve every candidate, so
the comparison between cards is not drowned by the luck of the deal.

The work is sized by counts, not by the clock, so a seed always gives the same decision;
if the budget runs out first, the rule-based `spades-basic` answer is played instead.
Bidding: see `bid_search`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.cards import Card
from bot.games.spades_view import SpadesView

from ..core.budget import Budget
from ..core.sampling import sample_totals
from ..core.search import end_value
from ..core.trick_masks import equivalent_classes, mask_of
from .basic import SpadesPlayer
from .bid_search import choose_bid_by_simulation, double_nil_pays
from .search import (
    Knowledge,
    Position,
    Stakes,
    read_knowledge,
    sample_hands,
)

PLAYOUTS = 120  # play-outs per decision, shared among the candidate cards
MIN_LAYOUTS = 6
EXACT_CARDS = 8  # with this many cards left in all hands (after ours), search exactly
EXACT_LAYOUTS = 12


class AdvancedSpadesPlayer:
    """Sampling and play-outs, scored by the game's score."""

    kind = "spades-advanced"

    def __init__(self, seed: int = 0, playouts: int = PLAYOUTS) -> None:
        self.seed = seed
        self.playouts = playouts
        self.basic = SpadesPlayer(seed)

    def choose(self, view: SpadesView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if len(legal) == 1:
            return legal[0]
        if legal[0].startswith("play:"):
            return self.choose_card(view, legal, budget)
        if "look" in legal and view.seat is not None:
            if "bid:double_nil" not in legal:
                return "look"
            blind = double_nil_pays(view, self._rng(view, "double nil"), budget)
            if blind is None:
                return self.basic.choose(view, legal, budget)
            return "bid:double_nil" if blind else "look"
        if view.seat is None:
            return self.basic.choose(view, legal, budget)
        bid = choose_bid_by_simulation(view, self._rng(view, "bid"), budget)
        if bid is None or bid not in legal:
            return self.basic.choose(view, legal, budget)
        return bid

    def _rng(self, view: SpadesView, what: str) -> random.Random:
        """The same decision gets the same random numbers (a string seed is stable)."""
        return random.Random(f"{self.seed}:{view.deal_no}:{view.seat}:{what}:"
                             f"{len(view.tricks)}:{len(view.trick)}")

    def choose_card(self, view: SpadesView, legal: Sequence[str],
                    budget: Budget | None) -> str:
        assert view.seat is not None
        by_index = {Card.parse(a[5:]).index: a for a in legal}
        know = read_knowledge(view)
        on_table = mask_of(c for _, c in view.trick)
        candidates = equivalent_classes(mask_of(Card.parse(a[5:]) for a in legal),
                                        know.unseen | on_table)
        if len(candidates) == 1:
            return by_index[candidates[0]]
        values = self.evaluate(view, know, candidates, budget)
        if values is None:
            return self.basic.choose(view, legal, budget)
        best = max(candidates, key=lambda c: (values[c], -c))
        return by_index[best]

    def evaluate(self, view: SpadesView, know: Knowledge, candidates: list[int],
                 budget: Budget | None) -> dict[int, float] | None:
        """Each candidate's total value over the sampled layouts (None: out of time)."""
        assert view.seat is not None
        stakes = Stakes(side=view.seat % 2, totals=(view.score.totals[0],
                                                    view.score.totals[1]),
                        target=view.target, bags_penalty=view.bags_penalty)
        bids = tuple(b if b is not None else 0 for b in view.bids)
        trick = [(s, c.index) for s, c in view.trick]
        exact = sum(know.sizes) - 1 <= EXACT_CARDS
        layouts = EXACT_LAYOUTS if exact else max(MIN_LAYOUTS,
                                                  self.playouts // len(candidates))
        rng = self._rng(view, "play")
        seat, broken, won = view.seat, view.spades_broken, list(view.tricks_won)

        def value(hands: list[int], c: int) -> float:
            pos = Position(hands[:], trick[:], seat, broken, won[:], bids)
            pos.play(c)
            return end_value(pos, exact, lambda p: p.turn % 2 == stakes.side,
                             lambda p: stakes.value(p.bids, p.won))

        return sample_totals(candidates, layouts, lambda: sample_hands(know, rng), value,
                             budget)
