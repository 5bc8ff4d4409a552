"""What a card played to someone else's lead says about the hand that played it.

Two cards of one hand are equal when every card of the suit between them was played in an
earlier trick: whichever is played, the rest of the deal goes the same. When not on lead
our card players play the lowest of equal cards (the card search gives them the same value
on every layout and breaks ties to the lowest; the rule-based player takes the cheapest of
its equal cards), and so do most people, though not always: they signal with equal small
cards, and false-card with honours. So a player who played a card to a trick it did not
lead shows that it did not hold the next lower card still out before that trick (when the
card just below it was played earlier, the next one down, and so on; when that card is on
the table in the same trick, the play shows nothing). A layout where it did hold it is not
ruled out, only made `FALSE_CARD` times as likely.

Leads say nothing of the kind: a lead may be the top of a sequence, and the opening lead is
read by its own model (`learning.leads`).

Players who give count (`count_signal`) play otherwise on one occasion: a defender following
for the first time to a suit declarer's side leads, with a choice of small cards the search
rates equal on every layout, plays the highest of them with an even number of cards in the
suit and the lowest with an odd number (standard count: high-low shows an even number).
Partner and declarer read it (`count_weigh`), and the lowest-of-equal reading leaves those
cards alone.

Players who show attitude (`attitude_signal`) do the same to their partner's lead: following
for the first time to a suit partner leads, with a choice of small cards the search rates
equal, they play the highest of them holding the ace, king or queen of the suit
(encouraging) and the lowest without (`attitude_weigh` reads it).

Players who give count in their discards (`discard_signal`) do it with the first card they
discard of a suit (trumps apart): where the search rates two or more small cards of the
suit it discards from equal, the highest with an even number of cards in the suit, the
lowest with an odd number. `count_weigh` reads it as it reads count to declarer's leads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.games.cards import Card, Rank, Suit

from .layouts import Weigh

# How often a player plays above the lowest of its equal cards, as a chance: our players
# never do; people do when they signal (with small cards, which seldom change a trick) or
# false-card (with honours, seldom outside expert play). Set before it was measured.
FALSE_CARD = 0.05
# The highest rank a count signal is given with: a card below the ten seldom takes a trick,
# so the search mostly rates a hand's small cards of a suit equal, and which of them is
# played is free to say something.
SPOT = Rank.NINE
# How often a hand that gives count still shows it wrongly, as chances: a high small card
# from an odd number (the lowest was not equal to it), and the lowest from an even number
# with a second small card (the two were not equal, so no signal). Chosen by the posterior
# gain of the reading on bank deals 72,150..72,192 played with count given, of a grid of
# 0.01..0.3 and 0.05..0.6 (`learning.count_reading gain --grid`); the surest pair would
# read people's signals too hard.
MISCOUNT = 0.05
UNSIGNALLED = 0.1
# The lowest honour whose holding a high small card to partner's lead shows (attitude).
HONOUR = Rank.QUEEN
# How often a hand that shows attitude shows it wrongly, as chances: a high small card
# without an honour, and the lowest with an honour and a second small card. The count's
# pair: on bank deals 72,200..72,259 played with attitude shown, the attitude read at it
# adds 0.26 nats of posterior gain to the count's, 0.21 at the first guesses (0.1, 0.3),
# 0.28 at the surest of the grid (`learning.count_reading gain --attitude --grid`).
MISATTITUDE = 0.05
UNENCOURAGED = 0.1

# A player's count signals (and likewise its attitude signals): none at the table ("off");
# given by the defenders but neither given nor read by this player ("ignored": their
# signal cards deny nothing; the way without, where a benchmark meets positions where they
# were given); given and read ("on").
CountSignals = Literal["off", "ignored", "on"]
EVERY_SEAT = frozenset(range(4))


@dataclass(frozen=True, slots=True)
class Counting:
    """Who signals in a deal, and what: the defenders against `declarer` among `givers`
    (at a table of our robots every seat; the tables name the seats of computer players
    that share the convention, since people may not signal) give count (`count`), show
    attitude to partner's leads (`attitude`) and give count in their discards
    (`discards`)."""

    declarer: int
    givers: frozenset[int] = EVERY_SEAT
    count: bool = True
    attitude: bool = False
    # Count in the first discard of each suit (`discards`); a card of `trumps` played to
    # another suit is a ruff, no discard.
    discards: bool = False
    trumps: Suit | None = None

Trick = Sequence[tuple[int, Card]]


def unheld(tricks: Sequence[Trick], counting: Counting | None = None
           ) -> tuple[frozenset[Card], ...]:
    """For each seat, the cards its plays to others' leads show it did not hold: for
    each such card, the next lower card of its suit still out before that trick (none
    where every lower card had gone, or where that card is on the table in the same
    trick). `tricks` in order, the last one perhaps in progress. `counting`: who signals,
    whose signals (`signal_occasions`) show no such thing."""
    signals = set(signal_occasions(tricks, counting)) if counting is not None else set()
    shown: list[set[Card]] = [set(), set(), set(), set()]
    gone: set[Card] = set()
    for trick in tricks:
        on_table = {card for _, card in trick}
        for seat, card in trick[1:]:
            lower = _next_lower(card, gone)
            if lower is not None and lower not in on_table and (seat, card) not in signals:
                shown[seat].add(lower)
        gone.update(on_table)
    return tuple(frozenset(cards) for cards in shown)


def _next_lower(card: Card, gone: set[Card]) -> Card | None:
    for rank in range(card.rank - 1, Rank.TWO - 1, -1):
        lower = Card(card.suit, Rank(rank))
        if lower not in gone:
            return lower
    return None


def follows_weigh(tricks: Sequence[Trick], counting: Counting | None = None
                  ) -> Weigh | None:
    """The log-weight of hands as dealt by the cards they show they did not hold
    (`unheld`, `counting` as there): `log(FALSE_CARD)` for each such card a hand holds.
    None when no play shows anything."""
    shown = unheld(tricks, counting)
    if not any(shown):
        return None
    penalty = math.log(FALSE_CARD)

    def weigh(seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        cards = shown[seat]
        if not cards:
            return [0.0] * len(hands)
        return [penalty * sum(card in cards for card in hand) for hand in hands]

    return weigh


def _defending(seat: int, declarer: int) -> bool:
    return seat % 2 != declarer % 2


def signal_occasions(tricks: Sequence[Trick], counting: Counting) -> list[tuple[int, Card]]:
    """Every (seat, card) of `tricks` that signals as `counting` says."""
    return (count_occasions(tricks, counting) + attitude_occasions(tricks, counting)
            + discard_occasions(tricks, counting))


def count_occasions(tricks: Sequence[Trick], counting: Counting) -> list[tuple[int, Card]]:
    """Each (seat, card) that gives count: a small card (at most `SPOT`) a defender among
    `counting.givers` followed with to a lead by declarer's side, in a suit it had not
    played before (none where `counting` gives no count)."""
    if not counting.count:
        return []
    return _first_small_cards(tricks, counting, "count")


def attitude_occasions(tricks: Sequence[Trick], counting: Counting
                       ) -> list[tuple[int, Card]]:
    """Each (seat, card) that shows attitude: a small card a defender among
    `counting.givers` followed with to its partner's lead, in a suit it had not played
    before (none where `counting` shows no attitude)."""
    if not counting.attitude:
        return []
    return _first_small_cards(tricks, counting, "attitude")


def discard_occasions(tricks: Sequence[Trick], counting: Counting
                      ) -> list[tuple[int, Card]]:
    """Each (seat, card) that gives count by a discard: a small card of a suit other than
    the one led and than trumps, played by a defender among `counting.givers` that had not
    played the suit before (none where `counting` gives no count in discards)."""
    if not counting.discards:
        return []
    return _first_small_cards(tricks, counting, "discard")


def _first_small_cards(tricks: Sequence[Trick], counting: Counting,
                       kind: Literal["count", "attitude", "discard"]
                       ) -> list[tuple[int, Card]]:
    """The small cards (at most `SPOT`) the defenders among `counting.givers` played to
    others' leads of a suit they had not played before: following to declarer's side's
    lead (`count`), following to partner's (`attitude`), or discarding (`discard`)."""
    declarer = counting.declarer
    suits_played: list[set[Suit]] = [set(), set(), set(), set()]
    signals: list[tuple[int, Card]] = []
    for trick in tricks:
        if not trick:
            continue
        leader, led = trick[0]
        for seat, card in trick[1:]:
            if kind == "discard":
                occasion = card.suit != led.suit and card.suit != counting.trumps
            else:
                by = (leader == (seat + 2) % 4 if kind == "attitude"
                      else not _defending(leader, declarer))
                occasion = by and card.suit == led.suit
            if (occasion and _defending(seat, declarer) and seat in counting.givers
                    and card.suit not in suits_played[seat] and card.rank <= SPOT):
                signals.append((seat, card))
        for seat, card in trick:
            suits_played[seat].add(card.suit)
    return signals


