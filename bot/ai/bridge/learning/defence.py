"""The defence's leads to tricks 2 to 6 learned from our own deals: each card a defender
on lead may lead, ranked by what it costs.

    python -m bot.ai.bridge.learning.defence_training make --first 0 --deals 2000 --out ROWS.npz
    python -m bot.ai.bridge.learning.defence_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/defence_leads.npz

Why learned: the card search values a defender's lead on a few layouts solved double
dummy, and thinking four times longer leaves its choices as they were; its leads to
tricks 2 to 4 still give away about 0.19 double-dummy tricks a deal. Played out by our
own players, a bank deal as dealt is a fair draw of what the hidden hands hold given the
auction and the cards seen so far, so the tricks each lead takes on it label that lead
for every position like it: the model learns what the hidden hands hold as our players
bid and play, where the search only knows the auction's ranges.

A row is one legal card of a defender on lead, after the first trick: the defender's hand
as dealt and the auction as the system reads it (the call values' own pieces), the
contract and the tricks each side still needs, the learned hand reading's points of
partner and declarer, and the card's own part (`card_part`: its place among the cards
still out, its suit in hand and in dummy, who has shown out of it or played in it, who
led it before, what the auction said of it), and what the card search made of it at the
bot's budget (its average tricks and value short of the best card's, and, for a model
made after they were added, how often it was a best card and how its tricks spread over
the layouts): the model learns
where the search's double-dummy averages mislead it, rather than everything anew. Its
target is the tricks it gives away double dummy against the position's best lead
(`defence_training`).

At the table the card search runs as for any card, then the shipped model chooses the
lead reading what the search made of each card (`AdvancedBridgePlayer.learned_defence`;
`bench.strength bridge-defence` compares the two lead by lead). The features and the
model's reading are here, apart from the rows and training (`defence_training`), so that
a player can read them without LightGBM.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
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
from .leads import CONTRACT_NAMES, contract_part, ranker_at
from .loading import Shelf
from .reading import Reading
from .reading import shared as shared_reading
from .values import MODELS

log = logging.getLogger(__name__)

DEFAULT = MODELS / "defence_leads.npz"

# Where the play stands: the trick to lead (2 for the first after the opening lead), the
# tricks the defence still needs to beat the contract and declarer to make it, whether
# dummy sits on the leader's left (the opening leader) or right, and the trumps held.
PLAY_NAMES: tuple[str, ...] = (
    "trick_no", "defence_needs", "declarer_needs", "dummy_on_left",
    "my_trumps", "dummy_trumps", "trumps_out")
# The hand reading's means of partner's and declarer's points (from the auction).
READ_NAMES: tuple[str, ...] = ("partner_read_hcp", "declarer_read_hcp")
# The candidate's suit: "out" cards are neither in the leader's hand, nor dummy's, nor
# played (partner's or declarer's); "live" ranks are those not played yet.
CARD_NAMES: tuple[str, ...] = (
    "card_rank", "card_trump", "card_notrump",
    "suit_len", "suit_hcp", "mine_above", "mine_below", "run", "heads_run",
    "out_above", "dummy_above", "master",
    "dummy_len", "dummy_hcp", "out_len",
    "partner_void", "declarer_void",
    "partner_played", "declarer_played", "partner_high", "declarer_high",
    "times_led", "i_led_it", "partner_led_it", "declarer_led_it", "opening_suit",
    "last_trick_suit",
    *(f"{who}_{what}" for who in ("dummy", "partner", "declarer")
      for what in ("min_len", "max_len", "bid_it")),
    "partner_read_left", "declarer_read_left",
)
# What the card search made of the card, where it searched (`searched` 0: the rest are 0):
# the layouts it solved, the card's average tricks and value (the side's score, in
# hundreds of points) short of the best card's, and whether it is the card it chose.
SEARCH_NAMES: tuple[str, ...] = (
    "searched", "search_layouts", "search_tricks_short", "search_value_short", "search_pick")
# How the search's layouts split on the card (`Outcome.best_share`, `Outcome.spread`): the
# share of layouts where it is a best card, that share short of the highest card's, and
# the standard deviation of its tricks. An average hides a card best on most layouts and
# costly on a few; these came after the first model, which reads the names before them.
SPREAD_NAMES: tuple[str, ...] = ("search_best_share", "search_best_share_short",
                                 "search_spread")
NAMES: tuple[str, ...] = (*HAND_NAMES, *AUCTION_NAMES, *CONTRACT_NAMES, *PLAY_NAMES,
                          *READ_NAMES, *CARD_NAMES, *SEARCH_NAMES, *SPREAD_NAMES)
# The features a model may read: all, or all but the spread (the first model's).
FIRST_NAMES: tuple[str, ...] = NAMES[:-len(SPREAD_NAMES)]


def is_defence_lead(view: BridgeView, last_trick: int = 6) -> bool:
    """Whether `view`'s seat is a defender to lead to a trick from 2 to `last_trick`."""
    contract = view.contract
    if (view.phase != "play" or contract is None or view.seat is None or view.trick
            or view.turn != view.seat):
        return False
    return view.seat % 2 != contract.declarer % 2 and 4 <= len(view.played) < 4 * last_trick


def dealt_hand(view: BridgeView) -> tuple[Card, ...]:
    """The viewer's 13 cards as dealt: in hand and played."""
    assert view.seat is not None
    mine = [*view.hand, *(c for s, c in view.played if s == view.seat),
            *(c for s, c in view.trick if s == view.seat)]
    return tuple(sorted(mine))


