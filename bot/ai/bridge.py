"""The Contract Bridge computer player: the bidding system (bot.ai.bidding) and the play heuristics.

It decides from the views it is given. A view shows only the current and the last trick,
so the player remembers the tricks it has seen during the deal (it plays to every trick
it is in, so each completed trick shows up as `last_trick` at its next turn).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.games.bridge_auction import Call
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card, Suit

from .bidding import choose_call
from .bridge_play import PlaySituation, choose_card
from .budget import Budget


class TrickMemory:
    """Cards seen played in completed tricks of the current deal, and who led what."""

    def __init__(self) -> None:
        self.deal_no = -1
        self.seen: set[Card] = set()
        self.tricks: set[tuple[Card, ...]] = set()
        self.leads: list[tuple[int, Suit]] = []

    def update(self, deal_no: int, last: Sequence[tuple[int, Card]] | None) -> None:
        if deal_no != self.deal_no:
            self.deal_no = deal_no
            self.seen, self.tricks, self.leads = set(), set(), []
        if last:
            key = tuple(c for _, c in last)
            if key not in self.tricks:
                self.tricks.add(key)
                self.seen.update(key)
                self.leads.append((last[0][0], last[0][1].suit))


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
    """Bids by the natural system in bot.ai.bidding and plays by bridge_play's heuristics."""

    kind = "bridge-basic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.memory = TrickMemory()

    def choose(self, view: BridgeView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if view.phase == "bidding" or view.contract is None:
            assert view.seat is not None
            return choose_call(view.hand, view.seat, view.calls, legal)[0]
        return self._play(view, legal)

    def _play(self, view: BridgeView, legal: Sequence[str]) -> str:
        last = view.last_trick.cards if view.last_trick is not None else None
        self.memory.update(view.deal_no, last)
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
            next_hand=next_hand, played=frozenset(self.memory.seen),
            partner_suits=() if declaring else partner_suits(
                view.calls, self.memory.leads, (seat + 2) % 4),
            first_lead=sum(view.tricks_won) == 0 and not view.trick)
        return "play:" + choose_card(sit).text


# The kinds of player for this game, the strongest (the default) first.
PLAYERS: dict[str, Callable[[int], BridgePlayer]] = {BridgePlayer.kind: BridgePlayer}