def count_signal(tricks: Sequence[Trick], seat: int, declarer: int, hand: Sequence[Card],
                 equals: Collection[Card]) -> Card | None:
    """The card that gives count for `seat`, holding `hand`, to play now to the last of
    `tricks` (in progress), chosen among `equals` (cards the search rates the same on every
    layout): of their small cards in the suit led, the highest with an even number of
    cards in the suit, the lowest with an odd number. None where this is no occasion for
    count (`count_occasions`) or fewer than two small cards are equal."""
    small = _signal_cards(tricks, seat, equals, Counting(declarer))
    if small is None:
        return None
    return _counted(small, hand)


def attitude_signal(tricks: Sequence[Trick], seat: int, declarer: int,
                    hand: Sequence[Card], equals: Collection[Card]) -> Card | None:
    """The card that shows attitude for `seat`, holding `hand`, to play now to its
    partner's lead in the last of `tricks` (in progress), chosen among `equals` as
    `count_signal` chooses: the highest small card holding an honour of the suit (at
    least `HONOUR`), the lowest without. None where this is no occasion for it
    (`attitude_occasions`) or fewer than two small cards are equal."""
    small = _signal_cards(tricks, seat, equals, Counting(declarer, count=False,
                                                         attitude=True))
    if small is None:
        return None
    honour = any(card.suit == small[0].suit and card.rank >= HONOUR for card in hand)
    return small[-1] if honour else small[0]


