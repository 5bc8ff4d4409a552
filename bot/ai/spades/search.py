"""Spades positions for search: bitmask hands, sampled layouts, fast play-outs, exact ends.

A `Position` is one fully known layout (every hand as a bitmask, the trick so far, tricks
won, bids): what a sampled guess of the hidden hands looks like. It plays cards by the
engine's rules (follow suit; no spade lead before spades are broken unless holding only
spades; spades trump), plays itself out with a fast rule-of-thumb policy for all four seats,
or is searched exactly when few cards are left. Deal results are scored with the engine's
own `spades_scoring.score_deal`. `tests/ai/test_search_masks.py` ties the rules here to the
engine on random positions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.spades_scoring import DOUBLE_NIL, NIL, score_deal
from bot.games.spades_view import SpadesView

from ..core.trick_masks import (
    ABOVE,
    FULL,
    SUIT_BITS,
    SUIT_OF,
    cards_of,
    deal_unseen,
    follow_mask,
    highest,
    lowest,
    mask_of,
    winner_of,
    winning_cards,
)
from .bidding import estimate_tricks

SPADE = 3
SPADE_BITS = SUIT_BITS[SPADE]
NON_SPADES = FULL & ~SPADE_BITS


@dataclass(slots=True)
class Position:
    """One layout of a deal in play, everything known (a sample, or the engine's truth)."""

    hands: list[int]  # per seat
    trick: list[tuple[int, int]]  # (seat, card index) in order
    turn: int
    broken: bool
    won: list[int]  # per seat
    bids: tuple[int, ...]  # per seat (nil 0, double nil -1)

    def copy(self) -> Position:
        return Position(self.hands[:], self.trick[:], self.turn, self.broken, self.won[:],
                        self.bids)

    @property
    def cards_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    def legal(self) -> int:
        """The cards the seat on turn may play, as a mask."""
        hand = self.hands[self.turn]
        if self.trick:
            return follow_mask(hand, SUIT_OF[self.trick[0][1]])
        if not self.broken:
            return (hand & NON_SPADES) or hand
        return hand

    def play(self, card: int) -> int | None:
        """Play `card` (assumed legal) for the seat on turn; the trick's winner when it ends."""
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        if SUIT_OF[card] == SPADE:
            self.broken = True
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < 4:
            self.turn = (seat + 1) % 4
            return None
        winner = winner_of(trick, SPADE)[0]
        self.won[winner] += 1
        self.trick = []
        self.turn = winner
        return winner

    def clean_nil(self, seat: int) -> bool:
        return self.bids[seat] <= 0 and self.won[seat] == 0

    # -- the fast policy ---------------------------------------------------------------

    def quick_card(self) -> int:
        """A sensible card for the seat on turn, by a few rules (used in play-outs)."""
        seat = self.turn
        legal = self.legal()
        if legal & (legal - 1) == 0:
            return lowest(legal)
        partner = (seat + 2) % 4
        trick = self.trick
        if not trick:
            if self.clean_nil(seat):
                return lowest(legal & NON_SPADES or legal)
            if self.clean_nil(partner):
                return highest(legal & NON_SPADES or legal)
            others = 0
            for s in range(4):
                if s != seat:
                    others |= self.hands[s]
            for c in _top_down(legal & NON_SPADES):
                if not ABOVE[c] & others:
                    return c  # a winner in a side suit
            return lowest(legal & NON_SPADES or legal)
        winner, best = winner_of(trick, SPADE)
        winners = winning_cards(legal, best, SPADE)
        losers = legal & ~winners
        if self.clean_nil(seat):
            if losers:
                return highest(losers & NON_SPADES or losers)
            return highest(winners) if len(trick) == 3 else lowest(winners)
        if winner == partner:
            if self.clean_nil(partner) and winners:
                return lowest(winners)
            return lowest(legal & NON_SPADES or legal)
        if self.clean_nil(winner) and losers:
            return highest(losers)  # leave the nil bidder holding the trick
        if winners:
            if len(trick) == 3 or SUIT_OF[lowest(winners)] != SUIT_OF[trick[0][1]]:
                return lowest(winners)
            return highest(winners) if len(trick) == 2 else lowest(legal)
        return lowest(legal & NON_SPADES or legal)

    def play_out(self) -> None:
        while self.hands[self.turn]:
            self.play(self.quick_card())


def _top_down(mask: int) -> list[int]:
    out = []
    while mask:
        top = highest(mask)
        out.append(top)
        mask &= ~(1 << top)
    return out


@dataclass(frozen=True, slots=True)
class Stakes:
    """How a finished deal is valued for one side: the game's score, not tricks alone."""

    side: int  # 0 North-South, 1 East-West
    totals: tuple[int, int]  # match totals before this deal
    target: int
    bags_penalty: bool
    win_bonus: int = 250  # what reaching the target first is worth beyond the points

    def value(self, bids: Sequence[int], won: Sequence[int]) -> float:
        score = score_deal(bids, won)
        ours, theirs = score.points[self.side], score.points[1 - self.side]
        if self.bags_penalty:
            # Each bag brings the 100-point penalty a tenth closer.
            ours -= 10 * score.bags[self.side]
            theirs -= 10 * score.bags[1 - self.side]
        value = float(ours - theirs)
        mine, other = self.totals[self.side] + ours, self.totals[1 - self.side] + theirs
        if max(mine, other) >= self.target and mine != other:
            value += self.win_bonus if mine > other else -self.win_bonus
        return value


# -- what a seat knows, and layouts that agree with it -------------------------------------


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of the hidden hands during play."""

    me: int
    hand: int
    unseen: int  # cards in the other three hands
    sizes: tuple[int, ...]  # cards each seat holds now
    voids: tuple[int, ...]  # per seat, a mask of suits' bits it cannot hold
    played: tuple[int, ...] = (0, 0, 0, 0)  # per seat, the cards it has played
    bids: tuple[int | None, ...] = (None, None, None, None)  # per seat, None: not yet


BID_SLACK = 2.0  # tricks a bid may be off the hand's estimate before a layout misfits
TOP_SPADES = (1 << 51) | (1 << 50)  # the ace and king of spades
LAYOUT_TRIES = 6


def bid_misfit(hand: int, bid: int | None) -> float:
    """How far a seat's whole hand (as dealt) is from what its bid said: 0 when it fits.

    A nil bidder (who looked at its hand) is unlikely to hold the ace or king of spades or
    a hand worth tricks; a number is about what the hand's estimate says. A double nil is
    bid blind and says nothing.
    """
    if bid is None or bid == DOUBLE_NIL:
        return 0.0
    estimate = estimate_tricks(cards_of(hand))
    if bid == NIL:
        return (hand & TOP_SPADES).bit_count() + max(0.0, estimate - BID_SLACK)
    return max(0.0, abs(estimate - bid) - BID_SLACK)


def read_knowledge(view: SpadesView) -> Knowledge:
    """Cards seen and suits each seat has shown out of, from the view."""
    assert view.seat is not None
    seen = mask_of(view.hand)
    voids = [0, 0, 0, 0]
    played = [0, 0, 0, 0]
    broken = False
    tricks = [t.cards for t in view.tricks] + ([view.trick] if view.trick else [])
    for cards in tricks:
        led = cards[0][1].suit
        if led == SPADE and not broken:
            # A spade led before spades were broken: the leader held nothing else.
            voids[cards[0][0]] |= NON_SPADES
        for seat, c in cards:
            seen |= 1 << c.index
            played[seat] |= 1 << c.index
            if c.suit != led:
                voids[seat] |= SUIT_BITS[led]
            if c.suit == SPADE:
                broken = True
    return Knowledge(view.seat, mask_of(view.hand), FULL & ~seen, view.hand_sizes,
                     tuple(voids), tuple(played), view.bids)


def sample_hands(know: Knowledge, rng: random.Random) -> list[int]:
    """The four hands of one layout agreeing with `know`: the unseen cards dealt at random
    to the other seats, each to a seat that may hold its suit and has room, and, of a few
    such deals, the first whose hands fit the seats' bids (else the one that fits best)."""
    others = {s: know.sizes[s] for s in range(4) if s != know.me}
    judged = [s for s in others if know.bids[s] is not None and know.bids[s] != DOUBLE_NIL]
    # A nil bidder holds no top spade: deal those as if it had shown out of them.
    barred = tuple(v | TOP_SPADES if know.bids[s] == NIL and s != know.me else v
                   for s, v in enumerate(know.voids))
    best: dict[int, int] = {}
    best_misfit = float("inf")
    for _ in range(LAYOUT_TRIES if judged else 1):
        dealt = deal_unseen(know.unseen, others, barred, rng)
        misfit = sum(bid_misfit(dealt[s] | know.played[s], know.bids[s]) for s in judged)
        if misfit < best_misfit:
            best, best_misfit = dealt, misfit
        if misfit == 0:
            break
    return [know.hand if s == know.me else best[s] for s in range(4)]
