"""The opening lead learned from our own deals: the leader's cards ranked by what they cost.

    python -m bot.ai.bridge.learning.leads_training make --first 0 --deals 40000 --out ROWS.npz
    python -m bot.ai.bridge.learning.leads_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/opening_leads.npz

Why learned: scoring all 13 leads double dummy costs about 50 ms of the solver a layout,
so the card search affords a few layouts in a lead's budget, not the hundred a lead
wants. But given our players' auction, a bank deal as dealt is a fair draw of what the
hidden hands hold, so the tricks each lead takes on it, double dummy, label that lead for
every hand and auction like it: a model learned from tens of thousands of such deals
holds far more layouts than a search can solve at the table, and answers in a
millisecond.

A row is one candidate card of one opening lead: the leader's hand and the auction as the
system reads it from the leader's seat (the call values' and hand reading's own pieces),
the learned hand reading's means of the other hands (`reading`: each one's points, and
its length in the card's suit), the contract, and the card's own part (its suit's length
and honours in hand, where it sits in that suit, whether it heads a sequence, whether it
is trumps, what each other seat has shown in its suit and whether it bid it). Its target
is the tricks the lead gives away double dummy against the best lead of the deal (0 for
the best); the model ranks a deal's cards by it (`leads_training`), and the card ranked
first is led. The model reads the hand reading's output, so it needs that model too,
and is retrained after it.

This module is what the players read (a worker imports it); the rows and the training
are `leads_training`'s.
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

from ...core.layouts import Weigh
from ..bidding.captain import game_level
from ..bidding.context import LHO, PARTNER, RHO, Context
from ..bidding.rubber import Score
from ..bidding.rules import Hand
from ..bidding.system import context_of
from .features import AUCTION_NAMES, HAND_NAMES, auction_part, hand_part
from .forest import Forest
from .loading import Shelf
from .reading import Reading
from .reading import shared as shared_reading
from .values import MODELS, card_path

log = logging.getLogger(__name__)

DEFAULT = MODELS / "opening_leads.npz"
# The lead's reading (`lead_weigh`): the temperature of a softmax over the scores of the
# leader's 13 cards, the chance of leading each. The scores rank a deal's cards (the
# first card's lead over the second is about 0.1 at the median), so at 0.1 a hand that
# would lead the card weighs a few times one that would not, without ruling it out:
# people lead otherwise than our players. Chosen by `bench.strength bridge-lead-reading`
# on 60 deals from seed 771300101 (none of any DD figure's): from declarer's seat after
# the lead, 100 layouts weighed so missed the leader's honour points in the suit led by
# 0.57 on average, against 1.05 unweighed, and kept an effective 54 of them; colder
# (0.02: 0.53, 43 kept) read little more, warmer (0.25: 0.63) less.
LEAD_TEMPER = 0.1
# The most hands whose lead weight one deal keeps (about 100 bytes each: a deal came to
# 2,250 to 3,600 in six tried), and the most deals a process keeps them for (a worker
# thinks for every table, so a few dozen deals may be in play at once).
KNOWN_HANDS = 4096
KNOWN_DEALS = 32

CONTRACT_NAMES: tuple[str, ...] = (
    "contract_level", "contract_strain", "contract_doubled", "declarer_vulnerable",
    "contract_game", "contract_slam")
# The candidate's suit from the leader's side: LHO is dummy, RHO declarer.
CARD_NAMES: tuple[str, ...] = (
    "card_rank", "card_trump", "card_notrump", "suit_len", "suit_hcp",
    "suit_a", "suit_k", "suit_q", "suit_j", "suit_t",
    "from_top", "below", "heads_sequence", "inside_sequence", "sequence_len",
    "singleton", "doubleton", "trump_len",
    *(f"{who}_{what}" for who in ("dummy", "partner", "declarer")
      for what in ("min_len", "max_len", "bid_it")),
)
# The hand reading's means: dummy's, partner's and declarer's points, and their lengths in
# the card's suit (in `CARD_NAMES`' place after it).
READ_NAMES: tuple[str, ...] = ("dummy_read_hcp", "partner_read_hcp", "declarer_read_hcp")
READ_CARD_NAMES: tuple[str, ...] = ("dummy_read_len", "partner_read_len", "declarer_read_len")
NAMES: tuple[str, ...] = (*HAND_NAMES, *AUCTION_NAMES, *CONTRACT_NAMES, *READ_NAMES,
                          *CARD_NAMES, *READ_CARD_NAMES)


def contract_part(contract: Contract, vulnerable: tuple[bool, bool]) -> list[float]:
    """The contract's numbers (`CONTRACT_NAMES`); a game is the full one (the rows are
    duplicate deals')."""
    return [contract.level, int(contract.strain), contract.doubled,
            float(vulnerable[contract.declarer % 2]),
            float(contract.level >= game_level(contract.strain)), float(contract.level >= 6)]


