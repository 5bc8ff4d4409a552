"""Bid Fair positions for search: bitmask hands, the engine's trick rule as a table, fast
play-outs and deal values.

A hand is a bitmask of `Card.index` bits (as in `trick_masks`). Bid Fair's order within a
suit moves with the deal's high rank and the ace counts low when led and high when played
second, so natural bit order does not say who wins. Instead, for each (high rank, trump)
the engine's own `bidfair_rank.beats` fills a table once: for each card led, the mask of
cards that take the trick when played second. A trick is then one AND. Finished deals are
valued with the engine's `bidfair_scoring.score_deal`. `tests/ai/test_bidfair_search.py`
ties all this to the engine on random positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.bidfair_rank import beats, bidfair_pack, card_points, make_power
from bot.games.bidfair_scoring import score_deal
from bot.games.cards import Rank, Suit

from ..core.trick_masks import SUIT_BITS, SUIT_OF, follow_mask, mask_of, second_takes

PACK = tuple(bidfair_pack())
PACK_MASK = mask_of(PACK)
POINTS: tuple[int, ...] = tuple(
    next((card_points(c) for c in PACK if c.index == i), 0) for i in range(52))


@dataclass(frozen=True, slots=True)
class TrickRules:
    """One deal's trick rule: `beaten_by[led]` is the mask of cards that win played second;
    `strength[i]` orders a suit's cards for choosing (the engine's power when played
    second, so a second-played ace counts high)."""

    trump: int
    beaten_by: tuple[int, ...]
    strength: tuple[int, ...]


_RULES: dict[tuple[int, int], TrickRules] = {}


def trick_rules(high: Rank | None, trump: Suit) -> TrickRules:
    """The table for a deal's high rank (None: no contract) and trump, built once."""
    key = (0 if high is None else int(high), int(trump))
    rules = _RULES.get(key)
    if rules is None:
        power = make_power(high)
        beaten = [0] * 52
        strength = [0] * 52
        for led in PACK:
            strength[led.index] = power(led, 1)
            for second in PACK:
                if second != led and beats(led, second, trump, power):
                    beaten[led.index] |= 1 << second.index
        rules = _RULES[key] = TrickRules(int(trump), tuple(beaten), tuple(strength))
    return rules


@dataclass(slots=True)
class BidFairPosition:
    """One fully known layout of a deal in play (a sample, or the engine's truth)."""

    hands: list[int]  # per seat
    led: int  # the card index led to the current trick, -1 when none
    turn: int
    captured: list[int]  # card points per seat
    rules: TrickRules

    def copy(self) -> BidFairPosition:
        return BidFairPosition(self.hands[:], self.led, self.turn, self.captured[:],
                               self.rules)

    def legal(self) -> int:
        return follow_mask(self.hands[self.turn], SUIT_OF[self.led] if self.led >= 0 else -1)

    def play(self, card: int) -> int | None:
        """Play `card` (assumed legal) for the seat on turn; the trick's winner when it ends."""
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        led = self.led
        if led < 0:
            self.led = card
            self.turn = 1 - seat
            return None
        winner = seat if second_takes(self.rules.beaten_by, led, card) else 1 - seat
        self.captured[winner] += POINTS[led] + POINTS[card]
        self.led = -1
        self.turn = winner
        return winner

    # -- the fast policy ---------------------------------------------------------------

    def _weakest(self, cards: int) -> int:
        """The card that costs least to give away: fewest points, non-trump, weakest."""
        strength, trump = self.rules.strength, self.rules.trump
        best, key = -1, (99, 2, 99)
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            k = (POINTS[c], SUIT_OF[c] == trump, strength[c])
            if k < key:
                best, key = c, k
        return best

    def quick_card(self) -> int:
        """A sensible card for the seat on turn (both hands are known in a play-out):
        lead a card the opponent cannot beat, richest first, else the cheapest; follow by
        winning with the weakest card that wins when the trick is worth it, else throw
        the cheapest card."""
        legal = self.legal()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        rules = self.rules
        other = self.hands[1 - self.turn]
        if self.led < 0:
            best, key = -1, -1
            m = legal
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                answers = follow_mask(other, SUIT_OF[c])
                if not answers & rules.beaten_by[c] and POINTS[c] > key:
                    best, key = c, POINTS[c]
            return best if best >= 0 else self._weakest(legal)
        winners = legal & rules.beaten_by[self.led]
        if not winners:
            return self._weakest(legal)
        follows = winners & SUIT_BITS[SUIT_OF[self.led]]
        pool = follows or winners
        if not follows and POINTS[self.led] < 9 and legal & ~winners:
            return self._weakest(legal & ~winners)  # no trump spent on an ace
        strength = rules.strength
        best, key2 = -1, (99, 99)
        while pool:
            low = pool & -pool
            c = low.bit_length() - 1
            pool ^= low
            k2 = (strength[c], -POINTS[c])
            if k2 < key2:
                best, key2 = c, k2
        return best

    def play_out(self) -> None:
        while self.hands[self.turn]:
            self.play(self.quick_card())


@dataclass(frozen=True, slots=True)
class DealStakes:
    """How a finished deal is valued for `seat`: the deal's score for us less theirs, and
    reaching the match's target first (or letting them) on top."""

    seat: int
    holder: int | None
    value: int | None  # the contract value
    both_up: bool
    trump_bid: tuple[bool, bool]
    totals: tuple[int, int]  # match totals before this deal
    target: int
    win_bonus: int = 300

    def value_of(self, captured: list[int]) -> float:
        score = score_deal((captured[0], captured[1]), self.holder, self.value, self.both_up,
                           self.trump_bid)
        ours, theirs = score.points[self.seat], score.points[1 - self.seat]
        value = float(ours - theirs)
        mine = self.totals[self.seat] + ours
        other = self.totals[1 - self.seat] + theirs
        if max(mine, other) >= self.target and mine != other:
            value += self.win_bonus if mine > other else -self.win_bonus
        return value
