"""Every rule of every table explains itself by its limits: the text a player reads
(`Rule.says`) is read back here, by a parser of its own, into suit lengths, high-card
points, points and "forcing", and must give exactly the rule's limits; the hand-written
words may carry no figure of strength or length. And every condition's declared shape
(what it tells the auction reader) holds for every hand the condition admits.

The rules are those the system uses on a corpus of auctions (deals bid by the system
and random legal auctions: people's odd calls, on duplicate boards and with rubber part
scores, so the tables are met with the suits of real auctions), and every table the
system page (/system) shows."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.ai.bridge.bidding import captain, choose_call, summary
from bot.ai.bridge.bidding import rules as table_rules
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.bidding.rules import ANY, SUIT_NAMES, Hand, Rule, first_fit
from bot.ai.bridge.bidding.system import _context, read, tables_for
from bot.games.bridge_auction import CALL_BY_TEXT, Auction, Call
from bot.games.cards import FULL_DECK, Card, Suit

SCORES = (None, Score((0, 0), (70, 0)), Score((1, 1), (0, 60)), Score((1, 0), (40, 40)))


def _auctions() -> Iterator[tuple[int, list[tuple[int, Call]], Score | None]]:
    rng = random.Random(34)
    for n in range(40):  # bid by the system, four hands dealt at random
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hands = [deck[i * 13:(i + 1) * 13] for i in range(4)]
        dealer, score = n % 4, SCORES[n % len(SCORES)]
        auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
        while not auction.finished:
            seat = auction.to_call()
            action, _ = choose_call(hands[seat], seat, auction.calls,
                                    auction.legal_texts(seat), score=score)
            auction.call(seat, CALL_BY_TEXT[action])
        yield dealer, list(auction.calls), score
    for n in range(160):  # people's calls: any legal call, passes likelier
        dealer, score = n % 4, SCORES[n % len(SCORES)]
        auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
        while not auction.finished and len(auction.calls) < 12:
            seat = auction.to_call()
            legal = auction.legal_texts(seat)
            bids = [t for t in legal if t.startswith("bid:")][:6]
            others = [t for t in legal if not t.startswith("bid:")]
            auction.call(seat, CALL_BY_TEXT[rng.choice(["pass"] * 3 + bids + others)])
        yield dealer, list(auction.calls), score


def _key(rule: Rule) -> tuple[object, ...]:
    return (rule.call, rule.words, rule.hcp, rule.pts, tuple(rule.lengths.items()),
            rule.when.name if rule.when else None, rule.trump, rule.forcing)


def _system_page_rules() -> list[Rule]:
    """The rules of every table the system page lists."""
    shown: list[Rule] = []
    lines_of = summary._lines

    def record(table: list[Rule]) -> list[str]:
        shown.extend(table)
        return lines_of(table)

    summary._lines = record  # type: ignore[assignment]
    try:
        summary.sections()
    finally:
        summary._lines = lines_of
    return shown


def _every_rule() -> list[Rule]:
    """Each distinct rule the system speaks with on the corpus or the system page."""
    found: dict[tuple[object, ...], Rule] = {_key(r): r for r in _system_page_rules()}
    for dealer, calls, score in _auctions():
        for i in range(len(calls) + 1):
            seat = calls[i][0] if i < len(calls) else (calls[-1][0] + 1) % 4
            reading = read(dealer, calls[:i], score)
            ctx = _context(seat, calls[:i], reading.ranges, reading.forcing, score)
            for rule in tables_for(ctx)[1]:
                found.setdefault(_key(rule), rule)
    return list(found.values())


RULES = _every_rule()
SUIT_BY_NAME = {name: Suit(i) for i, name in enumerate(SUIT_NAMES)}
NUMBER = r"(?:up to (\d+)|(\d+)–(\d+)|(\d+)\+|(\d+))"
LENGTH = re.compile(rf"^(?:at most (\d+)|{NUMBER[3:-1]}) (good )?(clubs|diamonds|hearts|spades)$")
STRENGTH = re.compile(rf"^{NUMBER} (HCP|points)$")
SHORT = re.compile(r"^a (singleton or void|void) in (good )?(clubs|diamonds|hearts|spades)$")
NO_MAJOR = re.compile(r"^no (four|five)-card major$")
# A figure of strength or of one suit's length, in words a player reads.
FIGURE = re.compile(r"\d+(\+|–\d+)? (HCP|points|high-card|support|(good )?(clubs|diamonds|"
                    r"hearts|spades))\b")


def _range(match: tuple[str | None, ...], top: int) -> tuple[int, int]:
    up_to, lo, hi, plus, exact = match
    if up_to is not None:
        return 0, int(up_to)
    if lo is not None and hi is not None:
        return int(lo), int(hi)
    if plus is not None:
        return int(plus), top
    assert exact is not None
    return int(exact), int(exact)


def read_back(rule: Rule) -> dict[str, object]:
    """The limits the rule's explanation states, read from its text alone."""
    says = rule.says
    assert says.startswith(rule.words), says
    rest = says[len(rule.words):]
    conditions = rule.when.each() if rule.when is not None else ()
    for test in conditions:
        if test.said and not (test.good is not None and test.good in rule.lengths):
            assert test.name in rest, (says, test.name)
            rest = rest.replace(test.name, "", 1)
    if rule.words:
        assert rest == "" or rest.startswith((": ", ", forcing")), says
        rest = rest[1:]
    lengths: dict[Suit, tuple[int, int]] = {}
    good: set[Suit] = set()
    stated: dict[str, object] = {"forcing": False, "lengths": lengths, "good": good}
    for item in (part.strip() for part in rest.split(",")):
        if not item:
            continue
        if item == "forcing":
            stated["forcing"] = True
        elif (m := NO_MAJOR.match(item)) is not None:
            cap = 3 if m.group(1) == "four" else 4
            lengths[Suit.HEARTS] = lengths[Suit.SPADES] = (0, cap)
        elif (m := SHORT.match(item)) is not None:
            lengths[SUIT_BY_NAME[m.group(3)]] = (0, 1 if m.group(1) != "void" else 0)
            if m.group(2):
                good.add(SUIT_BY_NAME[m.group(3)])
        elif (m := LENGTH.match(item)) is not None:
            at_most, *number, adjective, suit = m.groups()
            span = (0, int(at_most)) if at_most is not None else _range(tuple(number), 13)
            lengths[SUIT_BY_NAME[suit]] = span
            if adjective:
                good.add(SUIT_BY_NAME[suit])
        elif (m := STRENGTH.match(item)) is not None:
            stated[m.group(6)] = _range(m.groups()[:5], 37)
        else:
            raise AssertionError(f"{says!r}: {item!r} states no limit")
    return stated


