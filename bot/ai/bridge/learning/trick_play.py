"""What the learned cards of the play after the opening lead share (`defence`: the
defence's leads; `declaring`: the declaring side's cards): a candidate card's own numbers
as the player sees them, what the card search made of it, the kind of decision a model
is for, and the loaded model choosing among the candidates.

A kind's model re-ranks the card search's candidates: the search runs as for any card,
then the model reads each candidate's row (the hand and auction, where the play stands,
the card's part and the search's part) and the best-scored card is played. Its rows and
training are `play_training`'s; this module is what the players read, without LightGBM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.games.bridge_view import BridgeView
from bot.games.cards import FULL_DECK, Card

from ...core.card_search import Outcome
from ..bidding.context import Context
from ..bidding.rubber import Score
from ..bidding.rules import Hand
from ..bidding.system import context_of
from .features import AUCTION_NAMES, HAND_NAMES, auction_part, hand_part
from .forest import Forest
from .leads import CONTRACT_NAMES, contract_part
from .loading import Shelf
from .reading import Reading
from .reading import shared as shared_reading

LEARNED_TO_TRICK = 6  # the learned cards are those to tricks 2 .. LEARNED_TO_TRICK

# What the card search made of the card, where it searched (`searched` 0: the rest are 0):
# the layouts it solved, the card's average tricks and value (the side's score, in
# hundreds of points) short of the best card's, and whether it is the card it chose.
SEARCH_NAMES: tuple[str, ...] = (
    "searched", "search_layouts", "search_tricks_short", "search_value_short", "search_pick")
# How the search's layouts split on the card (`Outcome.best_share`, `Outcome.spread`): the
# share of layouts where it is a best card, that share short of the highest card's, and
# the standard deviation of its tricks. An average hides a card best on most layouts and
# costly on a few.
SPREAD_NAMES: tuple[str, ...] = ("search_best_share", "search_best_share_short",
                                 "search_spread")


def card_names(visible: str, hidden: tuple[str, str], opponents: str) -> tuple[str, ...]:
    """The names of `card_part`'s numbers, the other visible hand called `visible`, the
    two hidden hands `hidden` and the other side `opponents`."""
    return (
        "card_rank", "card_trump", "card_notrump",
        "suit_len", "suit_hcp", "mine_above", "mine_below", "run", "heads_run",
        "out_above", f"{visible}_above", "master",
        f"{visible}_len", f"{visible}_hcp", "out_len",
        *(f"{who}_void" for who in hidden), *(f"{who}_played" for who in hidden),
        *(f"{who}_high" for who in hidden),
        "times_led", "i_led_it", "partner_led_it", f"{opponents}_led_it", "opening_suit",
        "last_trick_suit",
        *(f"{who}_{what}" for who in (visible, *hidden)
          for what in ("min_len", "max_len", "bid_it")),
        *(f"{who}_read_left" for who in hidden),
    )


def hand_of(view: BridgeView, seat: int) -> tuple[Card, ...]:
    """The cards `seat` still holds as `view`'s seat sees them: its own or dummy's."""
    return view.hand if seat == view.seat else view.dummy_hand


def dealt_hand(view: BridgeView) -> tuple[Card, ...]:
    """The viewer's 13 cards as dealt: in hand and played."""
    seat = view.seat
    assert seat is not None
    mine = [*view.hand, *(c for s, c in view.played if s == seat),
            *(c for s, c in view.trick if s == seat)]
    return tuple(sorted(mine))


def read_of(view: BridgeView, ctx: Context) -> Reading | None:
    """The shipped hand reading of the others from the viewer's hand as dealt (None where
    it does not load)."""
    model = shared_reading()
    return None if model is None else model.read(Hand.of(dealt_hand(view)), ctx,
                                                  view.vulnerable)


# The deal as the viewer saw it before the play (`deal_part`): its hand as dealt, the
# auction as the system reads it, and the contract.
DEAL_NAMES: tuple[str, ...] = (*HAND_NAMES, *AUCTION_NAMES, *CONTRACT_NAMES)


def deal_part(view: BridgeView, ctx: Context) -> list[float]:
    """`DEAL_NAMES`' numbers for the viewer (`ctx`: the auction from its seat)."""
    assert view.contract is not None
    return (hand_part(Hand.of(dealt_hand(view))) + auction_part(ctx, view.vulnerable)
            + contract_part(view.contract, view.vulnerable))


def trumps_out(view: BridgeView) -> int:
    """The trumps the viewer cannot see: neither in its hand nor dummy's, nor played."""
    assert view.contract is not None
    trump = view.contract.trump
    seen = {*view.hand, *view.dummy_hand, *(c for _, c in (*view.played, *view.trick))}
    return sum(1 for c in FULL_DECK if c.suit == trump and c not in seen)


def _hcp(ranks: Sequence[int]) -> int:
    return sum(max(0, r - 10) for r in ranks)


