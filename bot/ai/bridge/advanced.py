"""The strong Contract Bridge computer player: sampling and double-dummy card play.

Bidding goes through one seam (`self.bidding`: the natural system of `bot.ai.bridge.bidding`,
with the captain's close decisions settled by `bidding.simulation` when the call has a
budget) and what the auction says about each hand through another (`auction_ranges`: that
system's reader), so that the bidding can change without touching the play. Each card
is chosen by `card_search` from this seat's view only: its hand, dummy once faced, the
cards played, the suits each hand has shown out of, the auction's ranges (and, with
`read_lead`, the opening lead as the learned lead model reads it: `leads.lead_weigh`;
with `read_follows`, what the cards played to others' leads deny: `carding`; with
`read_suits`, the suits each hand chose in the play: `learning.suit_reading`).
When the search cannot answer in its budget (or is given none, as in simulations), the
rule-based player's card is played. The opening lead is the learned model's
(`learning.leads`) where it loads.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from bot.games.bridge_auction import Call, Contract
from bot.games.bridge_scoring import contract_score, trick_score
from bot.games.bridge_view import BridgeView
from bot.games.cards import FULL_DECK, Card

from ..core.budget import Budget
from ..core.card_search import MAX_LAYOUTS, Decision, Outcome, search
from ..core.carding import (
    EVERY_SEAT,
    Counting,
    CountSignals,
    attitude_signal,
    attitude_weigh,
    count_signal,
    count_weigh,
    discard_signal,
    follows_weigh,
)
from ..core.hand_range import ANY_HAND, HandRange
from ..core.layouts import OVERSAMPLE, Knowledge, Weigh, joined, shown_voids
from .basic import BridgePlayer
from .bidding import Score
from .bidding import auction_ranges as read_ranges
from .bidding.rules import Hand
from .bidding.simulation import SampledBidding
from .bidding.system import call_turns
from .learning import declaring, defence, leads
from .learning.reading import view_weigh
from .learning.suit_reading import suits_weigh
from .learning.trick_play import LEARNED_TO_TRICK

GAME_BONUS = (300, 500)  # not vulnerable, vulnerable: what completing a game is worth
PART_BONUS = 50


def auction_ranges(view: BridgeView) -> tuple[HandRange, ...]:
    """The bidding system's reading of each seat's hand (`bot.ai.bridge.bidding`); a reading no
    hand fits (odd calls) gives any hand, so the sampler never starves."""
    return tuple(ANY_HAND if r.empty else r for r in read_ranges(view))


def declarer_score(contract: Contract, tricks: int, vulnerable: bool, part_score: int) -> int:
    """What the deal is worth to declarer's side when it takes `tricks` in all: the score,
    with a bonus for a game completed (or a part score) as a rubber values it."""
    score = contract_score(contract, tricks, vulnerable)
    points = score.declarer_total - score.defenders_total
    if tricks >= contract.tricks_needed:
        below = trick_score(contract.level, contract.strain, contract.doubled)
        points += GAME_BONUS[vulnerable] if below + part_score >= 100 else PART_BONUS
    return points


def play_values(view: BridgeView, side: int) -> tuple[float, ...]:
    """What the deal scores for `side` (0 N-S, 1 E-W) by the tricks that side takes."""
    contract = view.contract
    assert contract is not None
    ours = contract.declarer % 2
    vulnerable = view.vulnerable[ours]
    part = view.part_scores[ours]
    values = []
    for tricks in range(14):
        if side == ours:
            values.append(float(declarer_score(contract, tricks, vulnerable, part)))
        else:
            values.append(-float(declarer_score(contract, 13 - tricks, vulnerable, part)))
    return tuple(values)


Agrees = Callable[[int, Sequence[Card]], bool]


def auction_check(view: BridgeView) -> Agrees:
    """Whether a hand as dealt (seat, its 13 cards) would have made that seat's calls by
    the bidding system's tables and captain (`bot.ai.bridge.bidding`): what the auction
    says of a hand, exactly, where its ranges are a loose hull."""
    return _auction_check(tuple(view.calls), Score.of(view))


@functools.lru_cache(maxsize=64)
def _auction_check(calls: tuple[tuple[int, Call], ...], score: Score | None) -> Agrees:
    """`auction_check` by auction, kept in the process that thinks (a worker process keeps
    it across decisions, while the player itself crosses to it and back pickled: a closure
    over the tables' rules does not pickle, so the player holds none)."""
    turns = call_turns(calls, score)

    def agrees(seat: int, hand: Sequence[Card]) -> bool:
        facts = Hand.of(hand)
        return all(turn.made_by(facts) for turn in turns if turn.seat == seat)

    return agrees


def tricks_of(view: BridgeView) -> list[list[tuple[int, Card]]]:
    """The tricks played, in order, the one in progress last (perhaps empty)."""
    tricks = [list(view.played[i:i + 4]) for i in range(0, len(view.played), 4)]
    tricks.append(list(view.trick))
    return tricks


def decision(view: BridgeView, legal: Sequence[str],
             ranges: Sequence[HandRange], agrees: Agrees | None = None,
             weigh: Weigh | None = None, oversample: int = OVERSAMPLE) -> Decision:
    """The card to choose, as this seat sees it (`oversample`: layouts dealt per layout
    kept where `weigh` weighs them)."""
    assert view.seat is not None and view.contract is not None
    playing = view.playing_for if view.playing_for is not None else view.seat
    known: list[tuple[Card, ...] | None] = [None, None, None, None]
    known[view.seat] = view.hand
    if view.dummy is not None and view.dummy_hand:
        known[view.dummy] = view.dummy_hand
    tricks = tricks_of(view)
    played: list[list[Card]] = [[], [], [], []]
    for trick in tricks:
        for seat, card in trick:
            played[seat].append(card)
    seen = {c for hand in known if hand for c in hand}
    seen.update(c for cards in played for c in cards)
    know = Knowledge(
        known=tuple(known), unseen=tuple(c for c in FULL_DECK if c not in seen),
        sizes=view.hand_sizes, voids=shown_voids(tricks),
        played=tuple(tuple(cards) for cards in played), ranges=tuple(ranges), agrees=agrees,
        weigh=weigh, oversample=oversample)
    leader = view.trick[0][0] if view.trick else playing
    return Decision(
        know=know, trump=view.contract.trump, leader=leader,
        trick=tuple(c for _, c in view.trick),
        legal=tuple(Card.parse(text[5:]) for text in legal),
        value=play_values(view, playing % 2), tricks_won=view.tricks_won[playing % 2])


class AdvancedBridgePlayer:
    """Bids through `self.bidding`; plays by sampling layouts and solving them."""

    kind = "bridge-advanced"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.basic = BridgePlayer(seed)  # the fallback card, and a tie-break
        self.bidding = SampledBidding(seed)
        self.ranges: Callable[[BridgeView], tuple[HandRange, ...]] = auction_ranges
        # The hand reading's weight of the layouts by the calls (`learning.reading`), and
        # how many layouts are dealt per layout kept by the weights. The benchmarks swap
        # them (`bridge-lead-play --flag oversample`, `--flag true_reading`).
        self.reading: Callable[[BridgeView], Weigh | None] = view_weigh
        self.oversample = OVERSAMPLE
        # The last card decision's search: its layouts and each card's value (None: not
        # searched); the benchmarks and the defence leads' rows read it.
        self.last_outcome: Outcome | None = None
        # The opening lead by the learned model (`learning.leads`) where it loads; off, the
        # card search leads as it plays any card (the benchmarks compare the two).
        self.learned_leads = True
        # The card search's layouts weighed by how likely each makes the opening lead, as
        # the lead model would make it (`leads.lead_weigh`), once the lead is made. On since
        # its registered bench (`bridge-lead-play`, 1,000 fresh deals) showed both sides
        # giving fewer DD tricks with it; off, the benches measure the play without it.
        self.read_lead = True
        # The layouts weighed by the cards each hand played to others' leads: the lowest
        # of equal cards, so not the next lower card (`carding.follows_weigh`). On since its
        # registered bench (`bridge-lead-play --flag read_follows`, 1,000 fresh deals)
        # showed both sides giving fewer DD tricks with it; off, the benches measure the
        # play without it.
        self.read_follows = True
        # The layouts weighed by the suits each hand chose to lead to later tricks and to
        # play when it could not follow, as the learned suit reading reads our players
        # (`learning.suit_reading`). Off until its registered bench (`bridge-lead-play
        # --flag read_suits`) says whether it pays.
        self.read_suits = False
        # Count signals ("on"): as a defender following for the first time to a suit
        # declarer's side leads, the highest of the small cards the search rates equal
        # with an even number, the lowest with an odd number, and the defenders' cards
        # read so on both sides (`carding.count_signal`, `count_weigh`). On since the
        # registered bench of both signals (`bridge-lead-play --flag signals`, 1,000 fresh
        # deals) found both sides giving 0.042 fewer DD tricks a deal with them (95%
        # 0.013 to 0.071); "ignored" is the benches' way without (gives none, reads none).
        self.count_signals: CountSignals = "on"
        # Attitude signals ("on"): following for the first time to a suit partner leads,
        # the highest of the equal small cards holding its ace, king or queen, the lowest
        # without, read so on both sides (`carding.attitude_signal`, `attitude_weigh`). On
        # with the count, by the same bench.
        self.attitude_signals: CountSignals = "on"
        # Count in discards ("on"): the first card a defender discards of a suit (trumps
        # apart), among the small cards of that suit the search rates equal, the highest
        # with an even number and the lowest with an odd number, read so on both sides
        # (`carding.discard_signal`, `count_weigh`). Off: its registered bench
        # (`bridge-lead-play --flag discard_signals`, 1,000 fresh deals) found no sure
        # gain (0.002 fewer DD tricks a deal, interval -0.013 to +0.009).
        self.discard_signals: CountSignals = "off"
        # The seats whose defenders give count: every seat in the benches; at a table, the
        # seats of computer players of this kind (`seated_with`), since people may not.
        self.count_givers = EVERY_SEAT
        # The most layouts a card search solves when its budget affords more
        # (`bridge-lead-play --flag wide_search` pairs twice as many with this).
        self.max_layouts = MAX_LAYOUTS
        # The defence's leads to tricks 2 to 6: searched, then chosen by the model in the
        # file named here (`learning.defence`, the shipped one) reading the search, where
        # it loads. None: the search's card (the rows and the benchmarks compare the two).
        self.learned_defence: Path | None = defence.DEFAULT
        # The declaring side's cards to tricks 2 to 6 the same way (`learning.declaring`):
        # none ships yet, so the search's card.
        self.learned_declaring: Path | None = None

    def _learned_card(self, view: BridgeView, legal: Sequence[str], outcome: Outcome | None
                      ) -> Card | None:
        """The card of the learned kind of card that takes this decision (the defence's
        leads, the declaring side's cards), where its model is named and loads; else
        None."""
        for kind in (defence.DEFENCE_LEADS, declaring.DECLARING):
            if kind.applies(view, LEARNED_TO_TRICK):
                model = kind.model(getattr(self, kind.attribute))
                return None if model is None else model.choose(
                    view, [Card.parse(t[5:]) for t in legal], outcome)
        return None

    def seated_with(self, same_kind: frozenset[int]) -> None:
        """Told by the table, before a decision, the seats of computer players of this kind:
        the defenders among them give count where this player does (`count_givers`)."""
        self.count_givers = same_kind

    @property
    def last_layouts(self) -> int:
        """The layouts the last card decision solved (0: not searched)."""
        return 0 if self.last_outcome is None else self.last_outcome.layouts

    def agrees(self, view: BridgeView) -> Agrees:
        """`auction_check` of this deal's auction, made once per auction in this process."""
        return auction_check(view)

    def choose(self, view: BridgeView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        if view.phase == "bidding" or view.contract is None:
            return self.bidding.choose(view, legal, budget)
        self.last_outcome = None
        model = leads.shared() if self.learned_leads and leads.is_opening_lead(view) else None
        if model is not None and len(legal) > 1:
            learned = model.choose(view, [Card.parse(t[5:]) for t in legal])
            if learned is not None:
                return "play:" + learned.text
        fallback = self.basic.choose(view, legal)
        if len(legal) == 1 or budget is None or budget.spent():
            return fallback
        # The same seed and position give the same layouts, whatever came before.
        rng = random.Random(f"{self.seed}:{view.deal_no}:{len(view.played)}:{len(view.trick)}")
        # The learned hand reading weighs the layouts by the calls, the lead model by the
        # opening lead, the cards followed with by what they deny, and the defenders' count
        # where they give it (none: the ranges and checks alone).
        tricks = tricks_of(view)
        declarer = view.contract.declarer
        trumps = view.contract.trump
        switches = (self.count_signals, self.attitude_signals, self.discard_signals)
        counting = (None if switches == ("off", "off", "off")
                    else Counting(declarer, self.count_givers, self.count_signals != "off",
                                  self.attitude_signals != "off",
                                  self.discard_signals != "off", trumps))
        signalling = self.count_signals == "on"
        showing = self.attitude_signals == "on"
        discarding = self.discard_signals == "on"
        # The count read: what the defenders give of it and this player reads.
        counted = (None if counting is None or not (signalling or discarding)
                   else replace(counting, count=signalling, discards=discarding))
        weigh = joined(self.reading(view), leads.lead_weigh(view) if self.read_lead else None,
                       follows_weigh(tricks, counting) if self.read_follows else None,
                       count_weigh(tricks, counted) if counted is not None else None,
                       attitude_weigh(tricks, counting) if showing and counting is not None
                       else None,
                       suits_weigh(view) if self.read_suits else None)
        now = decision(view, legal, self.ranges(view), self.agrees(view), weigh,
                       self.oversample)
        preferred = Card.parse(fallback[5:])
        outcome = search(now, budget, rng, preferred, self.max_layouts)
        self.last_outcome = outcome
        learned = self._learned_card(view, legal, outcome)
        if learned is not None:
            return "play:" + learned.text
        if outcome is None:
            return fallback
        signal = None
        if signalling and view.seat is not None:
            signal = count_signal(tricks, view.seat, declarer, view.hand, outcome.equals)
        if signal is None and showing and view.seat is not None:
            signal = attitude_signal(tricks, view.seat, declarer, view.hand, outcome.equals)
        if signal is None and discarding and view.seat is not None:
            signal = discard_signal(tricks, view.seat, declarer, trumps, view.hand,
                                    outcome.equals, outcome.card)
        return "play:" + (signal or outcome.card).text
