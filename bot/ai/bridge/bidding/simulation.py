"""Settling the captain's close decisions by simulation: deal the unseen hands as the
auction describes them, continue the auction from each candidate call by the system on
every layout, solve the contracts reached double dummy, and bid the call that scores best.

Where no table of the system speaks, the captain (`captain.place`) places the contract
from points and fits. Points miss what shape makes (a 9-card fit and a void) and what
strength alone cannot (24–26 points without tricks); in competition they miss whether
the opponents make what they bid. At such a decision (the opponents silent or not),
this module deals layouts of the three unseen hands, each hand within what its calls
show (`layouts.sample` with the auction's ranges, the card-play sampler), and keeps first
those on which each of the three would have made the calls it made by the system's
tables (`faithful_layouts`: a range is looser than the system that bid). On every
layout each candidate call's auction is rolled out to its end by the system's tables for
all four hands (`rollout`: partner answers an invitation or pulls a double, the opponents
bid on, save or double). The contracts reached are solved double dummy (only the
declarers they need, `dds.solve_counted`) and scored by their value in the rubber
(`rubber.rubber_value`: the points written, and what completing a game, winning the
rubber or a part score does to the rubber's expected result: a save counts the game
or rubber it keeps from them, a penalty double what it adds to letting them play), or
on a duplicate board as a duplicate deal. A candidate replaces the captain's call only
when it gains `MARGIN` IMPs a deal or more over it on the same layouts, and the layouts
agree: the gain is `CONFIDENCE` standard errors of its swings from one layout to the
next (with 6 to 14 layouts a decision, a slam that makes on four layouts of seven is
noise, and taking such gains cost IMPs on the bench's deals).

The number of layouts is planned from the budget and the mean costs of a solve, a
rollout and a layout's check before any work, and planned again with the declarers the
rollouts reach; the solver's reported search nodes (the same for the same positions) then
measure the work as it is done and stop a costly deal early, so the same seed gives the
same call. When too few layouts are solved for `MIN_LAYOUTS`, or the budget is found
spent before a batch of solving (the safety net, for a machine slower than planned), the
captain's call stands.
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
from ...core.layouts import Knowledge, Layouts, sample
from .captain import (
    SETTLE_CONFIDENCE,
    SETTLE_MARGIN,
    expected_points,
    game_level,
)
from .context import LHO, RHO, Context, suit_fit
from .rubber import Score, rubber_value
from .rules import Hand, Rule, rules_for
from .system import Settle, agreed_trump, choose

# Process CPU seconds of one declarer's double-dummy tricks in one strain (a best card of
# the opening leader, `dds.solve_counted` without every card). Measured on this 2-core
# machine with endplay 0.5.12 over 30 random deals in notrump and spades at load average
# 12: 0.026 s on average, from 0.001 to 0.17 s (a strain's whole table for the four
# declarers cost 0.057 s); DDS's reported search nodes cost 6.2e-7 s each, as in card
# play (`dds.NODE_SECONDS`), which measures the work as it is done. Planned at 0.03 s,
# near that mean: the measured work, not the plan, bounds a costly deal (the plan at
# 0.05 s left too few layouts once the auctions are rolled out and the layouts checked).
COST_PER_SOLVE = 0.03
# Thread CPU seconds of one candidate's auction rolled out on one layout by the system's
# tables (`rollout`: a few calls, each reading the auction, about 1 ms a call here).
ROLLOUT_COST = 0.004
# Layouts dealt within the ranges for each one kept: those whose hands the system would
# have bid as they did are kept first (`faithful_layouts`). A range is loose: 5% to 40%
# of the layouts dealt within it pass (four auctions of the tests, 60 layouts each);
# checking one costs 0.4 to 1.1 ms of thread CPU here (the first differing call ends it).
DEALT_PER_LAYOUT = 8
CHECK_COST = 0.001
CHECKS = CHECK_COST * DEALT_PER_LAYOUT  # the checks' cost for each layout kept
MIN_LAYOUTS = 6  # fewer is noise: the captain's call is as good
MAX_LAYOUTS = 40
# One strain: its contracts share a declarer or two, so the budget buys twice the layouts
# (a second strain, often notrump, moved 7 auctions of 400 for 6 IMPs more).
MAX_STRAINS = 1
STEP = 2  # layouts at least in a batch after the first (DDS's two threads share one)
MARGIN = SETTLE_MARGIN  # IMPs a deal a candidate must gain over the captain's call
CONFIDENCE = SETTLE_CONFIDENCE  # ... and by this many standard errors of its swings
SLAM_FLOOR = 24  # high-card points together (ours plus partner's expected) to try a slam
FIT = 8  # or a suit this long between my cards and partner's shown ones: shape makes slams


@dataclass(frozen=True, slots=True)
class Candidate:
    """A call and the contract it leads to if everyone passes (None: passed out); once
    rolled out (`with_rollouts`), the contract the auction reaches on each layout."""

    action: str
    contract: Contract | None
    reached: tuple[Contract | None, ...] = ()

    def contract_on(self, layout: int) -> Contract | None:
        return self.reached[layout] if self.reached else self.contract


def _after(calls: Sequence[tuple[int, Call]], seat: int, action: str) -> Auction:
    """The auction once `seat` has made `action` after `calls`."""
    dealer = calls[0][0] if calls else seat
    auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
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


def rollout(calls: Sequence[tuple[int, Call]], seat: int, action: str,
            hands: Sequence[Sequence[Card]], score: Score | None = None) -> Contract | None:
    """The contract reached if `seat` makes `action` after `calls` and the auction goes on
    with every hand of a layout bidding by the system's tables (no simulation in turn):
    partner answers an invitation, corrects a strain, doubles a sacrifice or pulls a
    double; the opponents bid on, save or double as the same system would."""
    auction = _after(calls, seat, action)
    while not auction.finished:
        who = auction.to_call()
        call, _ = choose(hands[who], who, auction.calls, auction.legal_texts(who),
                         score=score)
        auction.call(who, CALL_BY_TEXT[call])
    return auction.contract


def with_rollouts(ctx: Context, options: Sequence[Candidate],
                  layouts: Sequence[tuple[tuple[Card, ...], ...]]) -> list[Candidate]:
    """Each candidate valued by the contract its auction reaches on every layout (an
    invitation played where it stands could never beat the part score below it; a
    competitive bid where they would bid on, or a double partner would pull, is not the
    contract it names)."""
    return [Candidate(o.action, o.contract, tuple(
        rollout(ctx.calls, ctx.seat, o.action, hands, ctx.score) for hands in layouts))
        for o in options]


def candidates(ctx: Context, hand: Hand, legal: Sequence[str], rule_action: str,
               table: Sequence[Rule]) -> list[str]:
    """The calls worth comparing: the captain's, passing (unless forced), and in the first
    `MAX_STRAINS` strains of the captain's, the contract's now, our longest fit as far as
    the auction shows, and notrump: the cheapest bid, game, and a small slam when our
    values come near one or, in a suit, when partner has shown enough cards in it for an
    8-card fit
    (shape makes slams that points do not see; the double-dummy result decides). A call
    a table of this situation explains otherwise than this hand fits is left out (its
    explanation would mislead), save the captain's own: every other is measured
    against it.

    Where the opponents have bid, the strains are ours only (not a suit of theirs), and
    a level more than the cheapest is tried too (competing over their fit)."""
    contested = ctx.contested()
    theirs = ctx.their_suits() if contested else []
    fit = suit_fit(ctx, hand.lengths)
    long_fit = max((s for s in range(4) if s not in theirs), key=lambda s: (fit[s], s),
                   default=None)  # None: they have bid all four suits
    last = ctx.last_bid
    wanted: list[Strain] = []
    if rule_action.startswith("bid:"):
        wanted.append(Bid.parse(rule_action[4:]).strain)
    if last is not None and ctx.ours():
        wanted.append(last.strain)
    if long_fit is not None and fit[long_fit] >= 8:
        wanted.append(Strain(long_fit))
    wanted.append(Strain.NOTRUMP)
    strains = list(dict.fromkeys(w for w in wanted if w.trump not in theirs))[:MAX_STRAINS]
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
        if contested:
            goals.add(levels[0] + 1)
        trump = strain.trump
        if together >= SLAM_FLOOR or (trump is not None and hand.lengths[trump]
                                      + shown[trump] >= FIT):
            goals.add(6)
        out.extend(f"bid:{lvl}{strain.letter}" for lvl in sorted(goals) if lvl in levels)
    return [a for i, a in enumerate(out) if a in legal and a not in out[:i]
            and (i == 0 or _explained_truly(a, hand, table))]


def _legal_bids(legal: Sequence[str], strain: Strain) -> list[Bid]:
    bids = [Bid.parse(a[4:]) for a in legal if a.startswith("bid:")]
    return sorted(b for b in bids if b.strain == strain)


def _explained_truly(action: str, hand: Hand, table: Sequence[Rule]) -> bool:
    found = rules_for(table, action)
    return not found or found[0].fits(hand)


def deal_layouts(ctx: Context, cards: Sequence[Card], count: int,
                 rng: random.Random) -> Layouts:
    """`count` layouts of the other three hands, each within what its calls show."""
    mine = set(cards)
    known: list[tuple[Card, ...] | None] = [None, None, None, None]
    known[ctx.seat] = tuple(cards)
    ranges = tuple(ANY_HAND if s == ctx.seat or r.empty else r
                   for s, r in enumerate(ctx.shown))
    know = Knowledge(known=tuple(known), unseen=tuple(c for c in FULL_DECK if c not in mine),
                     sizes=(13, 13, 13, 13), ranges=ranges)
    return sample(know, count, rng)


def bid_as_they_did(ctx: Context, hands: Sequence[Sequence[Card]]) -> bool:
    """Every call the other three seats made is the call the system's tables choose for
    that seat's hand of the layout (a range is looser than the system: a hand within it
    may have bid otherwise)."""
    calls = ctx.calls
    dealer = calls[0][0] if calls else ctx.seat
    auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
    for who, made in calls:
        if who != ctx.seat:
            call, _ = choose(hands[who], who, auction.calls, auction.legal_texts(who),
                             score=ctx.score)
            if call != made.text:
                return False
        auction.call(who, made)
    return True


def faithful_layouts(ctx: Context, cards: Sequence[Card], count: int,
                     rng: random.Random) -> list[tuple[tuple[Card, ...], ...]]:
    """`count` layouts, those on which the others would have bid as they did first (of
    `DEALT_PER_LAYOUT` times as many dealt within the ranges), then the others in the
    order dealt (the auction read loosely)."""
    dealt = deal_layouts(ctx, cards, count * DEALT_PER_LAYOUT, rng).hands
    faithful: list[tuple[tuple[Card, ...], ...]] = []
    other: list[tuple[tuple[Card, ...], ...]] = []
    for hands in dealt:
        (faithful if bid_as_they_did(ctx, hands) else other).append(hands)
        if len(faithful) == count:
            break
    return (faithful + other)[:count]


def planned_layouts(budget: Budget | None, solves: int, rollouts: int = 0,
                    cores: int = 2) -> int:
    """Layouts this decision can afford: the budget's share over the cost of one (its
    `solves` contracts' declarers and strains, and its candidates' `rollouts`)."""
    if budget is None or solves == 0:
        return 0
    return min(MAX_LAYOUTS, budget.affordable(COST_PER_SOLVE * solves
                                              + ROLLOUT_COST * rollouts + CHECKS, cores))


Table = tuple[tuple[int, ...], ...]  # declarer's tricks, `table[strain][seat]`


def solve_contracts(layouts: Sequence[tuple[tuple[Card, ...], ...]],
                    contracts: Sequence[tuple[Strain, int]], budget: Budget | None,
                    used: float = 0.0) -> list[Table] | None:
    """Declarer's double-dummy tricks for each (strain, declarer) on each layout (the
    others read 0), as many layouts as the solver's reported work affords within the
    budget's planned seconds less the planned cost `used` already (`dds.solve_within`:
    one layout first, then batches of at least `STEP`). None when the budget is found
    spent, before a batch or after the last (the safety net, for a machine slower than
    planned: the rule answer then)."""
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
    solved = dds.solve_within(layouts, solve_batch, budget.planned_seconds() - used,
                              least=STEP, spent=budget.spent)
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
    losing case understate its odds and the spread (seed 32 of the bench: 6NT making on
    11 layouts of 14, 2.5 standard errors, went down; on 400 layouts where partner's
    hand would have bid as it did, it gained 0.5 ± 0.9 IMPs a deal)."""
    tested = [*swings, min(swings)]
    mean = statistics.fmean(tested)
    spread = statistics.stdev(tested)
    return mean > 0 and mean >= CONFIDENCE * spread / math.sqrt(len(tested))


