"""The strong Single Dummy Bridge computer player: bids and chooses its dummy from solved
samples, and plays by double-dummy solving.

Once both dummies are faced a player sees three hands, so the fourth (the opponent's own
hand) is every card it cannot see: the play is solved exactly (one layout). Before that,
`estimate` samples the hidden hands to estimate our tricks per strain with
either dummy. When the budget pays for no sample, the rule-based player answers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.bridge_auction import CALL_BY_TEXT as CALLS
from bot.games.bridge_auction import Bid, Strain
from bot.games.bridge_scoring import single_dummy_score
from bot.games.cards import FULL_DECK, Card
from bot.games.single_dummy_view import SingleDummyView

from ..core.budget import Budget
from ..core.card_search import Decision, search
from ..core.layouts import Knowledge
from .basic import SingleDummyPlayer
from .estimate import TrickEstimate, best_bid, compass, planned_samples

REDOUBLE_MAKES = 0.75  # redouble our doubled contract when it makes this often


def play_values(contract_level: int, strain: Strain, doubled: int, penalty: bool,
                declaring: bool) -> tuple[float, ...]:
    """What the deal scores for the side to play (our points less theirs) by its tricks."""
    values = []
    for tricks in range(14):
        ours = tricks if declaring else 13 - tricks
        mine, theirs = single_dummy_score(contract_level, strain, doubled, ours, penalty)
        values.append(float(mine - theirs) if declaring else float(theirs - mine))
    return tuple(values)


def play_decision(view: SingleDummyView, legal: Sequence[str]) -> Decision:
    """The card to choose: three hands seen, the fourth is the rest of the pack."""
    assert view.contract is not None and view.playing_hand is not None
    known: list[tuple[Card, ...] | None] = [None, None, None, None]
    seen = set(view.played) | {c for _, c in view.trick}
    for hand, cards in enumerate(view.hands):
        if cards is not None:
            known[compass(hand)] = cards
            seen.update(cards)
    unseen = tuple(c for c in FULL_DECK if c not in seen)
    sizes = [len(cards) if cards is not None else len(unseen) for cards in known]
    contract = view.contract
    leader = view.trick[0][0] if view.trick else view.playing_hand
    seat = view.seat
    assert seat is not None
    return Decision(
        know=Knowledge(known=tuple(known), unseen=unseen, sizes=tuple(sizes)),
        trump=contract.trump, leader=compass(leader), trick=tuple(c for _, c in view.trick),
        legal=tuple(Card.parse(text[5:]) for text in legal),
        value=play_values(contract.level, contract.strain, contract.doubled,
                          view.undertrick_penalty, seat == contract.declarer),
        tricks_won=view.tricks_won[seat])


class AdvancedSingleDummyPlayer:
    """Solved samples for the auction and the dummy choice, exact solving in the play."""

    kind = "single-dummy-advanced"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.basic = SingleDummyPlayer(seed)
        self.estimate: TrickEstimate | None = None
        self.estimate_deal = -1

    def choose(self, view: SingleDummyView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        fallback = self.basic.choose(view, legal)
        if len(legal) == 1 or budget is None or budget.spent():
            return fallback
        if view.phase == "play":
            rng = random.Random(f"{self.seed}:{view.deal_no}:{len(view.played)}")
            outcome = search(play_decision(view, legal), budget, rng,
                             preferred=Card.parse(fallback[5:]))
            return fallback if outcome is None else "play:" + outcome.card.text
        estimate = self._estimate(view, budget)
        if estimate is None or not estimate.samples:
            return fallback
        if view.phase == "dummy_choice":
            assert view.contract is not None
            return "dummy:hidden" if estimate.take_hidden(view.contract.strain) else \
                "dummy:revealed"
        return self._call(view, legal, estimate)

    def _estimate(self, view: SingleDummyView, budget: Budget | None) -> TrickEstimate | None:
        assert view.seat is not None
        revealed = view.hands[view.revealed]
        if revealed is None:
            return None
        if self.estimate is None or self.estimate_deal != view.deal_no:
            self.estimate = TrickEstimate(view.seat, view.hand, revealed)
            self.estimate_deal = view.deal_no
        more = planned_samples(budget, self.estimate.samples)
        if more:
            rng = random.Random(f"{self.seed}:{view.deal_no}:{self.estimate.dealt}")
            self.estimate.add(more, rng, budget)  # none when the budget is spent
        return self.estimate

    def _call(self, view: SingleDummyView, legal: Sequence[str],
              estimate: TrickEstimate) -> str:
        last: Bid | None = None
        ours = False
        doubled = 0
        for seat, text in view.calls:
            call = CALLS[text]
            if call.bid is not None:
                last, ours, doubled = call.bid, seat == view.seat, 0
            elif call.kind in ("double", "redouble"):
                doubled = 1 if call.kind == "double" else 2
        if last is not None and ours:
            # We hold the contract: redouble when the opponent doubled a sure one.
            if doubled == 1 and "redouble" in legal:
                _, made = estimate.expected_score(last.level, last.strain,
                                                  view.undertrick_penalty)
                if made >= REDOUBLE_MAKES:
                    return "redouble"
            return "pass"
        bids = {(bid.level, bid.strain): text for text in legal
                if (bid := CALLS[text].bid) is not None}
        choice = best_bid(estimate, list(bids), view.undertrick_penalty)
        if choice is None:
            return "pass" if "pass" in legal else legal[0]
        return bids[choice]