@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{r.call} {r.says}")
def test_every_rules_explanation_states_exactly_its_limits(rule: Rule) -> None:
    stated = read_back(rule)
    # Points are never fewer than high cards: a bound one implies of the other is left
    # unsaid (a points floor at or below the HCP floor, an HCP ceiling at or above the
    # points ceiling).
    (h_lo, h_hi), (p_lo, p_hi) = rule.hcp, rule.pts or ANY
    hcp_lo, hcp_hi = stated.get("HCP", ANY)  # type: ignore[misc]
    pts_lo, pts_hi = stated.get("points", ANY)  # type: ignore[misc]
    assert hcp_lo == h_lo and (hcp_hi == h_hi or (hcp_hi == 37 and h_hi >= p_hi))
    assert pts_hi == p_hi and (pts_lo == p_lo or (pts_lo == 0 and p_lo <= h_lo))
    assert stated["lengths"] == {s: span for s, span in rule.lengths.items() if span != (0, 13)}
    assert stated["forcing"] == rule.forcing or "forcing" in rule.words
    conditions = rule.when.each() if rule.when is not None else ()
    assert stated["good"] == {t.good for t in conditions if t.good in rule.lengths}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{r.call} {r.says}")
def test_the_hand_written_words_state_no_strength_or_length(rule: Rule) -> None:
    # What the limits say is written from them; the words say only what they cannot.
    assert FIGURE.search(rule.words) is None, rule.words
    assert "forcing" not in rule.words or rule.forcing, rule.words


def test_the_rules_checked_are_every_rule_the_system_page_shows_and_more() -> None:
    checked = {(r.call, r.says) for r in RULES}
    lines = [line for _, lines in summary.sections() for line in lines if " — " in line
             and not line.startswith("Otherwise")]
    assert all(any(line.endswith(" — " + says) for _, says in checked) for line in lines)
    assert len(checked) > 5 * len(lines)


def _conditions() -> list[table_rules.Test]:  # imported by name, pytest would collect it
    found: dict[str, table_rules.Test] = {}
    for rule in RULES:
        for test in rule.when.each() if rule.when is not None else ():
            found.setdefault(f"{test.name} {id(test.holds)}", test)
    return list(found.values())


def test_each_condition_tells_the_reader_only_what_it_holds_for() -> None:
    # The reader narrows a hand's range by a condition's shape: a hand the condition
    # admits must never fall outside it (a sampled layout would miss a real hand).
    rng = random.Random(4)
    hands: list[list[Card]] = []
    for _ in range(400):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hands.append(deck[:13])
    facts = [Hand.of(cards) for cards in hands]
    conditions = _conditions()
    assert any(t.shape.min_len != (0, 0, 0, 0) for t in conditions)  # BALANCED's says some
    for test in conditions:
        for cards, hand in zip(hands, facts, strict=True):
            if test.holds(hand):
                assert test.shape.admits(cards), (test.name, hand.lengths)


