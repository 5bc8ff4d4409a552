"""The Single Dummy Bridge computer player: bids from its hand and the revealed dummy,
chooses a dummy, and plays both of its hands by the shared bridge play heuristics.

It decides only from the view: its own hand, the dummy shown before the auction, both
dummies once faced, and the cards played so far.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.bridge_auction import CALL_BY_TEXT as CALLS
from bot.games.bridge_auction import Bid
from bot.games.cards import Card
from bot.games.single_dummy_view import SingleDummyView

from ..core.bridge_play import PlaySituation, choose_card
from ..core.budget import Budget
from .bidding import choose_call, choose_dummy


class SingleDummyPlayer:
    """Natural estimates for the auction, heuristics for the play."""

    kind = "single-dummy-basic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SingleDummyView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if view.phase == "auction":
            return self._call(view, legal)
        if view.phase == "dummy_choice":
            assert view.contract is not None
            revealed = view.hands[view.revealed] or ()
            return choose_dummy(view.hand, revealed, view.contract.strain)
        return self._play(view, legal)

    def _call(self, view: SingleDummyView, legal: Sequence[str]) -> str:
        last_bid: Bid | None = None
        last_bidder: int | None = None
        doubled = 0
        for seat, text in view.calls:
            call = CALLS[text]
            if call.bid is not None:
                last_bid, last_bidder, doubled = call.bid, seat, 0
            elif call.kind == "double":
                doubled = 1
            elif call.kind == "redouble":
                doubled = 2
        revealed = view.hands[view.revealed] or ()
        calls = [CALLS[text] for text in legal]
        choice = choose_call(view.hand, revealed, last_bid, last_bidder != view.seat,
                             doubled, calls, self.rng)
        return choice.text

    def _play(self, view: SingleDummyView, legal: Sequence[str]) -> str:
        playing = view.playing_hand
        assert playing is not None and view.contract is not None
        hand = view.hands[playing] or ()
        partner = view.hands[(playing + 2) % 4]
        next_hand = view.hands[(playing + 1) % 4]
        sit = PlaySituation(
            hand=tuple(hand), legal=tuple(Card.parse(text[5:]) for text in legal),
            trick=tuple(c for _, c in view.trick), trump=view.contract.strain.trump,
            declaring=view.seat == view.declarer, partner=partner, next_hand=next_hand,
            played=frozenset(view.played),
            first_lead=not view.played and not view.trick)
        return "play:" + choose_card(sit).text
