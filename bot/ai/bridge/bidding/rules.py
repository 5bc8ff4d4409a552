"""The vocabulary of the bidding system's tables: a rule is one call, what hand it shows
(points and suit lengths, and at most one named condition) and a few words for what
those limits cannot say ("limit raise", "asks for key cards").

A table is a list of rules, most specific first. A hand bids by the first rule it fits
whose call is legal; an auction is read by finding each call's rules in the table of its
situation, so the same rule both chooses a call and explains it. The explanation a
player reads (`Rule.says`) is written from the limits themselves, so it cannot drift
from them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.games.cards import Card, Suit

from ...core.bridge_eval import has_stopper, hcp, is_balanced, is_good_suit, lengths
from ...core.hand_range import ANY_HAND, HandRange

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
ANY = (0, 37)
ANY_LENGTH = (0, 13)


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand and the numbers the rules read off it."""

    cards: tuple[Card, ...]
    hcp: int
    lengths: tuple[int, int, int, int]
    balanced: bool

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Hand:
        return cls(tuple(cards), hcp(cards), lengths(cards), is_balanced(cards))

    @property
    def points(self) -> int:
        """High-card points plus one for each card past the fourth in a suit."""
        return self.hcp + sum(max(0, n - 4) for n in self.lengths)

    def support(self, trump: Suit) -> int:
        """Points as dummy for `trump`: high cards plus 3 / 2 / 1 for a void, singleton or
        doubleton elsewhere."""
        return self.hcp + sum((3, 2, 1)[n] for s, n in enumerate(self.lengths)
                              if s != trump and n < 3)

    def aces(self) -> int:
        return sum(1 for c in self.cards if c.rank == 14)

    def stopper(self, suit: Suit) -> bool:
        return has_stopper(self.cards, suit)

    def good_suit(self, suit: Suit) -> bool:
        return is_good_suit(self.cards, suit)

    def longest(self) -> Suit:
        """The longest suit; the higher-ranking of equal ones."""
        return max(Suit, key=lambda s: (self.lengths[s], s))


@dataclass(frozen=True, slots=True)
class Test:
    """A named condition on a hand beyond points and lengths (e.g. "balanced").

    `shape` is what the condition tells the auction reader, as a range of hands: every
    hand the condition holds for must fit it (a test checks so); `TELLS_NOTHING` where
    no range of points and lengths holds it (a choice between suits, a disjunction,
    honours). `said`: whether the explanation names it (False: a tie-break between
    calls, e.g. "spades at least as long as hearts"). `good`: the suit whose length it
    qualifies ("6 good hearts")."""

    name: str
    holds: Callable[[Hand], bool]
    shape: HandRange
    said: bool = True
    good: Suit | None = None
    parts: tuple[Test, ...] = ()

    def each(self) -> tuple[Test, ...]:
        """The single conditions this one is made of (itself, if it is one)."""
        return tuple(p for t in self.parts for p in t.each()) if self.parts else (self,)


TELLS_NOTHING = ANY_HAND  # a condition no range of points and lengths can hold
BALANCED = Test("balanced", lambda h: h.balanced,
                HandRange(min_len=(2, 2, 2, 2), max_len=(5, 5, 5, 5)))


def _at_least(suit: Suit, n: int) -> HandRange:
    return HandRange(min_len=tuple(n if s == suit else 0  # type: ignore[arg-type]
                                   for s in range(4)))


def stopper_in(suits: Sequence[Suit]) -> Test:
    names = " and ".join(SUIT_NAMES[s] for s in suits)
    shape = HandRange(min_len=tuple(1 if s in suits else 0  # type: ignore[arg-type]
                                    for s in range(4)))  # A, Kx, Qxx or Jxxx: a card at least
    return Test(f"a stopper in {names}", lambda h: all(h.stopper(s) for s in suits), shape)


def good_suit(suit: Suit) -> Test:
    return Test(f"good {SUIT_NAMES[suit]}", lambda h: h.good_suit(suit),
                _at_least(suit, 5), good=suit)  # a good suit is five cards or more


def all_of(*tests: Test) -> Test:
    shape = ANY_HAND
    for t in tests:
        shape = shape if t.shape is ANY_HAND else t.shape if shape is ANY_HAND \
            else shape.narrowed(t.shape)
    return Test(" and ".join(t.name for t in tests), lambda h: all(t.holds(h) for t in tests),
                shape, said=any(t.said for t in tests), parts=tests)


