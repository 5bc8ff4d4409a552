"""What the suits a hand chose in the play say about it: which suit it led to a later
trick, and which it played when it could not follow, as our players choose them.

Each such choice is an event. A model learned from our players' played deals
(`suit_reading_training`) scores each suit the hand held then, from the hand at that
moment (length, honours, masters, the run at its top, trumps) and what every player saw
(the contract, dummy, who led and showed out of what, who bid the suit, where the trick
stands). The scores, as a softmax at the card's temperature, are the chance that this
hand chose that suit; the log of it, summed over the hand's events, weighs the card
search's layouts beside the calls, the opening lead and the cards followed with
(`suits_weigh`), times the card's weight: a hand's choices are not independent of one
another given what the model reads, so their sum says too much, and the weight is the
share of it that best picks out the true hands of held-out deals
(`suit_reading_training`). Where the model does not load, there is no such weight.

A decision weighs a few hundred hands as dealt, each at every event of its seat, so the
hands' numbers are worked out with numpy on each suit's 13-bit mask: counts and points
from tables, and the top of a holding (masters, run, cards above it) from a table made
once for each set of cards still out. Hands share most holdings, so each event scores
its distinct rows only.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.games.bridge_auction import Call, Contract
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card
from bot.games.tricks import trick_winner

from ...core.layouts import Weigh
from ...core.trick_masks import SUIT_BITS, mask_of
from .forest import Forest
from .leads import ranker_at
from .loading import Shelf
from .values import card_path

log = logging.getLogger(__name__)

MODELS = Path(__file__).parent / "models"
DEFAULT = MODELS / "suit_reading.npz"

SUIT = SUIT_BITS[0]  # a suit's 13 cards as bits, the two lowest first (bit = rank - 2)

# Every player's view of an event, for each suit it might choose.
PUBLIC_NAMES: tuple[str, ...] = (
    "trick", "cannot_follow", "trick_position", "declaring", "dummy_left", "dummy_right",
    "notrump", "trump_suit", "dummy_len", "dummy_master", "out_len", "times_led",
    "self_led", "partner_led", "opponents_led", "opening_suit", "last_trick_suit",
    "partner_void", "left_void", "right_void", "self_bid", "partner_bid", "opponents_bid",
    "partner_winning", "side_needs")
# The hand's own numbers in that suit at that moment (`_hand_part`).
HAND_NAMES: tuple[str, ...] = (
    "length", "hcp", "small", "masters", "run", "above", "trumps_held", "longest")
NAMES: tuple[str, ...] = (*PUBLIC_NAMES, *HAND_NAMES)

_BITS = np.arange(1 << 13, dtype=np.int64)
_POP = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)
_HCP = np.array([sum(max(0, b - 8) for b in range(13) if m >> b & 1)
                 for m in range(1 << 13)], dtype=np.int64)
_SMALL = _POP[_BITS & 0xFF]  # the cards below the ten


def suit_masks(masks: np.ndarray) -> np.ndarray:
    """Hands as 52-bit masks (n) to each suit's 13 bits (n by 4)."""
    return np.stack([(masks >> (13 * s)) & SUIT for s in range(4)], axis=1)


@functools.lru_cache(maxsize=256)
def _tops(live: int) -> np.ndarray:
    """For each holding (13 bits) within `live` (the suit's cards still out, the holding's
    among them): its masters (cards above every other card out), its run (from its top
    card down, until a card out that it does not hold) and the cards out above its top
    card; 3 by 8192."""
    masters = np.zeros(1 << 13, dtype=np.int64)
    run = np.zeros_like(masters)
    above = np.zeros_like(masters)
    unbroken = np.ones(1 << 13, dtype=bool)
    started = np.zeros(1 << 13, dtype=bool)
    broken = np.zeros(1 << 13, dtype=bool)
    for bit in range(12, -1, -1):
        if not live >> bit & 1:
            continue
        held = (_BITS >> bit) & 1 == 1
        masters += unbroken & held
        unbroken &= held
        run += held & ~broken
        broken |= started & ~held
        started |= held
        above += ~started
    return np.stack([masters, run, above])


@dataclass(frozen=True, slots=True)
class Event:
    """One suit chosen by a hand in the play: `seat`, the suit `chosen`, the cards the
    seat had played before it (`earlier`, 52 bits), each suit's cards still out then
    (`live`, 13 bits each) and the public numbers of each suit (`public`, 4 by
    `PUBLIC_NAMES`), the trump suit (None: notrump)."""

    seat: int
    chosen: int
    earlier: int
    live: tuple[int, int, int, int]
    public: tuple[tuple[float, ...], ...]
    trump: int | None


