"""The Contract Bridge computer player: the bidding system (`bidding`) and the play heuristics.

It decides from the views it is given: its hand, dummy once faced, the auction, and the
cards played to this deal's tricks (`view.played`, what a player at the table remembers).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.bridge_auction import Call
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card, Suit

from ..core.bridge_play import PlaySituation, choose_card
from ..core.budget import Budget
from .bidding import Score, choose_call


def partner_suits(calls: Sequence[tuple[int, Call]], leads: Sequence[tuple[int, Suit]],
                  partner: int) -> tuple[Suit, ...]:
    """Suits partner led (latest first), then suits partner bid (latest first)."""
    out: list[Suit] = []
    for seat, suit in reversed(leads):
        if seat == partner and suit not in out:
            out.append(suit)
    for seat, call in reversed(calls):
        if seat == partner and call.bid is not None:
            bid_suit = call.bid.strain.trump
            if bid_suit is not None and bid_suit not in out:
                out.append(bid_suit)
    return tuple(out)


class BridgePlayer:
    """Bids by the natural system in `bidding` and plays by `core.bridge_play`'s heuristics."""

    kind = "bridge-basic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: BridgeView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if view.phase == "bidding" or view.contract is None:
            assert view.seat is not None
            return choose_call(view.hand, view.seat, view.calls, legal,
                               score=Score.of(view))[0]
        return self._play(view, legal)

    def _play(self, view: BridgeView, legal: Sequence[str]) -> str:
        played = view.played
        leads = [(played[i][0], played[i][1].suit) for i in range(0, len(played), 4)]
        contract = view.contract
        assert contract is not None and view.seat is not None
        seat, declarer, dummy = view.seat, view.declarer, view.dummy
        playing = view.playing_for if view.playing_for is not None else seat
        dummy_hand = view.dummy_hand or None
        hand = view.dummy_hand if playing == dummy and playing != seat else view.hand
        declaring = seat == declarer
        partner: tuple[Card, ...] | None = None
        if declaring:
            partner = view.hand if playing == dummy else dummy_hand
        nxt = (playing + 1) % 4
        next_hand = dummy_hand if nxt == dummy and not declaring else None
        cards = [Card.parse(text[5:]) for text in legal]
        sit = PlaySituation(
            hand=tuple(hand), legal=tuple(cards), trick=tuple(c for _, c in view.trick),
            trump=contract.strain.trump, declaring=declaring, partner=partner,
            next_hand=next_hand, played=frozenset(c for _, c in played),
            partner_suits=() if declaring else partner_suits(
                view.calls, leads, (seat + 2) % 4),
            first_lead=sum(view.tricks_won) == 0 and not view.trick)
        return "play:" + choose_card(sit).text