def read_of(view: BridgeView, ctx: Context) -> Reading | None:
    """The shipped hand reading of the others from the viewer's hand as dealt (None where
    it does not load)."""
    model = shared_reading()
    return None if model is None else model.read(Hand.of(dealt_hand(view)), ctx,
                                                  view.vulnerable)


def _hcp(ranks: Sequence[int]) -> int:
    return sum(max(0, r - 10) for r in ranks)


def card_part(card: Card, view: BridgeView, ctx: Context, read: Reading) -> list[float]:
    """The candidate's own numbers (`CARD_NAMES`) as the leader sees them."""
    contract, seat, dummy = view.contract, view.seat, view.dummy
    assert contract is not None and seat is not None and dummy is not None
    partner, declarer = (seat + 2) % 4, contract.declarer
    suit = card.suit
    mine = [c.rank for c in view.hand if c.suit == suit]
    dummy_ranks = [c.rank for c in view.dummy_hand if c.suit == suit]
    played = [(s, c) for s, c in view.played if c.suit == suit]
    gone = {c.rank for _, c in played}
    out = [r for r in range(2, 15) if r not in gone and r not in mine and r not in dummy_ranks]
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
        sum(1 for r in out if r > card.rank), sum(1 for r in dummy_ranks if r > card.rank),
        float(not any(r > card.rank for r in (*out, *dummy_ranks))),
        len(dummy_ranks), _hcp(dummy_ranks), len(out),
    ]
    for who in (partner, declarer):
        row.append(float(any(s == who and c.suit != t[0][1].suit
                             for t in tricks for s, c in t if t[0][1].suit == suit)))
    for who in (partner, declarer):
        row.append(sum(1 for s, _ in played if s == who))
    for who in (partner, declarer):
        row.append(max((c.rank for s, c in played if s == who), default=0))
    row += [len(led), float(any(s == seat for s, _ in led)),
            float(any(s == partner for s, _ in led)),
            float(any(s in (declarer, dummy) for s, _ in led)),
            float(tricks[0][0][1].suit == suit), float(tricks[-1][0][1].suit == suit)]
    for who in (dummy, partner, declarer):
        shown = ctx.shown[who]
        bid_it = any(int(b.strain) == int(suit) for b in ctx.bids((who - seat) % 4))
        row += [shown.min_len[suit], shown.max_len[suit], float(bid_it)]
    for who in (partner, declarer):
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


def defence_rows(view: BridgeView, ctx: Context, cards: Sequence[Card], read: Reading,
                 outcome: Outcome | None) -> list[list[float]]:
    """One row per candidate in `cards` for the defender on lead in `view` (`ctx`: the
    auction from its seat, `context_of`), with its hand `read`ing of the others (from the
    auction) and the card search's `outcome` there."""
    contract, seat, dummy = view.contract, view.seat, view.dummy
    assert contract is not None and seat is not None and dummy is not None
    ours = view.tricks_won[seat % 2]
    theirs = view.tricks_won[contract.declarer % 2]
    trump = contract.trump
    seen = {*view.hand, *view.dummy_hand, *(c for _, c in view.played)}
    trumps_out = sum(1 for c in FULL_DECK if c.suit == trump and c not in seen)
    partner_rel, declarer_rel = 2, (contract.declarer - seat) % 4
    shared = (hand_part(Hand.of(dealt_hand(view))) + auction_part(ctx, view.vulnerable)
              + contract_part(contract, view.vulnerable)
              + [len(view.played) // 4 + 1, 14 - contract.tricks_needed - ours,
                 contract.tricks_needed - theirs, float((seat + 1) % 4 == dummy),
                 sum(1 for c in view.hand if c.suit == trump),
                 sum(1 for c in view.dummy_hand if c.suit == trump), trumps_out]
              + [read.mean[partner_rel - 1][0], read.mean[declarer_rel - 1][0]])
    return [shared + card_part(card, view, ctx, read) + search_part(card, outcome)
            for card in cards]


@dataclass(frozen=True, slots=True)
class DefenceLeadModel:
    """The loaded model: a forest scoring each card, higher for fewer tricks given away,
    reading the first `forest.features` of `NAMES` (`FIRST_NAMES` or all)."""

    forest: Forest

    def choose(self, view: BridgeView, cards: Sequence[Card], outcome: Outcome | None
               ) -> Card | None:
        """The lead of `view`'s defender among `cards`, reading the card search's `outcome`
        there: the best scored (ties: the first given); None where the hand reading it
        reads did not load."""
        assert view.seat is not None
        ctx = context_of(view.seat, tuple(view.calls), Score.of(view))
        read = read_of(view, ctx)
        if read is None:
            return None
        rows = np.asarray(defence_rows(view, ctx, cards, read, outcome))
        scores = self.forest.predict(rows[:, :self.forest.features])
        return cards[int(np.argmax(scores))]


def _make(model: Path) -> DefenceLeadModel:
    return DefenceLeadModel(ranker_at(model, FIRST_NAMES, NAMES))


# Without it (None), the defence leads the card search's card.
SHELF = Shelf(log, "learned defence leads", "the defence's leads are the card search's",
              _make, DEFAULT)
load = SHELF.load
shared = SHELF.shared
