"""A Tennis computer player: honest bids, then steering each trick to the hand that needs it.

It decides only from its seat's view. Because a Tennis view shows one hand at a time, the
player remembers what it was shown of its own two hands this game (its own seat's
information) and the cards it has seen played; after a restart mid-game it simply knows
less and still plays from the view alone. Keep one player object per seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.cards import FULL_DECK, Card, Suit
from bot.games.tennis_rules import bid_value
from bot.games.tennis_views import TennisView
from bot.games.tricks import trick_winner

from ..core.budget import Budget
from .estimate import rule_of_thumb_bid

OTHER_KIND = {"Forehand": "Backhand", "Backhand": "Forehand"}


class TennisPlayer:
    """The default Tennis bot (kind "tennis-basic")."""

    kind = "tennis-basic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the player is deterministic; the seed is kept for the record
        self._deal_no = 0  # the game the memory below belongs to
        self._seen: dict[str, set[Card]] = {}  # own hands as shown this game, by kind
        self._played: set[Card] = set()

    # -- memory -------------------------------------------------------------------------

    def _remember(self, view: TennisView) -> None:
        new_game = view.phase == "bidding" and view.bidding == "Backhand" and len(view.hand) == 13
        seen = self._seen.get(view.hand_kind)
        stale = view.deal_no != self._deal_no or (seen is not None and not seen >= set(view.hand))
        if new_game or stale:  # e.g. a bot taking over a seat part way through a match
            self._deal_no, self._seen, self._played = view.deal_no, {}, set()
        if view.hand_kind and view.hand_kind not in self._seen:
            self._seen[view.hand_kind] = set(view.hand)
        for _, c in view.trick:
            self._played.add(c)
        if view.last_trick is not None:
            self._played.update(c for _, c in view.last_trick.cards)

    def _top_unseen(self, view: TennisView) -> list[int]:
        """Per suit, the highest rank that may still be in the opponent's hands (0: none)."""
        known = self._played.union(view.hand)
        for cards in self._seen.values():
            known |= cards
        for c in (*view.backhand_bids, *view.forehand_bids):
            if c is not None:
                known.add(c)
        top = [0, 0, 0, 0]
        for c in FULL_DECK:
            if c not in known and c.rank > top[c.suit]:
                top[c.suit] = c.rank
        return top

    # -- choosing -----------------------------------------------------------------------

    def choose(self, view: TennisView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        self._remember(view)
        if view.phase == "bidding":
            hand = [Card.parse(a[4:]) for a in legal]
            return "bid:" + rule_of_thumb_bid(view, hand).text
        cards = [Card.parse(a.partition(":")[2]) for a in legal]
        return "play:" + self._play(view, cards).text

    def _needs(self, view: TennisView, kind: str) -> int:
        """Tricks the viewer's hand of this kind still needs (<= 0: it must not win more)."""
        seat = view.seat if view.seat is not None else 0
        if kind == "Forehand":
            bid, won = view.forehand_bids[seat], view.forehand_tricks[seat]
        else:
            bid, won = view.backhand_bids[seat], view.backhand_tricks[seat]
        return (bid_value(bid) if bid is not None else 3) - won

    def _play(self, view: TennisView, cards: list[Card]) -> Card:
        kind = view.hand_kind
        other = OTHER_KIND[kind]
        need, other_need = self._needs(view, kind), self._needs(view, other)
        pos = len(view.trick)
        other_to_come = pos < 2  # our other hand plays later in this trick
        if pos:
            best = trick_winner(list(enumerate(c for _, c in view.trick)), view.trump)
            mine = view.trick[best][0] == view.seat
            best_kind = view.trick_hands[best]
        else:
            mine, best_kind = False, ""
        if need > 0 and (need >= other_need or not other_to_come):
            want_win = not (mine and best_kind == other and other_need > need)
        else:
            want_win = False
        top = self._top_unseen(view)
        if pos == 0 and not want_win and other_need > 0:
            lead = self._lead_to_other_hand(view, cards, other, top)
            if lead is not None:
                return lead
        if pos == 0:
            return self._lead(cards, want_win, view.trump, top)
        return self._follow(view, cards, want_win, pos, top)

    def _lead_to_other_hand(self, view: TennisView, cards: list[Card], other: str,
                            top: list[int]) -> Card | None:
        """A low lead in a suit where our other hand (as remembered) holds the top card."""
        remembered = self._seen.get(other)
        if not remembered:
            return None
        bids = {*view.backhand_bids, *view.forehand_bids}
        masters: dict[Suit, int] = {}
        for c in remembered - self._played - bids:
            if c.rank > top[c.suit] and c.rank > masters.get(c.suit, 0):
                masters[c.suit] = c.rank
        options = [c for c in cards if c.rank < masters.get(c.suit, 0)]
        return min(options, key=lambda c: c.rank) if options else None

    def _lead(self, cards: list[Card], want_win: bool, trump: Suit | None,
              top: list[int]) -> Card:
        if want_win:
            tops = [c for c in cards if c.rank > top[c.suit]]
            if tops:
                return max(tops, key=lambda c: (c.suit == trump, c.rank))
            lengths = {s: sum(1 for c in cards if c.suit == s) for s in Suit}
            return min(cards, key=lambda c: (-lengths[c.suit], c.rank))
        # Lead low, side suits first: a hand that must not win gives the lead away.
        return min(cards, key=lambda c: (c.suit == trump, c.rank))

    def _follow(self, view: TennisView, cards: list[Card], want_win: bool, pos: int,
                top: list[int]) -> Card:
        trick = [c for _, c in view.trick]
        trump = view.trump

        def wins(c: Card) -> bool:
            return trick_winner([*enumerate(trick), (len(trick), c)], trump) == len(trick)

        winners = [c for c in cards if wins(c)]
        losers = [c for c in cards if not wins(c)]
        opponent_later = pos < 3
        if want_win:
            if not winners:
                return min(cards, key=lambda c: (c.suit == trump, c.rank))
            if not opponent_later:
                return min(winners, key=lambda c: (c.suit == trump, c.rank))
            sure = [c for c in winners if c.rank > top[c.suit]]
            if sure:
                return min(sure, key=lambda c: (c.suit == trump, c.rank))
            return max(winners, key=lambda c: (c.suit == trump, c.rank))
        if losers:
            # Dump the most dangerous card that still loses this trick.
            return max(losers, key=lambda c: (c.suit == trump, c.rank))
        if opponent_later:
            return min(winners, key=lambda c: (c.suit == trump, c.rank))
        return max(winners, key=lambda c: (c.suit == trump, c.rank))