def discard_signal(tricks: Sequence[Trick], seat: int, declarer: int, trumps: Suit | None,
                   hand: Sequence[Card], equals: Collection[Card], chosen: Card
                   ) -> Card | None:
    """The card that gives count for `seat`, holding `hand`, discarding now from the suit
    of `chosen` (the search's card) to the last of `tricks` (in progress), chosen among
    `equals` as `count_signal` chooses. None where this is no occasion for it
    (`discard_occasions`) or fewer than two small cards of that suit are equal."""
    small = _signal_cards(tricks, seat, equals, Counting(
        declarer, count=False, discards=True, trumps=trumps), chosen.suit)
    if small is None:
        return None
    return _counted(small, hand)


def _counted(small: Sequence[Card], hand: Sequence[Card]) -> Card:
    """Standard count among `small` (cards of one suit, lowest first): the highest with an
    even number of cards in that suit in `hand`, the lowest with an odd number."""
    even = sum(card.suit == small[0].suit for card in hand) % 2 == 0
    return small[-1] if even else small[0]


def _signal_cards(tricks: Sequence[Trick], seat: int, equals: Collection[Card],
                  signalling: Counting, suit: Suit | None = None) -> list[Card] | None:
    """The small cards of `suit` (default: the suit led) among `equals`, lowest first,
    where playing one now is an occasion `signalling` reads and there are two or more;
    else None."""
    trick = tricks[-1] if tricks else ()
    if not trick:
        return None
    suit = trick[0][1].suit if suit is None else suit
    small = sorted((card for card in equals if card.suit == suit and card.rank <= SPOT),
                   key=lambda card: card.rank)
    if len(small) < 2:
        return None
    # The occasion as the readers see it, whichever of the small cards is played.
    played = (seat, small[0])
    later = [*tricks[:-1], [*trick, played]]
    if played not in signal_occasions(later, signalling):
        return None
    return small


def count_weigh(tricks: Sequence[Trick], counting: Counting, miscount: float = MISCOUNT,
                unsignalled: float = UNSIGNALLED) -> Weigh | None:
    """The log-weight of the defenders' hands as dealt by the count their signals give
    (`count_occasions`, and `discard_occasions` where they give it): `log(miscount)` for
    each small card above the hand's lowest of its suit from an odd number,
    `log(unsignalled)` for each lowest card from an even number whose next card up is
    small too. None when no card gives count."""
    miscount, unsignalled = math.log(miscount), math.log(unsignalled)

    def says(card: Card, ranks: Sequence[int]) -> float:
        if card.rank > ranks[0]:
            return miscount if len(ranks) % 2 else 0.0
        return unsignalled if len(ranks) % 2 == 0 and ranks[1] <= SPOT else 0.0

    return _signals_weigh(count_occasions(tricks, counting)
                          + discard_occasions(tricks, counting), says)


def attitude_weigh(tricks: Sequence[Trick], counting: Counting,
                   misattitude: float = MISATTITUDE, unencouraged: float = UNENCOURAGED
                   ) -> Weigh | None:
    """The log-weight of the defenders' hands as dealt by the attitude their signals show
    (`attitude_occasions`): `log(misattitude)` for each small card above the hand's lowest
    of its suit without an honour (at least `HONOUR`) there, `log(unencouraged)` for each
    lowest card with an honour whose next card up is small too. None when no card shows
    attitude."""
    misattitude, unencouraged = math.log(misattitude), math.log(unencouraged)

    def says(card: Card, ranks: Sequence[int]) -> float:
        honour = ranks[-1] >= HONOUR
        if card.rank > ranks[0]:
            return 0.0 if honour else misattitude
        return unencouraged if honour and len(ranks) > 1 and ranks[1] <= SPOT else 0.0

    return _signals_weigh(attitude_occasions(tricks, counting), says)


def _signals_weigh(signals: Sequence[tuple[int, Card]],
                   says: Callable[[Card, Sequence[int]], float]) -> Weigh | None:
    """The log-weight of hands by their seats' signal cards: for each, what `says` reads
    from the card and the ranks the hand holds in its suit, lowest first. None without a
    signal."""
    if not signals:
        return None

    def read(card: Card, hand: Sequence[Card]) -> float:
        # A signal is the seat's first card of its suit: the hand as dealt held them all.
        ranks = sorted(c.rank for c in hand if c.suit == card.suit)
        return says(card, ranks) if ranks else 0.0  # no ranks: not a hand as dealt

    def weigh(seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        cards = [card for s, card in signals if s == seat]
        if not cards:
            return [0.0] * len(hands)
        return [sum(read(card, hand) for card in cards) for hand in hands]

    return weigh