def card_part(card: Card, hand: Sequence[Card], ctx: Context, contract: Contract) -> list[float]:
    """The candidate's own numbers (`CARD_NAMES`): `hand` is the leader's 13 cards."""
    suit = [c.rank for c in hand if c.suit == card.suit]
    ranks = set(suit)
    above = sorted((r for r in suit if r > card.rank), reverse=True)
    below = sum(1 for r in suit if r < card.rank)
    run = 1
    while card.rank - run in ranks:
        run += 1
    trump = contract.trump
    out: list[float] = [
        card.rank, float(trump is not None and card.suit == trump),
        float(trump is None), len(suit), sum(max(0, r - 10) for r in suit),
        *(float(r in ranks) for r in (14, 13, 12, 11, 10)),
        len(above), below, float(card.rank + 1 not in ranks and run >= 2),
        float(card.rank + 1 in ranks), run,
        float(len(suit) == 1), float(len(suit) == 2),
        float(sum(1 for c in hand if trump is not None and c.suit == trump)),
    ]
    for rel in (LHO, PARTNER, RHO):
        shown = ctx.shown[(ctx.seat + rel) % 4]
        bid_it = any(int(b.strain) == int(card.suit) for b in ctx.bids(rel))
        out += [shown.min_len[card.suit], shown.max_len[card.suit], float(bid_it)]
    return out


def lead_rows(hand: Sequence[Card], ctx: Context, contract: Contract,
              vulnerable: tuple[bool, bool], cards: Sequence[Card], read: Reading
              ) -> list[list[float]]:
    """One row per candidate in `cards`, as the leader (`ctx.seat`, holding `hand`) sees
    the auction and the contract, with its hand `read`ing of the others (LHO is dummy,
    RHO declarer)."""
    shared = (hand_part(Hand.of(hand)) + auction_part(ctx, vulnerable)
              + contract_part(contract, vulnerable) + [m[0] for m in read.mean])
    return [shared + card_part(card, hand, ctx, contract)
            + [m[1 + card.suit] for m in read.mean] for card in cards]


def read_of(hand: Sequence[Card], ctx: Context, vulnerable: tuple[bool, bool]
            ) -> Reading | None:
    """The shipped hand reading of the others by `ctx.seat` holding `hand` (None where it
    does not load)."""
    model = shared_reading()
    return None if model is None else model.read(Hand.of(hand), ctx, vulnerable)


@dataclass(frozen=True, slots=True)
class LeadModel:
    """The loaded model: a forest scoring each card, higher for fewer tricks given away."""

    forest: Forest

    def scores(self, hand: Sequence[Card], ctx: Context, contract: Contract,
               vulnerable: tuple[bool, bool], cards: Sequence[Card], read: Reading
               ) -> list[float]:
        """Each candidate's score: the higher, the fewer tricks it is expected to give away
        (a ranking within the deal, not tricks)."""
        rows = lead_rows(hand, ctx, contract, vulnerable, cards, read)
        return [float(v) for v in self.forest.predict(rows)]

    def choose(self, view: BridgeView, cards: Sequence[Card]) -> Card | None:
        """The opening lead of `view`'s seat among `cards`: the best scored (ties: the first
        given); None where the hand reading it reads did not load."""
        assert view.seat is not None and view.contract is not None
        ctx = context_of(view.seat, tuple(view.calls), Score.of(view))
        read = read_of(view.hand, ctx, view.vulnerable)
        if read is None:
            return None
        scores = self.scores(view.hand, ctx, view.contract, view.vulnerable, cards, read)
        return cards[int(np.argmax(scores))]