def declarers(options: Sequence[Candidate]) -> list[tuple[Strain, int]]:
    """The (strain, declarer) pairs the candidates' contracts need solved, the contracts
    their auctions reach included once they are rolled out."""
    return sorted({(c.strain, c.declarer) for o in options
                   for c in (o.contract, *o.reached) if c is not None})


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
    count = planned_layouts(budget, len(declarers(options)), len(options))
    if count < MIN_LAYOUTS:
        return rule_action
    layouts = faithful_layouts(ctx, hand.cards, count, rng)
    options = with_rollouts(ctx, options, layouts)
    # The auctions rolled out may reach contracts of more declarers than passing out:
    # the layouts to solve are planned again with them.
    pairs = declarers(options)
    count = min(count, planned_layouts(budget, len(pairs), len(options)))
    if count < MIN_LAYOUTS:
        return rule_action
    tables = solve_contracts(layouts[:count], pairs, budget,
                             (ROLLOUT_COST * len(options) + CHECKS) * count)
    if tables is None or len(tables) < MIN_LAYOUTS:
        return rule_action  # spent, or too costly a deal to solve enough layouts
    index, _ = best(options, scores(ctx, options, tables, vulnerable, score))
    return _via_key_cards(ctx, options[index], legal)


def _via_key_cards(ctx: Context, chosen: Candidate, legal: Sequence[str]) -> str:
    """A small slam in our agreed suit is asked for with Roman Key Card Blackwood first
    when 4NT would ask (so that we stop in five missing two key cards)."""
    contract = chosen.contract
    if contract is None or contract.level != 6 or contract.strain == Strain.NOTRUMP \
            or "bid:4NT" not in legal or ctx.notrump_asks() or len(ctx.our_bids()) < 2:
        return chosen.action
    return "bid:4NT" if agreed_trump(ctx) == contract.strain.trump else chosen.action


