"""Settling the captain's close decisions by simulation: deal the unseen hands as the
auction describes them, solve the candidate contracts double dummy, and bid the one that
scores best.

Where no table of the system speaks, the captain (`captain.place`) places the contract
from points and fits. Points miss what shape makes (a 9-card fit and a void) and what
strength alone cannot (24–26 points without tricks). At such a decision of an auction
the opponents have left to us (they have only passed), this module deals layouts of the
three unseen hands, each hand within what its calls show (`layouts.sample` with the
auction's ranges, the card-play sampler; where the learned hand reading loaded,
`learning.reading`, the likelier layouts of several times as many dealt), solves each
candidate contract's declarer in its strain on every layout (`dds.solve_counted`: only
the declarers the candidates need, cheaper than whole trick tables), and scores each
candidate contract on every layout by its value in the rubber (`rubber.rubber_value`:
the points written, and what completing a game, winning the rubber or a part score does
to the rubber's expected result), or on a duplicate board as a duplicate deal
(vulnerability, game and slam bonuses, doubled undertricks). A candidate is the contract
it leads to if everyone passes, save an invitation (`captain.is_invitation`), which
leads on each layout to the contract partner's answer by the system's tables with that
layout's hand names. A candidate replaces the captain's call only when it gains `MARGIN`
IMPs a deal or more over it on the same layouts, and the layouts agree: the gain is
`CONFIDENCE` standard errors of its swings from one layout to the next (with the few
layouts a decision affords, a slam that makes on four layouts of seven is noise).

The number of layouts is planned from the budget and the mean cost of a solve before any
work; the solver's reported search nodes (the same for the same positions) then measure
the work as it is done and stop a costly deal early, so the same seed gives the same call.
When too few layouts are solved for `MIN_LAYOUTS`, or the budget is found spent before a
batch of solving (the safety net, for a machine slower than planned), the captain's call
stands.

The same layouts also settle a later parting (`arbitrate`): once the opponents have bid or
doubled, where the learned call values replace the tables' call and the two differ over
game or slam, the better of the two on the layouts is made (at a rubber, by its rubber
value).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.bridge_auction import CALL_BY_TEXT, Auction, Bid, Call, Contract, Strain
from bot.games.bridge_scoring import duplicate_score, imps
from bot.games.bridge_view import BridgeView
from bot.games.cards import FULL_DECK, Card

from ...core import dds
from ...core.budget import Budget
from ...core.hand_range import ANY_HAND
from ...core.layouts import Knowledge, Layouts, Weigh, sample
from ..learning.reading import weigh as hand_weigh
from ..learning.values import served as served_values
from .captain import (
    SETTLE_CONFIDENCE,
    SETTLE_MARGIN,
    expected_points,
    game_level,
    is_invitation,
)
from .context import Context, empty_auction, suit_fit
from .rubber import Score, rubber_value
from .rules import Hand, Rule
from .system import (
    Decision,
    Settle,
    agreed_trump,
    choose,
    decide,
    explained_truly,
    shown_by,
)

# Process CPU seconds planned for one declarer's double-dummy tricks in one strain (a best
# card of the opening leader, `dds.solve_counted` without every card). The plan only sets
# how many layouts are dealt, so a seed deals the same layouts for the same budget on any
# machine; the solver's reported work, not the plan, stops a costly deal. What a solve
# costs: `python -m bench.solves` (docs/performance.md).
COST_PER_SOLVE = 0.05
MIN_LAYOUTS = 6  # fewer is noise: the captain's call is as good
MAX_LAYOUTS = 40
# One strain: its contracts share a declarer or two, so the budget buys twice the layouts
# of two strains, and a second strain (often notrump) seldom changed the call.
MAX_STRAINS = 1
STEP = 2  # layouts at least in a batch after the first (DDS's two threads share one)
MARGIN = SETTLE_MARGIN  # IMPs a deal a candidate must gain over the captain's call
CONFIDENCE = SETTLE_CONFIDENCE  # ... and by this many standard errors of its swings
SLAM_FLOOR = 24  # high-card points together (ours plus partner's expected) to try a slam
FIT = 8  # or a suit this long between my cards and partner's shown ones: shape makes slams


@dataclass(frozen=True, slots=True)
class Candidate:
    """A call and the contract it leads to if everyone passes (None: passed out); for an
    invitation, the contract partner's answer leads to on each layout."""

    action: str
    contract: Contract | None
    answered: tuple[Contract | None, ...] = ()

    def contract_on(self, layout: int) -> Contract | None:
        return self.answered[layout] if self.answered else self.contract