@dataclass(frozen=True, slots=True)
class Rule:
    """One call of a table. `hcp` bounds high-card points; `pts` bounds points with
    length (`trump` set: support points for that suit); `lengths` bounds suit lengths."""

    call: str  # "1S", "2NT", "pass", "double", "redouble"
    words: str  # what the limits cannot say ("limit raise"): no points, lengths, forcing
    hcp: tuple[int, int] = ANY
    pts: tuple[int, int] | None = None
    lengths: Mapping[Suit, tuple[int, int]] = field(default_factory=dict)
    when: Test | None = None
    trump: Suit | None = None  # pts counts support points for this suit
    forcing: bool = False

    @property
    def says(self) -> str:
        """The explanation a player reads: the words, then the limits (lengths, points,
        the conditions said), then "forcing" ("limit raise: 3+ hearts, 10–12 points")."""
        limits = ", ".join(limits_text(self))
        if self.forcing and "forcing" not in self.words:
            if not limits:
                return f"{self.words}, forcing" if self.words else "forcing"
            limits += ", forcing"
        if self.words and limits:
            return f"{self.words}: {limits}"
        return self.words or limits

    @property
    def action(self) -> str:
        return self.call if self.call in ("pass", "double", "redouble") else "bid:" + self.call

    def fits(self, hand: Hand) -> bool:
        if not self.hcp[0] <= hand.hcp <= self.hcp[1]:
            return False
        if self.pts is not None:
            points = hand.points if self.trump is None else hand.support(self.trump)
            if not self.pts[0] <= points <= self.pts[1]:
                return False
        for suit, (lo, hi) in self.lengths.items():
            if not lo <= hand.lengths[suit] <= hi:
                return False
        return self.when is None or self.when.holds(hand)

    def shows(self) -> HandRange:
        """What the call says about the hand, as a range (loose where a count or a
        condition cannot be put as one: length and shortness points are worth at most 4,
        so "6+ points" admits 2+ high-card points); the points themselves are kept for the
        partner who counts them (`HandRange.strength`)."""
        lo, hi = self.hcp
        points = self.pts or ANY
        if self.pts is not None:
            lo, hi = max(lo, self.pts[0] - 4), min(hi, self.pts[1])
        min_len, max_len = [0, 0, 0, 0], [13, 13, 13, 13]
        for suit, (a, b) in self.lengths.items():
            min_len[suit], max_len[suit] = a, b
        shown = HandRange(lo, hi, (min_len[0], min_len[1], min_len[2], min_len[3]),
                          (max_len[0], max_len[1], max_len[2], max_len[3]),
                          min_points=points[0], max_points=points[1])
        return shown if self.when is None else shown.narrowed(self.when.shape)


Table = Sequence[Rule]


def first_fit(table: Table, hand: Hand, legal: Sequence[str]) -> Rule | None:
    """The first rule of the table that the hand fits and whose call is legal."""
    for rule in table:
        if rule.action in legal and rule.fits(hand):
            return rule
    return None


def rules_for(table: Table, action: str) -> list[Rule]:
    return [rule for rule in table if rule.action == action]


def hull(ranges: Sequence[HandRange]) -> HandRange:
    """The smallest range holding every one of `ranges` (a call one of several rules makes)."""
    return HandRange(
        min(r.min_hcp for r in ranges), max(r.max_hcp for r in ranges),
        tuple(min(r.min_len[i] for r in ranges) for i in range(4)),  # type: ignore[arg-type]
        tuple(max(r.max_len[i] for r in ranges) for i in range(4)),  # type: ignore[arg-type]
        min(r.min_points for r in ranges), max(r.max_points for r in ranges))


def range_text(lo: int, hi: int, unit: str, top: int = 37) -> str:
    """"12–21 points", "6+ points", "up to 11 points", "6 hearts"."""
    if lo == hi:
        return f"{lo} {unit}"
    if hi >= top:
        return f"{lo}+ {unit}"
    if lo <= 0:
        return f"up to {hi} {unit}"
    return f"{lo}–{hi} {unit}"


MAJORS_HIGH_FIRST = (Suit.SPADES, Suit.HEARTS)


def lengths_text(lengths: Mapping[Suit, tuple[int, int]],
                 good: Collection[Suit] = ()) -> list[str]:
    """The suit lengths a rule requires, as a player says them: "5+ spades", "6 good
    hearts", "at most 2 hearts", "no five-card major" (both majors at most four)."""
    out: list[str] = []
    major_caps = {lengths.get(m, ANY_LENGTH) for m in MAJORS_HIGH_FIRST}
    no_major = len(major_caps) == 1 and (cap := next(iter(major_caps)))[0] == 0 \
        and cap[1] in (3, 4)
    for suit, (lo, hi) in lengths.items():
        if no_major and suit in MAJORS_HIGH_FIRST:
            if suit == next(s for s in lengths if s in MAJORS_HIGH_FIRST):
                out.append(f"no {('four', 'five')[hi - 3]}-card major")
            continue
        if (lo, hi) == ANY_LENGTH:
            continue
        name = ("good " if suit in good else "") + SUIT_NAMES[suit]
        if lo == 0 and hi <= 1:
            out.append(("a void" if hi == 0 else "a singleton or void") + f" in {name}")
        else:
            out.append(f"at most {hi} {name}" if lo == 0 and hi < 13
                       else range_text(lo, hi, name, top=13))
    return out


def stated_strength(rule: Rule) -> tuple[tuple[int, int], tuple[int, int]]:
    """The rule's HCP and points limits less what one implies of the other: points are
    never fewer than the high cards, so a points floor at or below the HCP floor, or an
    HCP ceiling at or above the points ceiling, says nothing more."""
    (h_lo, h_hi), (p_lo, p_hi) = rule.hcp, rule.pts or ANY
    return (h_lo, 37 if h_hi >= p_hi else h_hi), (0 if p_lo <= h_lo else p_lo, p_hi)


def limits_text(rule: Rule) -> list[str]:
    """A rule's limits in words: its lengths, its points (high-card points, then points
    with length, or with shortness opposite a fit), the conditions it names."""
    conditions = rule.when.each() if rule.when is not None else ()
    good = {t.good for t in conditions if t.good is not None and t.good in rule.lengths}
    out = lengths_text(rule.lengths, good)
    hcp, pts = stated_strength(rule)
    if hcp != ANY:
        out.append(range_text(*hcp, "HCP"))
    if pts != ANY:
        out.append(range_text(*pts, "points"))
    out += [t.name for t in conditions if t.said and t.good not in good]
    return out
