"""SpadesPlayer ("spades-basic"): a sensible Spades partner, deciding only from its view.

Bidding (see spades.bidding): look first, count likely tricks, bid nil with a safe hand,
double nil only as a rare blind gamble. Play, in order of concern:

- as a nil bidder, stay under the winning card and shed high cards when void;
- with a nil partner still clean, cover: win tricks the partner would otherwise take,
  and lead high so the partner can play under;
- otherwise make the side's bid: win cheaply while tricks are still needed, never overtake
  a partner who is already winning, and once the bid is made duck to avoid bags (unless
  the opponents need nearly every trick left, when setting them is worth it); leave an
  opponent's nil bidder on lead to take the trick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.cards import FULL_DECK, Card, Suit
from bot.games.spades_scoring import is_nil
from bot.games.spades_view import SpadesView
from bot.games.tricks import trick_winner

from ..core.budget import Budget
from .bidding import choose_bid, wants_double_nil

SPADES = Suit.SPADES
DECK = frozenset(FULL_DECK)


def beats(c: Card, best: Card) -> bool:
    """Would `c` take the lead from `best` (the card now winning the trick)?"""
    if c.suit == best.suit:
        return c.rank > best.rank
    return c.suit == SPADES


def lowest(cards: Sequence[Card]) -> Card:
    """The cheapest card, keeping spades when there is a choice."""
    others = [c for c in cards if c.suit != SPADES]
    return min(others or cards, key=lambda c: c.rank)


def highest(cards: Sequence[Card]) -> Card:
    return max(cards, key=lambda c: c.rank)


@dataclass(slots=True)
class CardSituation:
    """What the seat knows now, worked out once per decision."""

    me: int
    partner: int
    hand: tuple[Card, ...]
    legal: list[Card]
    trick: tuple[tuple[int, Card], ...]
    outstanding: frozenset[Card]  # unseen cards: in other players' hands
    remaining: int  # tricks still to play, this one included
    need: int  # tricks our side still needs for its bid(s)
    opp_need: int  # tricks the opponents still need (-99: nothing to set)
    my_nil: bool
    partner_nil: bool
    opp_nils: frozenset[int]  # opponents whose nil is still clean

    @property
    def led(self) -> Suit | None:
        return self.trick[0][1].suit if self.trick else None

    def is_boss(self, c: Card) -> bool:
        """No unseen card of its suit is higher."""
        return not any(o.suit == c.suit and o.rank > c.rank for o in self.outstanding)


def read_situation(view: SpadesView, legal: list[Card]) -> CardSituation:
    assert view.seat is not None
    me, partner = view.seat, (view.seat + 2) % 4
    seen = {c for t in view.tricks for _, c in t.cards}
    seen.update(c for _, c in view.trick)
    seen.update(view.hand)
    bids = [b if b is not None else 0 for b in view.bids]
    won = view.tricks_won

    def side_need(a: int, b: int) -> int:
        if is_nil(bids[a]) and is_nil(bids[b]):
            return -99
        if is_nil(bids[b]):
            return bids[a] - won[a]
        if is_nil(bids[a]):
            return bids[b] - won[b]
        return bids[a] + bids[b] - won[a] - won[b]

    opponents = ((me + 1) % 4, (me + 3) % 4)
    return CardSituation(
        me=me, partner=partner, hand=view.hand, legal=legal, trick=view.trick,
        outstanding=DECK - seen,
        remaining=13 - len(view.tricks),
        need=side_need(me, partner), opp_need=side_need(*opponents),
        my_nil=is_nil(bids[me]), partner_nil=is_nil(bids[partner]) and won[partner] == 0,
        opp_nils=frozenset(o for o in opponents if is_nil(bids[o]) and won[o] == 0))


class SpadesPlayer:
    """The default Spades computer player."""

    kind = "spades-basic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SpadesView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if len(legal) == 1:
            return legal[0]
        if "look" in legal:
            if "bid:double_nil" in legal and wants_double_nil(view):
                return "bid:double_nil"
            return "look"
        if legal[0].startswith("bid:"):
            bid = choose_bid(view)
            return bid if bid in legal else legal[0]
        cards = [Card.parse(a.partition(":")[2]) for a in legal]
        return "play:" + self.choose_card(read_situation(view, cards)).text

    # -- card play ------------------------------------------------------------------

    def choose_card(self, t: CardSituation) -> Card:
        if t.my_nil:
            return self.lead_nil(t) if not t.trick else self.follow_nil(t)
        if t.partner_nil:
            return self.lead_cover(t) if not t.trick else self.follow_cover(t)
        if not t.trick:
            return self.lead(t)
        return self.follow(t)

    def competing(self, t: CardSituation) -> bool:
        """Still after tricks: our bid is not made, or the opponents can be set cheaply."""
        if t.need > 0:
            return True
        return 0 < t.opp_need <= t.remaining and t.remaining - t.opp_need < 2

    def lead(self, t: CardSituation) -> Card:
        if not self.competing(t) or t.opp_nils:
            # Low leads avoid bags and make an opponent's nil bidder play.
            return lowest(t.legal)
        bosses = [c for c in t.legal if c.suit != SPADES and t.is_boss(c)]
        if bosses:
            return highest(bosses)
        spades = [c for c in t.legal if c.suit == SPADES]
        if spades and t.is_boss(highest(spades)) and len(spades) >= 3:
            return highest(spades)  # draw the opponents' trumps
        has_trumps = any(c.suit == SPADES for c in t.hand)
        singles = [c for c in t.legal if c.suit != SPADES and has_trumps
                   and sum(1 for h in t.hand if h.suit == c.suit) == 1]
        if singles:
            return lowest(singles)  # void ourselves to ruff later
        return lowest(t.legal)

    def follow(self, t: CardSituation) -> Card:
        winner = trick_winner(t.trick, SPADES)
        best = next(c for s, c in t.trick if s == winner)
        winners = [c for c in t.legal if beats(c, best)]
        losers = [c for c in t.legal if not beats(c, best)]
        if winner == t.partner:
            return highest(losers) if losers and not self.competing(t) else lowest(t.legal)
        if winner in t.opp_nils and losers:
            return highest(losers)  # let the nil bidder keep the trick
        if not self.competing(t):
            if losers:
                return highest(losers)
            return highest(winners) if len(t.trick) == 3 else lowest(winners)
        if not winners:
            return lowest(t.legal)
        following = winners[0].suit == t.led
        last = len(t.trick) == 3
        if last or not following:
            return min(winners, key=lambda c: (c.suit == SPADES and t.led != SPADES, c.rank))
        bosses = [c for c in winners if t.is_boss(c)]
        if bosses:
            return min(bosses, key=lambda c: c.rank)
        if len(t.trick) == 2 or t.need >= t.remaining:
            return highest(winners)  # third hand high
        return lowest(t.legal)  # second hand low

    # -- nil bidder -------------------------------------------------------------------

    def lead_nil(self, t: CardSituation) -> Card:
        # The lowest card of the suit where most unseen cards outrank it.
        def danger(c: Card) -> tuple[int, int]:
            above = sum(1 for o in t.outstanding if o.suit == c.suit and o.rank > c.rank)
            return (-above, c.rank)
        return min(t.legal, key=danger)

    def follow_nil(self, t: CardSituation) -> Card:
        winner = trick_winner(t.trick, SPADES)
        best = next(c for s, c in t.trick if s == winner)
        losers = [c for c in t.legal if not beats(c, best)]
        if losers:
            # Shed the most dangerous card that still loses: spades last.
            non_spades = [c for c in losers if c.suit != SPADES]
            return highest(non_spades or losers)
        if len(t.trick) == 3:
            return highest(t.legal)
        return lowest(t.legal)  # someone after us may still overtake

    # -- covering a nil partner -----------------------------------------------------------

    def lead_cover(self, t: CardSituation) -> Card:
        non_spades = [c for c in t.legal if c.suit != SPADES]
        bosses = [c for c in non_spades if t.is_boss(c)]
        return highest(bosses or non_spades or t.legal)

    def follow_cover(self, t: CardSituation) -> Card:
        played = {s for s, _ in t.trick}
        winner = trick_winner(t.trick, SPADES)
        best = next(c for s, c in t.trick if s == winner)
        winners = [c for c in t.legal if beats(c, best)]
        if t.partner not in played:
            # Partner plays after us: win high so they can play under.
            if winners:
                following = [c for c in winners if c.suit == t.led]
                return highest(following) if following else lowest(winners)
            return lowest(t.legal)
        if winner == t.partner:
            if winners:
                return min(winners, key=lambda c: (c.suit == SPADES and t.led != SPADES,
                                                   c.rank))
            return lowest(t.legal)
        return self.follow(t)