def _after(calls: Sequence[tuple[int, Call]], seat: int, action: str) -> Auction:
    """The auction once `seat` has made `action` after `calls`."""
    dealer = calls[0][0] if calls else seat
    auction = empty_auction(dealer)
    for who, call in calls:
        auction.call(who, call)
    auction.call(seat, CALL_BY_TEXT[action])
    return auction


def _passed_out(auction: Auction) -> Contract | None:
    while not auction.finished:
        auction.call(auction.to_call(), Call.PASS)
    return auction.contract


def final_contract(calls: Sequence[tuple[int, Call]], seat: int, action: str) -> Contract | None:
    """The contract if `seat` makes `action` after `calls` and everyone passes after it."""
    return _passed_out(_after(calls, seat, action))


def answered_contract(calls: Sequence[tuple[int, Call]], seat: int, action: str,
                      partner_hand: Sequence[Card]) -> Contract | None:
    """The contract if `seat` invites with `action`, the next player passes, partner
    answers with `partner_hand` by the system's tables, and everyone passes after that."""
    auction = _after(calls, seat, action)
    auction.call(auction.to_call(), Call.PASS)
    partner = auction.to_call()
    answer, _ = choose(partner_hand, partner, auction.calls, auction.legal_texts(partner))
    auction.call(partner, CALL_BY_TEXT[answer])
    return _passed_out(auction)


def with_answers(ctx: Context, options: Sequence[Candidate],
                 layouts: Sequence[tuple[tuple[Card, ...], ...]]) -> list[Candidate]:
    """Each invitation among `options` valued by partner's answer on every layout (an
    invitation played where it stands would never beat the part-score below it)."""
    partner = (ctx.seat + 2) % 4
    out = []
    for option in options:
        bid = Bid.parse(option.action[4:]) if option.action.startswith("bid:") else None
        if bid is not None and is_invitation(ctx, bid):
            option = Candidate(option.action, option.contract, tuple(
                answered_contract(ctx.calls, ctx.seat, option.action, hands[partner])
                for hands in layouts))
        out.append(option)
    return out


def candidates(ctx: Context, hand: Hand, legal: Sequence[str], rule_action: str,
               table: Sequence[Rule]) -> list[str]:
    """The calls worth comparing: the captain's, passing (unless forced), and in the first
    `MAX_STRAINS` strains of the captain's, the contract's now, our longest fit as far as
    the auction shows, and notrump: the cheapest bid, game, and a small slam when our
    values come near one or, in a suit, when partner has shown enough cards in it for an
    8-card fit
    (shape makes slams that points do not see; the double-dummy result decides). A call
    whose explanation here the hand does not fit (`explained_truly`: a table's rule where
    one makes the call, else the captain's reading: the length a suit bid shows, an
    invitation's points, a key-card ask's slam values) is left out, save the captain's
    own: every other is measured against it."""
    fit = suit_fit(ctx, hand.lengths)
    long_fit = max(range(4), key=lambda s: (fit[s], s))
    last = ctx.last_bid
    wanted: list[Strain] = []
    if rule_action.startswith("bid:"):
        wanted.append(Bid.parse(rule_action[4:]).strain)
    if last is not None:
        wanted.append(last.strain)
    if fit[long_fit] >= 8:
        wanted.append(Strain(long_fit))
    wanted.append(Strain.NOTRUMP)
    strains = list(dict.fromkeys(wanted))[:MAX_STRAINS]
    together = hand.hcp + expected_points(ctx.partner_range())
    shown = ctx.partner_range().min_len
    out = [rule_action]
    if not ctx.forcing:
        out.append("pass")
    for strain in strains:
        levels = [b.level for b in _legal_bids(legal, strain)]
        if not levels:
            continue
        goals = {levels[0], game_level(strain, ctx)}
        trump = strain.trump
        if together >= SLAM_FLOOR or (trump is not None and hand.lengths[trump]
                                      + shown[trump] >= FIT):
            goals.add(6)
        out.extend(f"bid:{lvl}{strain.letter}" for lvl in sorted(goals) if lvl in levels)
    return [a for i, a in enumerate(out) if a in legal and a not in out[:i]
            and (i == 0 or explained_truly(ctx, table, a, hand))]


def _legal_bids(legal: Sequence[str], strain: Strain) -> list[Bid]:
    bids = [Bid.parse(a[4:]) for a in legal if a.startswith("bid:")]
    return sorted(b for b in bids if b.strain == strain)