def card_part(card: Card, view: BridgeView, ctx: Context, read: Reading, me: int,
              hidden: tuple[int, int]) -> list[float]:
    """The candidate's own numbers (`card_names`) as `view`'s seat sees them: `card` from
    the hand of `me` (the viewer or dummy), the other visible hand being the other of the
    two, and `hidden` the two hands it cannot see. The cards of completed tricks and of
    the trick in progress are gone; who showed out or led is read from completed tricks."""
    contract, seat, dummy = view.contract, view.seat, view.dummy
    assert contract is not None and seat is not None and dummy is not None
    visible = dummy if me != dummy else seat
    partner = (me + 2) % 4
    suit = card.suit
    mine = [c.rank for c in hand_of(view, me) if c.suit == suit]
    visible_ranks = [c.rank for c in hand_of(view, visible) if c.suit == suit]
    played = [(s, c) for s, c in (*view.played, *view.trick) if c.suit == suit]
    gone = {c.rank for _, c in played}
    out = [r for r in range(2, 15)
           if r not in gone and r not in mine and r not in visible_ranks]
    # A run counts the cards played as gone: with the ace played, K-Q heads a sequence.
    live = [r for r in range(14, 1, -1) if r not in gone]
    at = live.index(card.rank)
    run = 1
    while at + run < len(live) and live[at + run] in mine:
        run += 1
    heads = run >= 2 and (at == 0 or live[at - 1] not in mine)
    tricks = [view.played[i:i + 4] for i in range(0, len(view.played), 4)]
    led = [t[0] for t in tricks if t[0][1].suit == suit]
    trump = contract.trump
    row: list[float] = [
        card.rank, float(trump is not None and suit == trump), float(trump is None),
        len(mine), _hcp(mine), sum(1 for r in mine if r > card.rank),
        sum(1 for r in mine if r < card.rank), run, float(heads),
        sum(1 for r in out if r > card.rank), sum(1 for r in visible_ranks if r > card.rank),
        float(not any(r > card.rank for r in (*out, *visible_ranks))),
        len(visible_ranks), _hcp(visible_ranks), len(out),
    ]
    shown_in = [*tricks, view.trick] if view.trick else tricks
    for who in hidden:
        row.append(float(any(s == who and c.suit != t[0][1].suit
                             for t in shown_in for s, c in t if t[0][1].suit == suit)))
    for who in hidden:
        row.append(sum(1 for s, _ in played if s == who))
    for who in hidden:
        row.append(max((c.rank for s, c in played if s == who), default=0))
    row += [len(led), float(any(s == me for s, _ in led)),
            float(any(s == partner for s, _ in led)),
            float(any(s not in (me, partner) for s, _ in led)),
            float(tricks[0][0][1].suit == suit), float(tricks[-1][0][1].suit == suit)]
    for who in (visible, *hidden):
        shown = ctx.shown[who]
        bid_it = any(int(b.strain) == int(suit) for b in ctx.bids((who - seat) % 4))
        row += [shown.min_len[suit], shown.max_len[suit], float(bid_it)]
    for who in hidden:
        dealt = read.mean[(who - seat) % 4 - 1][1 + suit]
        row.append(dealt - sum(1 for s, _ in played if s == who))
    return row


def search_part(card: Card, outcome: Outcome | None) -> list[float]:
    """What the card search made of `card` (`SEARCH_NAMES` and `SPREAD_NAMES`; all 0
    where it did not search)."""
    if outcome is None or card not in outcome.tricks:
        return [0.0] * (len(SEARCH_NAMES) + len(SPREAD_NAMES))
    share = outcome.best_share[card]
    return [1.0, outcome.layouts, max(outcome.tricks.values()) - outcome.tricks[card],
            (max(outcome.values.values()) - outcome.values[card]) / 100,
            float(card == outcome.card),
            share, max(outcome.best_share.values()) - share, outcome.spread[card]]


# A kind's rows: one per candidate in the cards given, for the player of `view` (the
# context is the auction from its seat, `context_of`), with its hand reading of the others
# and the card search's outcome there.
RowsOf = Callable[[BridgeView, Context, Sequence[Card], Reading, Outcome | None],
                  list[list[float]]]


@dataclass(frozen=True, slots=True)
class PlayModel:
    """A loaded model of a kind: a forest scoring each candidate, higher for fewer tricks
    given away, reading the first `forest.features` of the kind's rows."""

    forest: Forest
    rows_of: RowsOf

    def choose(self, view: BridgeView, cards: Sequence[Card], outcome: Outcome | None
               ) -> Card | None:
        """The card of `view`'s player among `cards`, reading the card search's `outcome`
        there: the best scored (ties: the first given); None where the hand reading it
        reads did not load."""
        assert view.seat is not None
        ctx = context_of(view.seat, tuple(view.calls), Score.of(view))
        read = read_of(view, ctx)
        if read is None:
            return None
        rows = np.asarray(self.rows_of(view, ctx, cards, read, outcome))
        scores = self.forest.predict(rows[:, :self.forest.features])
        return cards[int(np.argmax(scores))]


@dataclass(frozen=True)
class PlayKind:
    """One kind of learned card of the play: which decisions it takes (`applies`: the
    view, and the last trick it covers), its rows and their names (`names`: all;
    `first_names`: the names an older model of it may read), its shelf of models, the
    player's attribute naming the model file it plays by (None: the search's card), what
    a decision of it is, in words, and whether it takes one card a trick (`one_a_trick`:
    its positions in the rows are numbered by the trick, else by the cards played)."""

    name: str
    applies: Callable[[BridgeView, int], bool]
    rows_of: RowsOf
    names: tuple[str, ...]
    first_names: tuple[str, ...]
    shelf: Shelf[PlayModel]
    attribute: str
    what: str
    one_a_trick: bool = False

    def __post_init__(self) -> None:
        if len(set(self.names)) != len(self.names):  # a row read by name must be whole
            raise ValueError(f"{self.name}: a feature named twice")
        if self.names[:len(self.first_names)] != self.first_names:
            raise ValueError(f"{self.name}: the first names do not begin the names")

    def model(self, path: Path | None) -> PlayModel | None:
        """The model at `path` loaded once per process (None: none given, or it does not
        load; said once)."""
        return None if path is None else self.shelf.shared(path)