def events_of(plays: Sequence[tuple[int, Card]], contract: Contract,
              dummy_dealt: Sequence[Card], calls: Sequence[tuple[int, Call]]) -> list[Event]:
    """The events of the play `plays` (every card in order, the trick in progress last):
    each card led to trick 2 or later, and each card of a hand that did not follow suit,
    by any seat but dummy (whose cards everyone sees). `dummy_dealt`: dummy's 13 cards."""
    trump = None if contract.trump is None else int(contract.trump)
    declarer = contract.declarer
    dummy = (declarer + 2) % 4
    bid_by = [[False] * 4 for _ in range(4)]
    for seat, call in calls:
        if call.bid is not None and call.bid.strain.trump is not None:
            bid_by[seat][int(call.bid.strain)] = True
    gone = 0
    dummy_now = mask_of(dummy_dealt)
    earlier = [0, 0, 0, 0]
    led_by = [[0] * 4 for _ in range(4)]
    voids = [[False] * 4 for _ in range(4)]
    won = [0, 0]
    opening = plays[0][1].suit if plays else None
    last_led: int | None = None
    events: list[Event] = []
    for i, (seat, card) in enumerate(plays):
        position = i % 4
        trick = plays[i - position:i]
        led = trick[0][1].suit if trick else None
        cannot_follow = led is not None and card.suit != led
        if seat != dummy and ((position == 0 and i >= 4) or cannot_follow):
            partner = (seat + 2) % 4
            winning = bool(trick) and trick_winner(trick, contract.trump) == partner
            side = seat % 2
            needs = (contract.tricks_needed if side == declarer % 2
                     else 14 - contract.tricks_needed) - won[side]
            live = (SUIT & ~gone, SUIT & ~(gone >> 13), SUIT & ~(gone >> 26),
                    SUIT & ~(gone >> 39))
            opponents = ((seat + 1) % 4, (seat + 3) % 4)
            public = []
            for s in range(4):
                on_dummy = (dummy_now >> (13 * s)) & SUIT
                top = live[s].bit_length() - 1
                public.append((
                    i // 4 + 1, float(cannot_follow), position, float(seat == declarer),
                    float((seat + 1) % 4 == dummy), float((seat + 3) % 4 == dummy),
                    float(trump is None), float(s == trump), int(_POP[on_dummy]),
                    float(top >= 0 and bool(on_dummy >> top & 1)),
                    int(_POP[live[s] & ~on_dummy]), sum(led_by[w][s] for w in range(4)),
                    led_by[seat][s], led_by[partner][s], sum(led_by[w][s] for w in opponents),
                    float(opening is not None and s == opening),
                    float(last_led is not None and s == last_led), float(voids[partner][s]),
                    float(voids[(seat + 1) % 4][s]), float(voids[(seat + 3) % 4][s]),
                    float(bid_by[seat][s]), float(bid_by[partner][s]),
                    float(any(bid_by[w][s] for w in opponents)), float(winning), needs))
            events.append(Event(seat, int(card.suit), earlier[seat], live, tuple(public),
                                trump))
        bit = 1 << card.index
        gone |= bit
        earlier[seat] |= bit
        if seat == dummy:
            dummy_now &= ~bit
        if cannot_follow:
            assert led is not None
            voids[seat][int(led)] = True
        if position == 0:
            led_by[seat][int(card.suit)] += 1
        if position == 3:
            whole = plays[i - 3:i + 1]
            won[trick_winner(whole, contract.trump) % 2] += 1
            last_led = int(whole[0][1].suit)
    return events


def _hand_part(event: Event, holdings: np.ndarray) -> np.ndarray:
    """`HAND_NAMES`' numbers of hands holding `holdings` (n by 4 suits' bits, at the
    event), n by 4 suits by the names."""
    length = _POP[holdings]
    parts = [length, _HCP[holdings], _SMALL[holdings]]
    tops = np.stack([_tops(event.live[s])[:, holdings[:, s]] for s in range(4)], axis=2)
    parts += [tops[0], tops[1], tops[2]]
    trumps = length[:, event.trump] if event.trump is not None else np.zeros(len(holdings))
    parts.append(np.repeat(trumps[:, None], 4, axis=1))
    parts.append((length == length.max(axis=1, keepdims=True)).astype(np.int64))
    return np.stack(parts, axis=2)