def deal_layouts(ctx: Context, cards: Sequence[Card], count: int,
                 rng: random.Random, weigh: Weigh | None = None) -> Layouts:
    """`count` layouts of the other three hands, each within what its calls show; with
    `weigh` (the learned hand reading's), the likelier of several times as many."""
    mine = set(cards)
    known: list[tuple[Card, ...] | None] = [None, None, None, None]
    known[ctx.seat] = tuple(cards)
    ranges = tuple(ANY_HAND if s == ctx.seat or r.empty else r
                   for s, r in enumerate(ctx.shown))
    know = Knowledge(known=tuple(known), unseen=tuple(c for c in FULL_DECK if c not in mine),
                     sizes=(13, 13, 13, 13), ranges=ranges, weigh=weigh)
    return sample(know, count, rng)


def planned_layouts(budget: Budget | None, solves: int, cores: int = 2) -> int:
    """Layouts this decision can afford: the budget's share over the cost of one (its
    `solves` contracts' declarers and strains)."""
    if budget is None or solves == 0:
        return 0
    return min(MAX_LAYOUTS, budget.affordable(COST_PER_SOLVE * solves, cores))


Table = tuple[tuple[int, ...], ...]  # declarer's tricks, `table[strain][seat]`


def solve_contracts(layouts: Sequence[tuple[tuple[Card, ...], ...]],
                    contracts: Sequence[tuple[Strain, int]], budget: Budget | None,
                    ) -> list[Table] | None:
    """Declarer's double-dummy tricks for each (strain, declarer) on each layout (the
    others read 0), as many layouts as the solver's reported work affords within the
    budget's planned seconds (`dds.solve_within`: one layout first, then batches of at
    least `STEP`). None when the budget is found spent, before a batch or after the last
    (the safety net, for a machine slower than planned: the rule answer then)."""
    def solve_batch(batch: Sequence[tuple[tuple[Card, ...], ...]]) -> tuple[list[Table], float]:
        positions = [dds.Position(hands, strain.trump, (declarer + 1) % 4)
                     for hands in batch for strain, declarer in contracts]
        solved, nodes = dds.solve_counted(positions, every_card=False)
        out: list[Table] = []
        for i in range(len(batch)):
            tricks = [[0] * 4 for _ in range(5)]
            for j, (strain, declarer) in enumerate(contracts):
                leader_tricks = solved[i * len(contracts) + j]
                tricks[strain][declarer] = 13 - max(leader_tricks.values())
            out.append(tuple(tuple(row) for row in tricks))
        return out, nodes * dds.NODE_SECONDS

    if budget is None:
        return dds.solve_within(layouts, solve_batch, math.inf, least=STEP)
    solved = dds.solve_within(layouts, solve_batch, budget.planned_seconds(), least=STEP,
                              spent=budget.spent)
    return None if budget.spent() else solved


def scores(ctx: Context, options: Sequence[Candidate],
           tables: Sequence[Sequence[Sequence[int]]],
           vulnerable: tuple[bool, bool], score: Score | None = None) -> list[list[int]]:
    """Per candidate, our side's score on each layout (`tables[i][strain][seat]`:
    declarer's double-dummy tricks): its rubber value with the rubber's `score`
    (`rubber.rubber_value`: game completed, the rubber won, what a part score is worth),
    else (a duplicate board) its duplicate score."""
    side = ctx.seat % 2
    out = []
    for option in options:
        row = []
        for layout, table in enumerate(tables):
            contract = option.contract_on(layout)
            if contract is None:
                row.append(0)
                continue
            tricks = table[contract.strain][contract.declarer]
            if score is not None:
                row.append(round(rubber_value(contract, tricks, score, side)))
                continue
            points = duplicate_score(contract, tricks, vulnerable[contract.declarer % 2])
            row.append(points if contract.declarer % 2 == side else -points)
        out.append(row)
    return out


def best(options: Sequence[Candidate], points: Sequence[Sequence[int]]) -> tuple[int, float]:
    """The index of the best candidate and its IMPs a deal over the first (the captain's)
    on the same layouts; the first when none gains `MARGIN` with `CONFIDENCE`."""
    base = points[0]
    gains = [0.0] * len(options)
    for i, row in enumerate(points[1:], start=1):
        swings = [imps(p - b) for p, b in zip(row, base, strict=True)]
        if _reliable(swings):
            gains[i] = statistics.fmean(swings)
    top = max(range(len(options)), key=lambda i: (gains[i], -i))
    return (top, gains[top]) if gains[top] >= MARGIN else (0, 0.0)


