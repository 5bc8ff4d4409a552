"""Card-play heuristics shared by the bridge players (Contract Bridge and Single Dummy).

The caller describes the position from the side playing now (`PlaySituation`), built only
from what its view shows, and `choose_card` returns one of the legal cards:

- opening lead: partner's suit, else top of a sequence (AK, KQ, QJ...), else fourth best
  from the longest suit against notrump, or the top of a short suit / a low card of the
  longest side suit against a trump contract;
- later leads: declarer draws trumps while its side holds more of them and the opponents
  still have some, then cashes sure winners, then leads a short suit of dummy's to ruff
  losers; defenders cash sure winners, return partner's suit, else lead low from length;
- second hand low; third hand high (the cheapest of equal top cards); win as cheaply as
  possible; never overtake partner's winning card; ruff with the lowest winning trump when
  void; discard from the weakest suit.

Seats in a trick alternate sides, so position k in the trick is partner's at k - 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.cards import Card, Rank, Suit

from .bridge_eval import card_hcp


@dataclass(frozen=True, slots=True)
class PlaySituation:
    """The position as the side to play sees it."""

    hand: tuple[Card, ...]  # the hand playing now
    legal: tuple[Card, ...]
    trick: tuple[Card, ...]  # cards in the current trick, in order (position k = len)
    trump: Suit | None
    declaring: bool  # our side is the declaring side
    partner: tuple[Card, ...] | None = None  # partner's hand when we can see it
    next_hand: tuple[Card, ...] | None = None  # the next player's hand when visible
    played: frozenset[Card] = frozenset()  # cards played in earlier tricks
    partner_suits: tuple[Suit, ...] = ()  # suits partner bid or led, most recent first
    first_lead: bool = False  # the opening lead of the deal

    @property
    def position(self) -> int:
        return len(self.trick)


def winning_index(trick: Sequence[Card], trump: Suit | None) -> int:
    """The position of the card currently winning `trick`."""
    best = 0
    led = trick[0].suit
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = i
        elif c.suit == trump or (b.suit != trump and c.suit == led and b.suit != led):
            best = i
    return best


def beats(c: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    """Whether `c` would take the lead from `best` in a trick led in `led`."""
    if c.suit == best.suit:
        return c.rank > best.rank
    return c.suit == trump or (best.suit != trump and best.suit != led and c.suit == led)


def _gone(sit: PlaySituation) -> frozenset[Card]:
    return sit.played | frozenset(sit.trick)


def is_master(c: Card, ours: frozenset[Card], gone: frozenset[Card]) -> bool:
    """No card of the suit higher than `c` is still out with the opponents."""
    for rank in range(c.rank + 1, Rank.ACE + 1):
        higher = Card(c.suit, Rank(rank))
        if higher not in ours and higher not in gone:
            return False
    return True


def cheapest_equal(c: Card, hand: Sequence[Card], gone: frozenset[Card]) -> Card:
    """The lowest card of the hand that is worth as much as `c` (touching, counting the
    cards already played as gaps filled)."""
    held = {x.rank for x in hand if x.suit == c.suit}
    out = c
    rank = c.rank - 1
    while rank >= Rank.TWO:
        other = Card(c.suit, Rank(rank))
        if rank in held:
            out = other
        elif other not in gone:
            break
        rank -= 1
    return out


def _lowest(cards: Sequence[Card]) -> Card:
    return min(cards, key=lambda c: c.rank)


def _highest(cards: Sequence[Card]) -> Card:
    return max(cards, key=lambda c: c.rank)


def _suit_cards(cards: Sequence[Card], suit: Suit) -> list[Card]:
    return [c for c in cards if c.suit == suit]


def discard(sit: PlaySituation) -> Card:
    """The lowest card of the weakest suit (fewest high-card points, then longest), keeping
    trumps and sure winners when possible."""
    gone = _gone(sit)
    ours = frozenset(sit.hand) | frozenset(sit.partner or ())
    pool = [c for c in sit.legal if c.suit != sit.trump] or list(sit.legal)
    pool = [c for c in pool if not is_master(c, ours, gone)] or pool

    def weakness(suit: Suit) -> tuple[int, int]:
        held = _suit_cards(sit.hand, suit)
        return (sum(card_hcp(c) for c in held), -len(held))

    suit = min({c.suit for c in pool}, key=lambda s: (weakness(s), s))
    return _lowest(_suit_cards(pool, suit))


def follow(sit: PlaySituation) -> Card:
    """Play to a trick already led."""
    trick, legal, trump = sit.trick, sit.legal, sit.trump
    led = trick[0].suit
    pos = len(trick)
    win_at = winning_index(trick, trump)
    best = trick[win_at]
    partner_winning = (pos - win_at) % 2 == 0
    gone = _gone(sit)
    # Cards of this trick are not gaps between ours yet: the one to beat is among them.
    gaps = sit.played
    ours = frozenset(sit.hand) | frozenset(sit.partner or ())
    winners = [c for c in legal if beats(c, best, led, trump)]
    following = legal[0].suit == led and all(c.suit == led for c in legal)

    if partner_winning:
        # Never overtake partner: last to play, or partner's card stands against the
        # player still to come (a master, or a visible next hand that cannot beat it).
        safe = pos == 3 or is_master(best, ours, gone) or (
            sit.next_hand is not None
            and not any(beats(c, best, led, trump)
                        for c in _legal_for(sit.next_hand, led)))
        if safe or not winners:
            return _lowest(legal) if following else discard(sit)
    if not winners:
        return _lowest(legal) if following else discard(sit)
    if pos == 1:
        # Second hand low, unless partner (visible, last to play) cannot win and we can
        # with a sure winner, or we hold the master card of the suit led.
        masters = [c for c in winners if c.suit == led and is_master(c, ours, gone)]
        if masters and sit.partner is not None and not any(
                beats(c, best, led, trump) for c in _legal_for(sit.partner, led)):
            return cheapest_equal(_lowest(masters), sit.hand, gaps)
        if following:
            return _lowest(legal)
        return _lowest(winners)  # void: ruff as cheaply as possible
    if pos == 2:
        # Third hand high: the cheapest of our top equal cards, if it can beat what is there
        # and what a visible fourth hand could add.
        top = _highest(winners) if following else _lowest(winners)
        if sit.next_hand is not None:
            theirs = _legal_for(sit.next_hand, led)
            enough = [c for c in winners
                      if not any(beats(x, c, led, trump) for x in theirs)]
            if enough:
                return min(enough, key=lambda c: (c.suit == trump, c.rank))
            return _lowest(legal) if following else discard(sit)
        return cheapest_equal(top, sit.hand, gaps) if following else top
    # Fourth hand: win as cheaply as possible.
    return min(winners, key=lambda c: (c.suit == trump, c.rank))


def _legal_for(hand: Sequence[Card], led: Suit) -> list[Card]:
    same = [c for c in hand if c.suit == led]
    return same or list(hand)


def sequence_top(held: Sequence[Card]) -> bool:
    """The suit (high to low) starts with two touching honours (AK, KQ, QJ, JT)."""
    return (len(held) >= 2 and held[0].rank >= Rank.TEN
            and held[0].rank - held[1].rank == 1)


def opening_lead(sit: PlaySituation) -> Card:
    """The first lead of the deal, made by a defender."""
    hand = sorted(sit.legal, key=lambda c: -c.rank)
    suits = [s for s in Suit if any(c.suit == s for c in hand)]
    for suit in sit.partner_suits:
        held = _suit_cards(hand, suit)
        if held:
            return held[0] if sequence_top(held) or len(held) <= 2 else held[-1]
    side = [s for s in suits if s != sit.trump] or suits
    for suit in sorted(side, key=lambda s: -_suit_cards(hand, s)[0].rank):
        held = _suit_cards(hand, suit)
        if sequence_top(held):
            return held[0]
    longest = max(side, key=lambda s: (len(_suit_cards(hand, s)), s))
    held = _suit_cards(hand, longest)
    if sit.trump is None:
        return held[3] if len(held) >= 4 else held[-1]
    # Against a trump contract, avoid leading away from an unsupported ace.
    shorts = [s for s in side if len(_suit_cards(hand, s)) <= 2
              and not any(c.rank >= Rank.QUEEN for c in _suit_cards(hand, s))]
    if shorts:
        return _suit_cards(hand, min(shorts, key=lambda s: (len(_suit_cards(hand, s)), s)))[0]
    if held[0].rank == Rank.ACE and len(held) > 1:
        others = [s for s in side if s != longest]
        if others:
            held = _suit_cards(hand, max(others, key=lambda s: len(_suit_cards(hand, s))))
    return held[-1] if len(held) >= 3 else held[0]


def lead(sit: PlaySituation) -> Card:
    """Lead to a new trick."""
    if sit.first_lead and not sit.declaring:
        return opening_lead(sit)
    gone = _gone(sit)
    partner = sit.partner or ()
    ours = frozenset(sit.hand) | frozenset(partner)
    trump = sit.trump
    legal = sit.legal
    if sit.declaring and trump is not None:
        our_trumps = sum(1 for c in ours if c.suit == trump)
        out_trumps = 13 - our_trumps - sum(1 for c in gone if c.suit == trump)
        mine = _suit_cards(legal, trump)
        if mine and 0 < out_trumps < our_trumps:
            masters = [c for c in mine if is_master(c, ours, gone)]
            if masters:
                return cheapest_equal(_highest(masters), sit.hand, gone)
            return _lowest(mine)
    # Cash sure winners in side suits (declarer: those that will not be ruffed by the
    # visible opponent hand... kept simple: any master).
    masters = [c for c in legal if c.suit != trump and is_master(c, ours, gone)]
    if masters:
        # Prefer the suit where we hold most masters (run a long suit), high card first.
        return max(masters, key=lambda c: (len(_suit_cards(masters, c.suit)), c.rank))
    if sit.declaring and trump is not None and partner:
        # Ruff losers in the hand opposite when it is short and still has trumps.
        partner_trumps = _suit_cards(partner, trump)
        if partner_trumps:
            for c in sorted(legal, key=lambda x: x.rank):
                if c.suit != trump and not _suit_cards(partner, c.suit):
                    return c
    if not sit.declaring:
        for suit in sit.partner_suits:
            held = _suit_cards(legal, suit)
            if held:
                return _highest(held) if len(held) <= 2 else _lowest(held)
    side = [c for c in legal if c.suit != trump] or list(legal)
    suits = {c.suit for c in side}
    longest = max(suits, key=lambda s: (len(_suit_cards(sit.hand, s))
                                        + len(_suit_cards(partner, s)), s))
    held = sorted(_suit_cards(side, longest), key=lambda c: -c.rank)
    if sequence_top(held):
        return held[0]
    return held[-1]


def choose_card(sit: PlaySituation) -> Card:
    """The card to play: a lead or a follow, by the heuristics above."""
    if len(sit.legal) == 1:
        return sit.legal[0]
    return lead(sit) if not sit.trick else follow(sit)
