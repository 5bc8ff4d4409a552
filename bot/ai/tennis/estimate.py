"""How many tricks a Tennis hand should take, and which bid card best says so.

The estimate counts likely winners the way a player does at the table (aces, protected
kings and queens, long trumps, ruffing chances, long suits at notrump), then maps that
count onto the game's reality: twelve tricks are split between four hands, so an
average hand takes three.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.cards import Card, Rank, Suit
from bot.games.tennis_rules import bid_value
from bot.games.tennis_views import TennisView

# Raw winners -> expected tricks, fitted on 600 simulated games between TennisPlayers
# (slope about 1; this offset leaves the bids unbiased: tricks - bid averages about 0).
SCALE = 1.0
OFFSET = 0.4

SUITS = tuple(Suit)
TRICKS = 12
AVERAGE_HAND = 3.0
LEAN = 0.25  # how much the Forehand bid trusts the trick count over its own estimate


def raw_winners(hand: Sequence[Card], trump: Suit | None) -> float:
    """Likely winners of a hand, counted suit by suit."""
    lengths = [0, 0, 0, 0]
    ranks: list[set[Rank]] = [set(), set(), set(), set()]
    for c in hand:
        lengths[c.suit] += 1
        ranks[c.suit].add(c.rank)
    total = 0.0
    for suit in SUITS:
        n, held = lengths[suit], ranks[suit]
        if n == 0:
            continue
        is_trump = suit == trump
        if Rank.ACE in held:
            total += 1.0
        if Rank.KING in held:
            total += (0.9 if Rank.ACE in held else 0.7) if n >= 2 else 0.25
        if Rank.QUEEN in held and n >= 3:
            total += 0.5 if (Rank.ACE in held or Rank.KING in held) else 0.3
        if is_trump:
            if Rank.JACK in held and n >= 4:
                total += 0.4
            total += 0.8 * max(0, n - 3)  # long trumps win once the others are gone
        elif trump is None and n >= 5 and (Rank.ACE in held or Rank.KING in held):
            total += 0.5 * (n - 4)  # an established long suit runs at notrump
    if trump is not None:
        spare = lengths[trump] - 1
        for suit in SUITS:
            if suit != trump and lengths[suit] <= 1 and spare > 0:
                ruffs = min(spare, 2 - lengths[suit])
                total += 0.5 * ruffs
                spare -= ruffs
    return total


def expected_tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    return SCALE * raw_winners(hand, trump) + OFFSET


def best_bid(hand: Sequence[Card], trump: Suit | None, shift: float = 0.0) -> Card:
    """The bid card whose value best matches what the rest of the hand should take.

    `shift` moves the estimate (the Forehand bid leans towards the tricks the Backhand bids
    leave over). Near-ties go to the card the hand misses least in play.
    """
    best: tuple[float, int] | None = None
    choice = hand[0]
    for c in hand:
        rest = [x for x in hand if x is not c]
        miss = abs(expected_tricks(rest, trump) + shift - bid_value(c))
        keep = int(c.rank) + (8 if c.suit == trump else 0)  # what the card is worth in play
        key = (miss + 0.015 * keep, c.index)
        if best is None or key < best:
            best, choice = key, c
    return choice


def forehand_shift(forehand: Sequence[Card], trump: Suit | None,
                   backhand_bids: Sequence[int]) -> float:
    """How far to move a Forehand estimate so the four bids lean towards the 12 tricks.

    The opponent's Forehand is unknown: it counts as an average hand (3 tricks).
    """
    rest = expected_tricks(forehand, trump) - 0.5  # about what a bid card takes away
    left_over = TRICKS - sum(backhand_bids) - AVERAGE_HAND - rest
    return LEAN * left_over


def rule_of_thumb_bid(view: TennisView, hand: Sequence[Card]) -> Card:
    """The bid card for the hand being bid: the estimate, and for a Forehand its lean
    towards the tricks the Backhand bids leave over."""
    shift = 0.0
    if view.bidding == "Forehand" and None not in view.backhand_bids:
        shift = forehand_shift(hand, view.trump, [
            bid_value(c) for c in view.backhand_bids if c is not None])
    return best_bid(hand, view.trump, shift)