def _reliable(swings: Sequence[int]) -> bool:
    """The layouts agree: the mean swing is `CONFIDENCE` standard errors above nothing (a
    handful of layouts that split, a slam making on four of seven, is noise), with the
    candidate's worst layout counted once more: a dozen layouts that seldom show the
    losing case understate its odds and the spread."""
    tested = [*swings, min(swings)]
    mean = statistics.fmean(tested)
    spread = statistics.stdev(tested)
    return mean > 0 and mean >= CONFIDENCE * spread / math.sqrt(len(tested))


def declarers(options: Sequence[Candidate]) -> list[tuple[Strain, int]]:
    """The (strain, declarer) pairs the candidates' contracts need solved, an invitation's
    answered contracts included once they are known."""
    return sorted({(c.strain, c.declarer) for o in options
                   for c in (o.contract, *o.answered) if c is not None})


def settle(ctx: Context, hand: Hand, legal: Sequence[str], rule_action: str,
           table: Sequence[Rule], vulnerable: tuple[bool, bool], budget: Budget | None,
           rng: random.Random, score: Score | None = None) -> str:
    """The captain's call, or a candidate that scores `MARGIN` IMPs better on layouts
    dealt as the auction describes."""
    if not worth_settling(ctx, rule_action):
        return rule_action
    actions = candidates(ctx, hand, legal, rule_action, table)
    if len(actions) < 2:
        return rule_action
    options = [Candidate(a, final_contract(ctx.calls, ctx.seat, a)) for a in actions]
    scored = on_layouts(ctx, hand, options, vulnerable, budget, rng, score)
    if scored is None:
        return rule_action
    options, points = scored
    index, _ = best(options, points)
    return _via_key_cards(ctx, hand, options[index], legal, table)


def on_layouts(ctx: Context, hand: Hand, options: Sequence[Candidate],
               vulnerable: tuple[bool, bool], budget: Budget | None, rng: random.Random,
               score: Score | None = None
               ) -> tuple[list[Candidate], list[list[int]]] | None:
    """The options (an invitation valued by partner's answer on each layout) and each
    one's score on layouts dealt as the auction describes, as many as the budget affords;
    None when too few can be dealt or solved (spent, or too costly a deal)."""
    count = planned_layouts(budget, len(declarers(options)))
    if count < MIN_LAYOUTS:
        return None
    layouts = deal_layouts(ctx, hand.cards, count, rng, hand_weigh(hand, ctx, vulnerable))
    answered = with_answers(ctx, options, layouts.hands)
    tables = solve_contracts(layouts.hands, declarers(answered), budget)
    if tables is None or len(tables) < MIN_LAYOUTS:
        return None
    return answered, scores(ctx, answered, tables, vulnerable, score)


def _via_key_cards(ctx: Context, hand: Hand, chosen: Candidate, legal: Sequence[str],
                   table: Sequence[Rule]) -> str:
    """A small slam in our agreed suit is asked for with Roman Key Card Blackwood first
    when 4NT would ask (so that we stop in five missing two key cards) and the hand fits
    what the ask shows (`explained_truly`: the slam values, `key_card_ask_range`); else
    the slam is bid."""
    contract = chosen.contract
    if contract is None or contract.level != 6 or contract.strain == Strain.NOTRUMP \
            or "bid:4NT" not in legal or ctx.notrump_asks() or len(ctx.our_bids()) < 2 \
            or not explained_truly(ctx, table, "bid:4NT", hand):
        return chosen.action
    return "bid:4NT" if agreed_trump(ctx) == contract.strain.trump else chosen.action


def _weighable(made: Decision, action: str, legal: Sequence[str]) -> Candidate | None:
    """The contract a call leads to if everyone passes after it, where that is what it
    leads to: a pass, or a bid the system reads as neither forcing nor an invitation; a
    key-card ask is counted as the small slam in the agreed suit it asks for. None: a
    call whose contract rests on partner's answer, or a double."""
    ctx = made.ctx
    if action == "bid:4NT" and not ctx.notrump_asks():
        trump = agreed_trump(ctx)
        slam = f"bid:6{Strain(int(trump)).letter}" if trump is not None else ""
        return Candidate(action, final_contract(ctx.calls, ctx.seat, slam)) \
            if slam in legal else None
    if action != "pass" and (not action.startswith("bid:")
                             or is_invitation(ctx, Bid.parse(action[4:]))
                             or shown_by(ctx, made.rules, action)[1]):
        return None
    return Candidate(action, final_contract(ctx.calls, ctx.seat, action))


