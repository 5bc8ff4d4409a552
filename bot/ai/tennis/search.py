"""Tennis positions for search: the four hands as bitmasks, fast play-outs, sampled layouts.

Hands are numbered as the engine numbers them (`tennis_rules`: hand = kind * 2 + seat) and
a trick is played in `tennis_rules.play_order` from the leading hand. A game is valued by
`tennis_rules.game_errors`, for both players: the opponent's misses count as much as ours.
`tests/ai/test_search_masks.py` ties the rules here to the engine on random positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.games.tennis_rules import game_errors, play_order

from ..core.trick_masks import (
    ABOVE,
    SUIT_BITS,
    SUIT_OF,
    deal_unseen,
    follow_mask,
    highest,
    lowest,
    winner_of,
    winning_cards,
)


@dataclass(slots=True)
class TennisPosition:
    """One fully known layout of a Tennis game in play."""

    hands: list[int]  # per hand id (kind * 2 + seat)
    trick: list[tuple[int, int]]  # (hand, card index) in order
    leader: int  # the hand that leads (led) the current trick
    trump: int  # suit number, -1 for notrump
    won: list[int]  # tricks per hand
    bids: tuple[int, ...]  # tricks bid per hand

    def copy(self) -> TennisPosition:
        return TennisPosition(self.hands[:], self.trick[:], self.leader, self.trump,
                              self.won[:], self.bids)

    @property
    def turn(self) -> int:
        return play_order(self.leader)[len(self.trick)]

    def legal(self) -> int:
        return follow_mask(self.hands[self.turn], SUIT_OF[self.trick[0][1]] if self.trick else -1)

    def play(self, card: int) -> int | None:
        """Play `card` for the hand on turn; the winning hand when the trick ends."""
        h = self.turn
        self.hands[h] &= ~(1 << card)
        self.trick.append((h, card))
        if len(self.trick) < 4:
            return None
        winner = winner_of(self.trick, self.trump)[0]
        self.won[winner] += 1
        self.trick = []
        self.leader = winner
        return winner

    def errors(self, seat: int) -> int:
        return game_errors(self.won[2 + seat], self.bids[2 + seat],
                           self.won[seat], self.bids[seat])

    def value(self, seat: int) -> int:
        """The opponent's errors less ours: what the game is worth to `seat`."""
        return self.errors(1 - seat) - self.errors(seat)

    # -- the fast policy -----------------------------------------------------------------

    def quick_card(self) -> int:
        """A card for the hand on turn: win while the hand needs tricks (without taking
        one from our other hand that needs it more), else stay under."""
        h = self.turn
        legal = self.legal()
        if legal & (legal - 1) == 0:
            return lowest(legal)
        trump = self.trump
        plain = legal & ~SUIT_BITS[trump] if trump >= 0 else legal
        need = self.bids[h] - self.won[h]
        partner = h ^ 2
        if not self.trick:
            if need <= 0:
                return lowest(plain or legal)
            others = 0
            for o in range(4):
                if o != h:
                    others |= self.hands[o]
            m = legal
            while m:
                c = highest(m)
                if not ABOVE[c] & others and (trump < 0 or SUIT_OF[c] == trump
                                              or not others & SUIT_BITS[trump]
                                              or others & SUIT_BITS[SUIT_OF[c]]):
                    return c
                m &= ~(1 << c)
            return lowest(plain or legal)
        winner, best = winner_of(self.trick, trump)
        winners = winning_cards(legal, best, trump)
        losers = legal & ~winners
        last = len(self.trick) == 3
        if need > 0 and winners and not (
                winner == partner and self.bids[partner] - self.won[partner] >= need):
            return lowest(winners) if last or winner == partner else highest(winners)
        if losers:
            return highest(losers)
        return highest(winners) if last else lowest(winners)

    def play_out(self) -> None:
        while self.hands[self.turn]:
            self.play(self.quick_card())


def sample_opponent(mine: tuple[int, int], seat: int, unseen: int, sizes: tuple[int, ...],
                    voids: tuple[int, ...], rng: random.Random) -> list[int]:
    """All four hands: ours as known (`mine`: Backhand, Forehand), the `unseen` cards
    split between the opponent's two hands by their `sizes` (per hand id), each card to
    a hand that has not shown out of its suit (`voids`: per hand id, a mask)."""
    other = 1 - seat
    dealt = deal_unseen(unseen, {other: sizes[other], other + 2: sizes[other + 2]}, voids, rng)
    hands = [0, 0, 0, 0]
    hands[seat], hands[seat + 2] = mine
    hands[other], hands[other + 2] = dealt[other], dealt[other + 2]
    return hands