def event_rows(event: Event, holdings: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                             np.ndarray]:
    """The distinct rows (`NAMES`) of hands holding `holdings` (n by 4 suits' bits, at
    the event), where each hand's suit reads its row (`inverse`, n by 4), and which
    suits each hand held (n by 4)."""
    hand = _hand_part(event, holdings)
    suits = np.broadcast_to(np.arange(4), holdings.shape)
    # A row is its suit and its hand part (each number below 16): one integer a row.
    key = suits.astype(np.int64)
    for k in range(hand.shape[2]):
        key = key * 16 + hand[:, :, k]
    _, first, inverse = np.unique(key.ravel(), return_index=True, return_inverse=True)
    public = np.asarray(event.public, dtype=np.float64)
    rows = np.concatenate([public[suits.ravel()[first]],
                           hand.reshape(-1, hand.shape[2])[first]], axis=1)
    return rows, inverse.reshape(holdings.shape), holdings != 0


@dataclass(frozen=True, slots=True)
class SuitReading:
    """A loaded model: the forest scoring a suit's row, the temperature that makes its
    scores the chance of each suit (`temper`), and the share of a hand's summed
    log-chances that weighs its layouts (`weight`)."""

    forest: Forest
    temper: float
    weight: float = 1.0

    def log_chances(self, events: Sequence[Event], dealt: np.ndarray) -> np.ndarray:
        """For one seat's hands as dealt (n, 52-bit masks), the log-chance of the suit
        chosen at each of `events` (that seat's), summed over the events, times
        `weight`."""
        total = np.zeros(len(dealt))
        if not events or not len(dealt):
            return total
        parts = []
        for event in events:
            holdings = suit_masks(dealt & ~np.int64(event.earlier))
            parts.append((event, *event_rows(event, holdings)))
        scores = self.forest.predict(np.concatenate([rows for _, rows, _, _ in parts]))
        start = 0
        for event, rows, inverse, held in parts:
            suit_scores = np.where(held, scores[start:start + len(rows)][inverse] / self.temper,
                                   -np.inf)
            start += len(rows)
            total += suit_scores[:, event.chosen] - np.logaddexp.reduce(suit_scores, axis=1)
        return total * self.weight


def _make(model: Path) -> SuitReading:
    card = json.loads(card_path(model).read_text())
    temper = float(card["temperature"])
    if not temper > 0:
        raise ValueError("its temperature is not positive")
    # A card from before the weight was fitted: the plain sum.
    weight = float(card.get("weight", 1.0))
    if not 0 <= weight <= 10:
        raise ValueError("its weight is not a share between 0 and 10")
    return SuitReading(ranker_at(model, NAMES), temper, weight)


SHELF = Shelf(log, "the suit reading of the play", "the layouts are not weighed by it",
              _make, DEFAULT)
load = SHELF.load
shared = SHELF.shared


def view_events(view: BridgeView) -> list[Event]:
    """The events of the play so far as `view`'s seat sees it (dummy's cards known)."""
    assert view.contract is not None and view.dummy is not None
    plays = [*view.played, *view.trick]
    dummy_dealt = [*view.dummy_hand, *(c for s, c in plays if s == view.dummy)]
    return events_of(plays, view.contract, dummy_dealt, view.calls)


def suits_weigh(view: BridgeView, model: SuitReading | None = None) -> Weigh | None:
    """The log-weight of a hidden seat's hands as dealt by the suits it chose in the play
    so far (`SuitReading.log_chances`; 0 for a seat without events). None where no
    hidden seat chose a suit yet, dummy is not faced, or the model does not load."""
    if view.contract is None or view.dummy is None or not view.dummy_hand:
        return None
    model = shared() if model is None else model
    if model is None:
        return None
    seen = {view.seat, view.dummy, view.playing_for}
    by_seat: dict[int, list[Event]] = {}
    for event in view_events(view):
        if event.seat not in seen:
            by_seat.setdefault(event.seat, []).append(event)
    if not by_seat:
        return None

    def weigh(seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        events = by_seat.get(seat)
        if not events:
            return [0.0] * len(hands)
        dealt = np.asarray([mask_of(hand) for hand in hands], dtype=np.int64)
        chances: list[float] = model.log_chances(events, dealt).tolist()
        return chances

    return weigh