class SampledBidding:
    """The default bridge player's bidding: the system's call, with the captain's
    decisions settled by simulation when the decision has a budget. In a rubber it bids
    to the score (the part scores and games won); `rubber_aware=False` bids every deal as
    a duplicate board (the benchmark's previous player)."""

    def __init__(self, seed: int = 0, rubber_aware: bool = True) -> None:
        self.seed = seed
        self.rubber_aware = rubber_aware

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

        return choose(hand, seat, calls, legal, by_simulation, score)[0]


def worth_settling(ctx: Context, rule_action: str) -> bool:
    """Our side has bid, no slam convention is under way, and the captain is not asking
    for key cards: a contract is being placed."""
    ours = ctx.our_bids()
    if not ours or rule_action in ("bid:4NT", "bid:5NT", "redouble"):
        return False
    asked = any(b.strain == Strain.NOTRUMP and b.level >= 4 for b in ours)
    if asked or max(b.level for b in ours) >= 6:
        return False
    if not ctx.contested():
        return True
    # Contested: only whether to compete over their part score, undoubled (settling
    # every contested decision, doubles included, cost 0.29 IMPs a deal on fresh deals).
    last = ctx.last_bid
    return last is not None and ctx.last_bidder in (LHO, RHO) and not ctx.doubled \
        and last.level < game_level(last.strain, ctx, LHO)