def ranker_at(model: Path, *names: Sequence[str]) -> Forest:
    """The forest at `model`, checked against its card to read one of the feature lists
    `names` (raises where it cannot be used)."""
    card = tuple(json.loads(card_path(model).read_text())["features"])
    if card not in {tuple(each) for each in names}:
        raise ValueError("it was made for other features than this code computes")
    forest = Forest.load(model)
    if forest.features != len(card):
        raise ValueError("its forest does not match its card")
    return forest


def _make(model: Path) -> LeadModel:
    return LeadModel(ranker_at(model, NAMES))


# Without it (None), the card search chooses the opening lead.
SHELF = Shelf(log, "learned opening leads", "the lead is searched like any card", _make,
              DEFAULT)
load = SHELF.load
shared = SHELF.shared


def opening_lead(view: BridgeView) -> tuple[int, Card] | None:
    """The deal's opening lead (seat, card), once made."""
    first = view.played[:1] or view.trick[:1]
    return first[0] if first else None


def lead_weigh(view: BridgeView) -> Weigh | None:
    """How likely the opening lead makes a hand as the leader's hand as dealt, as a
    log-weight for the card search's layouts (0 for the other seats): the model's chance
    of leading that card from it (`LEAD_TEMPER`). None where the viewer led, the lead is
    not made yet, or this model or the hand reading it reads does not load."""
    lead = opening_lead(view)
    if lead is None or view.contract is None or lead[0] == view.seat:
        return None
    if shared() is None or shared_reading() is None:
        return None
    return weigh_lead(lead[0], lead[1], tuple(view.calls), Score.of(view), view.vulnerable,
                      view.contract)


@functools.lru_cache(maxsize=KNOWN_DEALS)
def weigh_lead(leader: int, led: Card, calls: tuple[tuple[int, Call], ...],
               score: Score | None, vulnerable: tuple[bool, bool], contract: Contract,
               temper: float = LEAD_TEMPER) -> Weigh:
    """`lead_weigh` of one deal's lead (`leader` led `led`), made once in the process that
    thinks, as the hand reading's weight is (the player crosses to a worker and back
    pickled, so it holds no closure); the shipped models must have loaded. `temper`: the
    softmax's temperature (the bench tries others)."""
    model, reader = shared(), shared_reading()
    assert model is not None and reader is not None
    ctx = context_of(leader, calls, score)
    # Each hand's weight, kept for the deal's later decisions: as the play goes on the
    # leader's hand as dealt has fewer unseen cards, and the same hands come back. A hand
    # is kept by its cards' bits, a third of the memory of its cards.
    known: dict[int, float] = {}

    def chances(dealt: Sequence[tuple[Card, ...]]) -> list[float]:
        # All the hands' cards in one reading of each forest: a decision weighs a few
        # hundred hands, and a forest read row by row costs about a millisecond a hand.
        reads = reader.read_all([Hand.of(hand) for hand in dealt], ctx, vulnerable)
        rows = [row for hand, read in zip(dealt, reads, strict=True)
                for row in lead_rows(hand, ctx, contract, vulnerable, hand, read)]
        scores = model.forest.predict(rows).reshape(len(dealt), 13) / temper
        totals = np.logaddexp.reduce(scores, axis=1)
        return [float(row[hand.index(led)] - total) if led in hand else 0.0
                for hand, row, total in zip(dealt, scores, totals, strict=True)]

    def weigh(seat: int, hands: Sequence[Sequence[Card]]) -> list[float]:
        if seat != leader:
            return [0.0] * len(hands)
        keys = [sum(1 << card.index for card in cards) for cards in hands]
        new = {key: cards for key, cards in zip(keys, hands, strict=True) if key not in known}
        if new:
            if len(known) + len(new) > KNOWN_HANDS:
                # Past the bound the kept hands go, this batch's kept ones with them, so
                # the whole batch is read anew.
                known.clear()
                new = dict(zip(keys, hands, strict=True))
            dealt = [tuple(sorted(cards)) for cards in new.values()]
            known.update(zip(new, chances(dealt), strict=True))
        return [known[key] for key in keys]

    return weigh


def is_opening_lead(view: BridgeView) -> bool:
    """Whether `view`'s seat is to make the deal's opening lead."""
    return (view.phase == "play" and view.contract is not None and not view.played
            and not view.trick and view.seat is not None
            and view.seat == (view.contract.declarer + 1) % 4)
