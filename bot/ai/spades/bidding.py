"""How the Spades computer player values a hand: likely tricks, nil safety, double nil."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.cards import Card, Rank, Suit, by_suit
from bot.games.spades_scoring import is_nil
from bot.games.spades_view import SpadesView

SIDE_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def spade_tricks(spades: Sequence[Card]) -> float:
    """Likely spade tricks: top honours that are guarded, plus length beyond three."""
    length = len(spades)
    ranks = {c.rank for c in spades}
    value = 0.0
    if Rank.ACE in ranks:
        value += 1
    if Rank.KING in ranks:
        value += 1 if length >= 2 else 0.3
    if Rank.QUEEN in ranks:
        value += 0.9 if length >= 3 else 0.25
    if Rank.JACK in ranks and length >= 4:
        value += 0.5
    value += max(0, length - 3) * 0.9
    return min(value, float(length))


def side_suit_tricks(holding: Sequence[Card]) -> float:
    """Likely tricks from a side suit's high cards (long suits get ruffed early)."""
    length = len(holding)
    ranks = {c.rank for c in holding}
    value = 0.0
    if Rank.ACE in ranks:
        value += 1 if length <= 6 else 0.6
    if Rank.KING in ranks and length >= 2:
        value += (0.9 if Rank.ACE in ranks else 0.6) if length <= 5 else 0.3
    if Rank.QUEEN in ranks and 3 <= length <= 4 and ranks & {Rank.ACE, Rank.KING}:
        value += 0.4
    return value


def estimate_tricks(hand: Sequence[Card]) -> float:
    """How many tricks this hand should take: high cards, spade length, ruffs."""
    suits = by_suit(hand)
    spades = suits[Suit.SPADES]
    trumps = spade_tricks(spades)
    sides = sum(side_suit_tricks(suits[s]) for s in SIDE_SUITS)
    # Spades not already counted can ruff short side suits.
    spare = len(spades) - int(trumps + 0.5)
    ruffs = 0.0
    for suit in SIDE_SUITS:
        length = len(suits[suit])
        ruffs += {0: 1.0, 1: 0.6, 2: 0.2}.get(length, 0.0)
    return trumps + sides + min(ruffs, max(0, spare))


def nil_is_safe(hand: Sequence[Card]) -> bool:
    """A nil hand: no ace or king, no spade above the nine (and few spades), and side
    suit honours only where enough low cards guard them."""
    suits = by_suit(hand)
    spades = suits[Suit.SPADES]
    if len(spades) > 3 or any(c.rank > Rank.NINE for c in spades):
        return False
    if len(spades) == 3 and spades[0].rank > Rank.SEVEN:
        return False
    for suit in SIDE_SUITS:
        holding = suits[suit]
        low = sum(1 for c in holding if c.rank <= Rank.SEVEN)
        for c in holding:
            if c.rank >= Rank.KING:
                return False
            if c.rank == Rank.QUEEN and low < 3:
                return False
            if c.rank == Rank.JACK and low < 2:
                return False
        if holding and holding[-1].rank >= Rank.NINE and len(holding) <= 2:
            return False  # a short suit of middling cards gets caught
    return True


def choose_bid(view: SpadesView) -> str:
    """The bid action for a seat that has looked: nil when safe, else likely tricks."""
    assert view.seat is not None
    partner = (view.seat + 2) % 4
    partner_bid = view.bids[partner]
    partner_nil = partner_bid is not None and is_nil(partner_bid)
    estimate = estimate_tricks(view.hand)
    if not partner_nil and estimate < 1.3 and nil_is_safe(view.hand):
        return "bid:nil"
    # Cover a nil partner with a little less ambition; our own bid is scored alone.
    bid = int(estimate + (0.2 if partner_nil else 0.35))
    return f"bid:{min(13, max(1, bid))}"


def wants_double_nil(view: SpadesView) -> bool:
    """Double nil is bid blind: only as a rare gamble when far behind near the end,
    with a partner who has bid strongly enough to cover."""
    assert view.seat is not None
    side = view.seat % 2
    ours, theirs = view.score.totals[side], view.score.totals[1 - side]
    partner_bid = view.bids[(view.seat + 2) % 4]
    return (partner_bid is not None and partner_bid >= 5
            and theirs >= view.target - 100 and theirs - ours >= 250)