def _game_or_more(candidate: Candidate) -> bool:
    contract = candidate.contract
    return contract is not None and contract.level >= game_level(contract.strain)


def arbitrate(made: Decision, legal: Sequence[str], chosen: str,
              vulnerable: tuple[bool, bool], budget: Budget | None,
              rng: random.Random, score: Score | None = None) -> str:
    """Once the opponents have bid or doubled: where the learned values' call (`chosen`)
    and the tables' differ over game or slam (either contract at game level or more, each
    the contract its call leads to), the one whose contract scores more IMPs on average
    over layouts dealt as the auction describes (on a board its duplicate score; at a
    rubber's `score` its rubber value, as `settle` weighs them). The values' call stands
    where the layouts cannot be afforded, a call's contract rests on partner's answer, and
    where the opponents have been silent (there the values' calls did better than the
    layouts' verdicts). docs/computer-players.md has the figures."""
    if budget is None or chosen == made.action or not made.ctx.contested():
        return chosen
    by_values, by_tables = (_weighable(made, a, legal) for a in (chosen, made.action))
    if by_values is None or by_tables is None \
            or not (_game_or_more(by_values) or _game_or_more(by_tables)):
        return chosen
    scored = on_layouts(made.ctx, made.facts, [by_values, by_tables], vulnerable, budget,
                        rng, score)
    if scored is None:
        return chosen
    values_points, tables_points = scored[1]
    swing = statistics.fmean(imps(t - v) for v, t in zip(values_points, tables_points,
                                                        strict=True))
    return made.action if swing > 0 else chosen


class SampledBidding:
    """The default bridge player's bidding: the system's call, with the captain's
    decisions settled by simulation when the decision has a budget, and the learned call
    values' better honest call where they find one (`learning.values`), itself weighed
    against the tables' call on layouts where they differ over game or slam in
    competition (`arbitrate`). In a rubber it bids to the score (the part scores and games
    won); `rubber_aware=False` bids every deal as a duplicate board (what `bench.strength
    bridge-rubber` measures the rubber-aware bidding against)."""

    def __init__(self, seed: int = 0, rubber_aware: bool = True, learned: bool = True
                 ) -> None:
        self.seed = seed
        self.rubber_aware = rubber_aware
        self.learned = learned  # the learned call values (`learning.values`) may change calls

    def choose(self, view: BridgeView, legal: Sequence[str],
               budget: Budget | None = None) -> str:
        assert view.seat is not None
        return self.call(view.hand, view.seat, view.calls, legal, view.vulnerable,
                         Score.of(view), view.deal_no, budget)

    def call(self, hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
             legal: Sequence[str], vulnerable: tuple[bool, bool], score: Score | None,
             deal_no: int, budget: Budget | None = None) -> str:
        """The call of `seat` holding `hand` after `calls` (the rubber's `score` is
        ignored by a player that is not rubber-aware)."""
        if not self.rubber_aware:
            score = None
        by_simulation: Settle | None = None
        if budget is not None:
            # The same seed and auction give the same layouts, whatever came before.
            rng = random.Random(f"{self.seed}:{deal_no}:{len(calls)}")

            def by_simulation(ctx: Context, facts: Hand, action: str,
                              table: Sequence[Rule]) -> str:
                return settle(ctx, facts, legal, action, table, vulnerable, budget, rng,
                              score)

        made = decide(hand, seat, calls, legal, by_simulation, score)
        # Learned values weigh the honest alternatives (`learning.values.served`).
        if self.learned:
            values = served_values(score)
            if values is not None:
                chosen = values.better(made, legal, vulnerable, score)
                if by_simulation is not None:
                    chosen = arbitrate(made, legal, chosen, vulnerable, budget, rng,
                                       score)
                return chosen
        return made.action


def worth_settling(ctx: Context, rule_action: str) -> bool:
    """Our side has bid, no slam convention is under way, and the captain is not asking
    for key cards: a contract is being placed."""
    ours = ctx.our_bids()
    if not ours or rule_action in ("bid:4NT", "bid:5NT", "redouble"):
        return False
    asked = any(b.strain == Strain.NOTRUMP and b.level >= 4 for b in ours)
    # Not where the opponents have bid or doubled: the simulation values our contract as
    # if they pass it out, but they double or bid on, and the ranges of their competitive
    # calls are loose; the captain decides these auctions.
    return not asked and not ctx.contested() and max(b.level for b in ours) < 6