# The captain: the prose players read is generated from its steps, and tested here
# against them (the system page, the docs) and against what they decide.

@functools.cache
def _captain_decisions(deals: int) -> list[tuple[str, str, str, bool]]:
    """The captain's decisions when the system bids random deals: the step that decided
    (or "pass"), the call, its explanation, and whether a rule of the situation's
    tables makes that call (and so explains it)."""
    rng = random.Random(1)
    taken: list[tuple[str, str, str, bool]] = []
    for n in range(deals):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hands = [deck[i * 13:(i + 1) * 13] for i in range(4)]
        score = SCORES[n % 2]
        auction = Auction([(n % 4 + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
        while not auction.finished:
            seat, legal = auction.to_call(), auction.legal_texts(auction.to_call())
            reading = read(0, auction.calls, score)
            ctx = _context(seat, auction.calls, reading.ranges, reading.forcing, score)
            facts = Hand.of(hands[seat])
            rules = tables_for(ctx)[1]
            action, says = choose_call(hands[seat], seat, auction.calls, legal, score=score)
            if first_fit(rules, facts, legal) is None:
                plan = captain.plan_of(ctx, facts, legal)
                step = next((s.name for s in captain.CAPTAIN_STEPS
                             if s.decide(plan) is not None), "pass")
                taken.append((step, action, says, any(r.action == action for r in rules)))
            auction.call(seat, CALL_BY_TEXT[action])
    return taken


def test_the_system_page_states_the_captains_steps_in_the_order_it_takes_them() -> None:
    parts = summary.sections()
    start = next(i for i, (title, _) in enumerate(parts) if "placing the contract" in title)
    shown = [line for _, lines in parts[start:] for line in lines]
    said = [*(step.says for step in captain.CAPTAIN_STEPS), *captain.AFTER_STEPS]
    assert shown == [f"{i}. {text}" for i, text in enumerate(said, 1)]
    assert all(step.says.startswith(step.name + ": ") for step in captain.CAPTAIN_STEPS)


def test_every_step_the_captain_states_decides_calls() -> None:
    taken = {step for step, _, _, _ in _captain_decisions(200)}
    assert taken == {step.name for step in captain.CAPTAIN_STEPS} | {"pass"}


# What the explanation of a captain's call (worked out from the auction alone, so that
# people's calls read the same) says of the step that made it.
STEP_WORDS = {
    "Slam": ("slam", "Blackwood", "quantitative"), "Game": ("game",),
    "Invitation": ("invites",), "Competition": ("competing", "penalty", "game"),
    "Misfit": ("more ",),
}  # a forced bid is explained as the natural bid it is ("4+ hearts")


def test_the_explanation_of_each_captains_call_names_its_step() -> None:
    decisions = [d for d in _captain_decisions(200) if not d[3]]  # explained by the captain
    assert len(decisions) > 500
    for step, action, says, _ in decisions:
        if action == "pass":  # the step is content where the auction stands
            assert says == "nothing more to say", (step, says)
        elif step != "Forced":
            assert any(word in says for word in STEP_WORDS[step]), (step, action, says)


def test_the_docs_name_the_captains_steps_in_order_and_its_levels() -> None:
    text = " ".join((Path(__file__).parents[2] / "docs" / "computer-players.md")
                    .read_text().split())
    names = ", ".join(step.name.lower() for step in captain.CAPTAIN_STEPS)
    assert f"Its steps, in order (the first that decides makes the call; `/system` states " \
           f"each): {names}; else pass." in text
    assert (f"(game {captain.GAME}, small slam {captain.SLAM}, grand slam {captain.GRAND})"
            in text)


def test_the_longest_possible_auction_is_read_call_by_call_as_in_one_go() -> None:
    """`read` extends the reading of the auction before each call (kept, so a decision
    costs one step, not the whole auction again): the longest legal auction, 319 calls,
    reads with nothing kept, and each of its prefixes reads the same afterwards."""
    from bot.ai.bridge.bidding import system
    from bot.ai.bridge.bidding.context import empty_auction
    from bot.games.bridge_auction import BID_CALLS

    auction = empty_auction(0)
    for _ in range(3):
        auction.call(auction.to_call(), Call.PASS)
    for bid in BID_CALLS:
        for call in (bid, Call.PASS, Call.PASS, Call.DOUBLE, Call.PASS, Call.PASS,
                     Call.REDOUBLE, Call.PASS, Call.PASS):
            auction.call(auction.to_call(), call)
    auction.call(auction.to_call(), Call.PASS)
    assert auction.finished and len(auction.calls) == 319
    system._read.cache_clear()
    whole = read(0, auction.calls)
    assert len(whole.explanations) == 319 and all(whole.explanations)
    system._read.cache_clear()
    for i in range(len(auction.calls) + 1):
        assert read(0, auction.calls[:i]).explanations == whole.explanations[:i]
    assert read(0, auction.calls) == whole
