"""The bidding system: the table of each situation of the auction (`situations`), choosing
a call for a hand, and reading any auction (people's calls too) into what each hand holds
and a short explanation of every call."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.games.bridge_auction import CALL_BY_TEXT, Call
from bot.games.cards import Card

from ...core.hand_range import HandRange
from .captain import natural_phrase, place
from .context import Context, agreed_trump, empty_auction
from .part_score import rubber_rules
from .rubber import Score
from .rules import Hand, Rule, first_fit, hull, rules_for
from .situations import situation

__all__ = ["CallTurn", "Decision", "Reading", "Settle", "agreed_trump", "call_turns",
           "choose", "decide", "explained_truly", "meaning", "read", "situation",
           "tables_for"]


def tables_for(ctx: Context) -> tuple[str, list[Rule]]:
    """Every rule that speaks now, in order (the rubber's part-score rules first)."""
    name, table = situation(ctx)
    rules = list(table or ())
    rubber = rubber_rules(ctx, rules)
    if rubber:
        return "part score in a rubber", [*rubber, *rules]
    return name, rules


@dataclass(frozen=True, slots=True)
class Reading:
    """What an auction says: per seat, the range of its hand; per call, its explanation."""

    ranges: tuple[HandRange, ...]
    explanations: tuple[str, ...]
    forcing: tuple[bool, ...]


def read(dealer: int, calls: Sequence[tuple[int, Call]], score: Score | None = None,
         ) -> Reading:
    """Read every call of the auction with the system (people's calls too); `score`: the
    rubber's score (None: a duplicate board)."""
    return _read(tuple(calls), score)


# Every decision reads the whole auction before it, so an auction of n calls would be read
# n times over; each reading extends its prefix's, kept here (a pure function of the calls
# and the score), so a call costs one step. Bounded: a worker keeps a few thousand.
@lru_cache(maxsize=4096)
def _read(calls: tuple[tuple[int, Call], ...], score: Score | None) -> Reading:
    if not calls:
        return Reading((HandRange(),) * 4, (), ())
    before = _read(calls[:-1], score)
    seat, call = calls[-1]
    ctx = _context(seat, calls[:-1], before.ranges, before.forcing, score)
    _, rules = tables_for(ctx)
    text, rng, force = meaning(ctx, rules, call.text)
    narrowed = before.ranges[seat].narrowed(rng)
    ranges = before.ranges
    if not narrowed.empty:
        ranges = (*ranges[:seat], narrowed, *ranges[seat + 1:])
    return Reading(ranges, (*before.explanations, text), (*before.forcing, force))


def meaning(ctx: Context, rules: Sequence[Rule], action: str) -> tuple[str, HandRange, bool]:
    """What a call says here: its explanation, the range of hands it shows, and whether it
    is forcing (the situation's rules for it, else the captain's natural reading)."""
    found = rules_for(rules, action)
    if found:
        return (found[0].says, *_shown_by_rules(found))
    text, rng = natural_phrase(ctx, action)
    return text, rng, False


def shown_by(ctx: Context, rules: Sequence[Rule], action: str) -> tuple[HandRange, bool]:
    """`meaning` without its words: the range of hands the call shows and whether it is
    forcing (where only those are wanted, the explanation's text is not worth making)."""
    found = rules_for(rules, action)
    if found:
        return _shown_by_rules(found)
    return natural_phrase(ctx, action)[1], False


def explained_truly(ctx: Context, rules: Sequence[Rule], action: str, hand: Hand,
                    said: tuple[HandRange, bool] | None = None) -> bool:
    """The hand is within what `action` is explained as here (`said`, else `shown_by`):
    its range, and where the situation's rules make the call, the conditions of one of
    them (a suit's quality, the rule of 20, a count of key cards: limits a range cannot
    hold). A call the tables did not choose (the learned values', the simulation's) is
    made only where this holds, so it is explained truly."""
    shown, _ = shown_by(ctx, rules, action) if said is None else said
    if shown.empty or not shown.admits(hand.cards):
        return False
    found = rules_for(rules, action)
    return not found or any(rule.fits(hand) for rule in found)


def _shown_by_rules(found: Sequence[Rule]) -> tuple[HandRange, bool]:
    return hull([r.shows() for r in found]), any(r.forcing for r in found)


def _context(seat: int, calls: Sequence[tuple[int, Call]], shown: Sequence[HandRange],
             forcing: Sequence[bool], score: Score | None = None) -> Context:
    partner = (seat + 2) % 4
    force = False
    for j in range(len(calls) - 1, -1, -1):
        if calls[j][0] == partner:
            force = forcing[j] and all(c.kind == "pass" for _, c in calls[j + 1:])
            break
    return Context(seat, tuple(calls), tuple(shown), force, score)


def context_of(seat: int, calls: Sequence[tuple[int, Call]], score: Score | None = None
               ) -> Context:
    """The auction as the system reads it from `seat`'s side, whoever is to call (what
    `decide` sees when `seat` is)."""
    reading = read(0, calls, score)
    return _context(seat, calls, reading.ranges, reading.forcing, score)


# Settles a decision the captain made (context, hand, the captain's call, the rules of
# the situation) and returns the call to make instead, or the captain's.
Settle = Callable[[Context, Hand, str, Sequence[Rule]], str]


def choose(hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
           legal: Sequence[str], settle: Settle | None = None,
           score: Score | None = None) -> tuple[str, str]:
    """The call for `hand` (an action text, one of `legal`) and its explanation. Where no
    table speaks, the captain places the contract and `settle` may change its call.
    `score`: the rubber's score (None: a duplicate board)."""
    made = decide(hand, seat, calls, legal, settle, score)
    explained = read(0, [*calls, (seat, CALL_BY_TEXT[made.action])], score).explanations[-1]
    return made.action, explained


@dataclass(frozen=True, slots=True)
class Decision:
    """One call as the system made it, with what it saw: the auction's reading, the
    context and the situation's rules (what a later step weighs other calls with)."""

    action: str
    facts: Hand
    ctx: Context
    reading: Reading
    rules: tuple[Rule, ...]
    by_rule: bool  # a table's rule made the call (else the captain placed it)


def decide(hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
           legal: Sequence[str], settle: Settle | None = None,
           score: Score | None = None) -> Decision:
    """`choose`'s call, without its explanation, and what the system saw to make it."""
    reading = read(0, calls, score)
    ctx = _context(seat, calls, reading.ranges, reading.forcing, score)
    facts = Hand.of(hand)
    _, rules = tables_for(ctx)
    rule = first_fit(rules, facts, legal)
    action = rule.action if rule is not None else place(ctx, facts, list(legal))
    if action not in legal:
        action = "pass"
    if rule is None and settle is not None:
        action = settle(ctx, facts, action, rules)
    return Decision(action, facts, ctx, reading, tuple(rules), rule is not None)


@dataclass(frozen=True, slots=True)
class CallTurn:
    """One call of an auction and what the system saw when it was made."""

    seat: int
    call: str  # the action text made
    ctx: Context
    rules: tuple[Rule, ...]
    legal: tuple[str, ...]

    def made_by(self, facts: Hand) -> bool:
        """Whether the system's tables, holding `facts`, make this call here: a hand no
        table rule fits is taken as the captain's, not checked (the simulation may change
        the captain's calls, and placing costs ten times a table's look-up)."""
        rule = first_fit(self.rules, facts, self.legal)
        return rule is None or rule.action == self.call


def call_turns(calls: Sequence[tuple[int, Call]], score: Score | None = None,
               ) -> tuple[CallTurn, ...]:
    """Each call of an auction with its context, its situation's rules and the calls that
    were legal then: for asking of a hand whether the system would have bid as the
    auction went (the card-play sampler's layouts)."""
    turns: list[CallTurn] = []
    auction = empty_auction(calls[0][0] if calls else 0)
    for i, (seat, call) in enumerate(calls):
        reading = read(0, calls[:i], score)
        ctx = _context(seat, calls[:i], reading.ranges, reading.forcing, score)
        _, rules = tables_for(ctx)
        turns.append(CallTurn(seat, call.text, ctx, tuple(rules), auction.allowed_texts(seat)))
        auction.call(seat, call)
    return tuple(turns)
