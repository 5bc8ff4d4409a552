"""What the learned call values read: one row of numbers per candidate call at a decision.

A row is the decision's part (the hand, the seat's position, the vulnerability, the
auction as the system reads it: each seat's shown range from this seat's side, the
contract so far, whether partner's call forces) and two calls' parts (the candidate and
the tables' own call: its kind, level, strain, how far it jumps, whether it reaches game
or slam, our length and partner's shown length in its strain, and the points its
explanation shows). The model is asked what the candidate is worth, in IMPs against par,
above the tables' call; so both calls are in the row.

A model of rubber decisions (`RUBBER_NAMES` after `NAMES`) also reads the part scores below
the line, the deciding side's and the opponents' (games won are the vulnerability): its
rows are worth points of the rubber, not IMPs (`rollouts --rubber`).

A model that reads the hand reading (`READING_NAMES` after `NAMES`, or after a rubber
model's `RUBBER_NAMES`) also reads the learned hand reading's means of the three hidden
hands at the decision (`reading.reading_part`: each one's points and suit lengths),
worked out once a decision (`Candidates.hand_reading`) and only where such a model weighs
the calls (`rollouts --reading`). One may read besides what our side holds together as
read (`SIDE_NAMES` after those, `with_side`: sums of a row's own columns, so the rows
files never hold them; `train --side`). So a row is at widest `LAYOUT` on a board and
`RUBBER_LAYOUT` at a rubber: every round of a chain reads a prefix of one of them.

The candidates are honest by construction (`honest_candidates`): a call is one only where
the system's own reading of it (the explanation the table shows: its range, and the
conditions of the rule that makes it) admits the hand, so a call chosen by value is
explained truly and partner reads it as the system says. A forcing call of partner's is
never passed, and an ask for key cards or kings is answered by the tables alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from bot.games.bridge_auction import Bid, Strain

from ...core.hand_range import HandRange
from ..bidding.captain import game_level
from ..bidding.context import LHO, ME, PARTNER, RHO, Context, cheapest
from ..bidding.rubber import Score
from ..bidding.rules import Hand
from ..bidding.situations import partner_asks_for_a_count
from ..bidding.system import Decision, explained_truly, shown_by

# A call's reading by the system (`shown_by`: `meaning` less its words): the range of
# hands it shows, whether it forces. Worked out once per candidate: the honesty filter and
# the candidate's row both read it.
Shown = tuple[HandRange, bool]

RELATIONS = (ME, LHO, PARTNER, RHO)
KINDS = {"pass": 0, "double": 1, "redouble": 2}
KINDS_BID = 3  # a bid's kind
Floats = npt.NDArray[np.float64]


def hand_part(facts: Hand) -> list[float]:
    """The hand's numbers (`HAND_NAMES`)."""
    by_suit = [0, 0, 0, 0]
    honours = [0, 0, 0, 0]
    for card in facts.cards:
        if card.rank >= 11:
            by_suit[card.suit] += card.rank - 10
        if card.rank >= 12:
            honours[card.suit] += 1
    return [facts.hcp, facts.points, *facts.lengths, float(facts.balanced), facts.aces(),
            *by_suit, *honours]


def auction_part(ctx: Context, vulnerable: tuple[bool, bool]) -> list[float]:
    """The auction as the system reads it from `ctx.seat`'s side (`AUCTION_NAMES`)."""
    seat = ctx.seat
    row: list[float] = [len(ctx.calls), (seat - (ctx.calls[0][0] if ctx.calls else seat)) % 4,
                        float(vulnerable[seat % 2]), float(vulnerable[1 - seat % 2]),
                        float(ctx.forcing), float(ctx.contested())]
    for rel in RELATIONS:
        shown = ctx.shown[(seat + rel) % 4]
        row += [shown.min_hcp, min(shown.max_hcp, 37), *shown.min_len, *shown.max_len]
    last = ctx.last_bid
    bidder = ctx.last_bidder
    row += [last.level if last else 0, int(last.strain) if last else -1,
            -1 if bidder is None else float(bidder in (ME, PARTNER)), ctx.doubled,
            len(ctx.bids(ME)), len(ctx.bids(PARTNER)), len(ctx.bids(LHO)) + len(ctx.bids(RHO))]
    partner_bids = ctx.bids(PARTNER)
    row += [partner_bids[-1].level if partner_bids else 0,
            int(partner_bids[-1].strain) if partner_bids else -1]
    return row


def _call_part(d: Decision, action: str, said: Shown) -> list[float]:
    ctx = d.ctx
    shown, forcing = said
    kind = KINDS.get(action, KINDS_BID)
    if kind != KINDS_BID:
        return [kind, 0, -1, 0, 0, 0, 0, 0, shown.min_hcp, min(shown.max_hcp, 37),
                float(forcing)]
    bid = Bid.parse(action[4:])
    low = cheapest(bid.strain, ctx.last_bid)
    jump = bid.level - (low.level if low else bid.level)
    game = float(bid.level >= game_level(bid.strain, ctx))
    if bid.strain == Strain.NOTRUMP:
        mine, partners = 0.0, 0.0
    else:
        mine = float(d.facts.lengths[int(bid.strain)])
        partners = float(ctx.shown[(ctx.seat + 2) % 4].min_len[int(bid.strain)])
    return [kind, bid.level, int(bid.strain), jump, game, float(bid.level >= 6), mine,
            partners, shown.min_hcp, min(shown.max_hcp, 37), float(forcing)]


HAND_NAMES: tuple[str, ...] = (
    "hcp", "points", "len_c", "len_d", "len_h", "len_s", "balanced", "aces",
    "hcp_c", "hcp_d", "hcp_h", "hcp_s", "top_c", "top_d", "top_h", "top_s")
AUCTION_NAMES: tuple[str, ...] = (
    "calls", "position", "vul_us", "vul_them", "forced", "contested",
    *(f"{who}_{what}" for who in ("me", "lho", "partner", "rho")
      for what in ("min_hcp", "max_hcp", "min_c", "min_d", "min_h", "min_s",
                   "max_c", "max_d", "max_h", "max_s")),
    "last_level", "last_strain", "last_ours", "doubled", "my_bids", "partner_bids",
    "their_bids", "partner_level", "partner_strain")
NAMES: tuple[str, ...] = (
    *HAND_NAMES, *AUCTION_NAMES,
    *(f"{which}_{what}" for which in ("cand", "tables")
      for what in ("kind", "level", "strain", "jump", "game", "slam", "my_len",
                   "partner_len", "shows_min", "shows_max", "forcing")),
)

RUBBER_NAMES: tuple[str, ...] = ("part_us", "part_them")
# The hand reading's means (`reading.TARGETS`, in their order): for LHO, partner and RHO
# in turn, the hand's high-card points and its lengths in clubs, diamonds, hearts, spades.
READING_NAMES: tuple[str, ...] = tuple(
    f"read_{who}_{what}" for who in ("lho", "partner", "rho")
    for what in ("hcp", "c", "d", "h", "s"))
# What our side holds together as the hand reading reads it, worked out from a row's own
# columns (`with_side`), never stored in the rows: this hand's high-card points and suit
# lengths plus partner's read means, our longest fit and theirs (LHO's and RHO's means
# together), and our fit in the candidate's and the reference call's suit (0 for
# notrump, pass and double). A forest reads a sum of two columns only through many
# splits; a slam or a game turns on the sum.
SIDE_NAMES: tuple[str, ...] = (
    "side_hcp", "side_c", "side_d", "side_h", "side_s", "side_best", "their_best",
    "cand_side", "tables_side")
# The widest duplicate row: a round reads a prefix of it (`values`: every acting round's
# forest reads its own columns of one row).
LAYOUT: tuple[str, ...] = NAMES + READING_NAMES + SIDE_NAMES
# The widest rubber row: the part scores where a rubber round reads them, then the same.
RUBBER_LAYOUT: tuple[str, ...] = NAMES + RUBBER_NAMES + READING_NAMES + SIDE_NAMES


def row_names(rubber: bool, reading: bool = False, side: bool = False) -> tuple[str, ...]:
    """The columns of a round's rows: `NAMES`, the part scores for a rubber round, the hand
    reading's means for one that reads them, and our side's sums after those (`side`)."""
    if side and not reading:
        raise ValueError("our side's sums are read from the hand reading's means")
    plain = NAMES + RUBBER_NAMES if rubber else NAMES
    if not reading:
        return plain
    return plain + READING_NAMES + (SIDE_NAMES if side else ())


# Every round's columns (`row_names`) and what they say it reads: rubber, reading, side.
ROUND_LAYOUTS: dict[tuple[str, ...], tuple[bool, bool, bool]] = {
    row_names(rubber, reading, side): (rubber, reading, side)
    for rubber in (False, True) for reading in (False, True)
    for side in ((False, True) if reading else (False,))}
# What gives a decision's reading part (`READING_NAMES`) for the hand, the auction from
# its seat and the vulnerability (`reading.reading_part`, which this module cannot import).
Reader = Callable[[Hand, Context, tuple[bool, bool]], Sequence[float]]
# The columns in which one decision's rows differ (`Rows.row`: the candidate's part, and
# the side's fit in its suit where the row is that wide), in either layout: a column
# counted as differing where it does not costs a little reading, never a wrong value.
CANDIDATE_COLUMNS: tuple[int, ...] = tuple(sorted(
    {i for layout in (LAYOUT, RUBBER_LAYOUT)
     for i, name in enumerate(layout) if name.startswith("cand_")}))


# Where `with_side` finds each column it sums, on a board and at a rubber (worked out
# once: it runs every decision).
_READ_AT: dict[bool, dict[str, int]] = {
    rubber: {name: i for i, name in enumerate(layout[:-len(SIDE_NAMES)])}
    for rubber, layout in ((False, LAYOUT), (True, RUBBER_LAYOUT))}


def with_side(x: Floats, rubber: bool = False) -> Floats:
    """Rows of `NAMES + READING_NAMES` (`rubber`: `NAMES + RUBBER_NAMES + READING_NAMES`)
    with `SIDE_NAMES` after them."""
    read_at = _READ_AT[rubber]
    if x.ndim != 2 or x.shape[1] != len(read_at):
        raise ValueError(f"rows of {len(read_at)} features wanted, got {x.shape}")

    def column(name: str) -> Floats:
        return x[:, read_at[name]]

    ours = np.stack([column(f"len_{s}") + column(f"read_partner_{s}") for s in "cdhs"],
                    axis=1)
    theirs = np.stack([column(f"read_lho_{s}") + column(f"read_rho_{s}") for s in "cdhs"],
                      axis=1)

    def fit_in(call: str) -> Floats:
        strain = column(f"{call}_strain")
        suit = (column(f"{call}_kind") == KINDS_BID) & (strain >= 0) & (strain <= 3)
        index = np.clip(strain, 0, 3).astype(np.int64)[:, None]
        return np.where(suit, np.take_along_axis(ours, index, axis=1)[:, 0], 0.0)

    return np.column_stack([x, column("hcp") + column("read_partner_hcp"), ours,
                            ours.max(axis=1), theirs.max(axis=1), fit_in("cand"),
                            fit_in("tables")])


def rubber_part(score: Score, seat: int) -> list[float]:
    """The part scores below the line from `seat`'s side (`RUBBER_NAMES`)."""
    return [float(score.parts[seat % 2]), float(score.parts[1 - seat % 2])]


class Rows:
    """The rows of one decision: its shared part made once, a call's part per candidate.

    `reference` is the call the candidates are weighed against: the tables' own call, or
    for a round stacked on an earlier one (`values.CallValues.base`) the call that round
    makes. Its part sits in the `tables_*` columns either way. With a rubber's `score`
    the row ends with its part scores (a rubber model's rows); with a `reader`, with the
    decision's hand reading part (`READING_NAMES`: a model that reads it). `known`: the
    decision's parts already worked out (`Candidates`), shared by every round of a
    chain."""

    def __init__(self, d: Decision, vulnerable: tuple[bool, bool],
                 reference: str | None = None, score: Score | None = None,
                 known: Candidates | None = None, reader: Reader | None = None) -> None:
        self.decision = d
        self.known = known if known is not None else Candidates(d, ())
        self.shared = self.known.shared(vulnerable)
        self.tables = self.known.call_part(d.action if reference is None else reference)
        self.rubber = [] if score is None else rubber_part(score, d.ctx.seat)
        self.reading = [] if reader is None else self.known.hand_reading(vulnerable, reader)

    def row(self, action: str) -> list[float]:
        """The candidate `action`'s row."""
        return [*self.shared, *self.known.call_part(action), *self.tables, *self.rubber,
                *self.reading]


def honest(d: Decision, action: str) -> bool:
    """The system's reading of `action` here (what its explanation shows) admits the hand."""
    return explained_truly(d.ctx, d.rules, action, d.facts)


# A round learned with slam candidates (`Candidates.wanted`) is offered a small slam in a
# strain where this hand and partner's shown minimum make at least this many HCP: few
# deals below it make twelve tricks, and slams offered everywhere would be most of the
# candidates (on 400 bank deals, 6% of the decisions get one at 24, and those reach 37
# of the 53 sides that can make a slam; with no floor nearly every decision would).
SLAM_ZONE = 24

# A round learned with long-suit candidates is offered jumps in a suit of at least this
# many cards of this hand's own (a weak jump overcall, a preempt over their opening).
LONG_SUIT = 6

# The classes of candidates a round may be offered beyond those every round weighs
# (`Candidates.wanted`; its card says which): the small slams, the bids between the
# cheapest bid and game (an invitation, or a raise to the level of the fit), and the jumps
# in a long suit of this hand's own where no fit is known. A round is offered only the
# classes it learned from: the rounds under it never weighed them.
SLAMS = "slams"
BETWEEN = "between"
LONG = "long"
EXTRAS = (SLAMS, BETWEEN, LONG)
Extras = frozenset[str]
NO_EXTRAS: Extras = frozenset()


def extras_asked(options: object) -> Extras:
    """The classes a command's options name (`rollouts`'s and `train`'s flags are spelled
    as the classes: `--slams`, `--between`, `--long`)."""
    return frozenset(extra for extra in EXTRAS if getattr(options, extra))


def honest_candidates(d: Decision, legal: Sequence[str]) -> list[str]:
    """The calls weighed against the tables' call (never it): pass, double and redouble
    where legal, the cheapest bid and the game in each strain, and every call a rule of
    the situation makes with this hand; only those whose explanation admits the hand
    (`explained_truly`). No pass where partner's call forces us and the tables bid; none at all
    when answering an ask."""
    return list(honest_readings(d, legal))


def honest_readings(d: Decision, legal: Sequence[str], reference: str | None = None,
                    extras: Extras = NO_EXTRAS) -> dict[str, Shown]:
    """`honest_candidates` in order, each with its reading (for `Rows.row`). Against a
    `reference` call other than the tables' (a stacked round's base call), the tables'
    call is a candidate too, first, and the reference is not. `extras`: with those
    classes of candidates too (`Candidates.wanted`)."""
    return Candidates(d, legal).readings(reference, extras)


class Candidates:
    """One decision's candidate calls, their readings and their rows' parts, each worked
    out once. Every round of a stacked chain weighs the same calls of the same decision,
    each against its own reference call, so a chain of five rounds would otherwise read
    every candidate five times (most of a rollout's time)."""

    def __init__(self, d: Decision, legal: Sequence[str]) -> None:
        self.decision = d
        self.legal = legal
        self._wanted: dict[Extras, list[str]] = {}
        self._classes: dict[str, list[str]] = {}  # each extra class's calls (`_added`)
        self._shown: dict[str, Shown] = {}
        self._honest: dict[str, Shown | None] = {}  # None: the call does not admit the hand
        self._shared: dict[tuple[bool, bool], list[float]] = {}
        self._read: dict[tuple[bool, bool], list[float]] = {}
        self._calls: dict[str, list[float]] = {}

    def readings(self, reference: str | None = None, extras: Extras = NO_EXTRAS
                 ) -> dict[str, Shown]:
        """`honest_readings` of the decision against `reference` (`extras`: with those
        classes of candidates too)."""
        d = self.decision
        if partner_asks_for_a_count(d.ctx):  # the count is told; no value may change it
            return {}
        allowed = set(self.legal)
        if d.ctx.forcing and d.action != "pass":  # the tables' own pass (over a double) stays
            allowed.discard("pass")
        against = d.action if reference is None else reference
        first = [d.action] if against != d.action else []
        seen = {against}
        out: dict[str, Shown] = {}
        for action in first + self.wanted(extras):
            if action in allowed and action not in seen:
                seen.add(action)
                said = self.reading(action)
                if said is not None:
                    out[action] = said
        return out

    def wanted(self, extras: Extras = NO_EXTRAS) -> list[str]:
        """The calls asked about, in order, before the honesty filter (the tables' call
        apart): pass, double, redouble, the cheapest bid and the game in each strain, and
        every call a rule of the situation makes with this hand. Then, for a round learned
        with them (`extras`), the small slam in no trumps and in each fit strain
        (`_fits`), when this hand and partner's shown minimum hold `SLAM_ZONE` HCP
        (`SLAMS`); every bid between the cheapest and game in no trumps and in each
        fit strain (`BETWEEN`); and every bid between the cheapest and game in a suit
        of `LONG_SUIT` cards that is no fit strain (`LONG`)."""
        if extras not in self._wanted:
            # A chain asks several (its last round's classes and the rounds' under it):
            # each extends the list every round asks with its classes' calls, each class
            # worked out once, rather than reading every rule again.
            wanted = list(self.wanted()) if extras else self._asked()
            for extra in EXTRAS:  # in one order, as every round was offered them
                if extra in extras:
                    wanted += self._added(extra)
            self._wanted[extras] = wanted
        return self._wanted[extras]

    def _added(self, extra: str) -> list[str]:
        if extra not in self._classes:
            made = {SLAMS: self._slams, BETWEEN: self._between, LONG: self._long}[extra]
            self._classes[extra] = made()
        return self._classes[extra]

    def _asked(self) -> list[str]:
        d, ctx = self.decision, self.decision.ctx
        wanted = ["pass", "double", "redouble"]
        for strain in Strain:
            low = cheapest(strain, ctx.last_bid)
            if low is None:
                continue
            wanted.append(f"bid:{low}")
            game = game_level(strain, ctx)
            if game > low.level:
                wanted.append(f"bid:{Bid(game, strain)}")
        return wanted + [rule.action for rule in d.rules if rule.fits(d.facts)]

    def _fits(self, strain: Strain) -> bool:
        """No trumps, or a strain where this hand and partner's shown minimum hold eight
        cards."""
        d, ctx = self.decision, self.decision.ctx
        partner = ctx.shown[(ctx.seat + 2) % 4]
        return strain == Strain.NOTRUMP or (
            d.facts.lengths[int(strain)] + partner.min_len[int(strain)] >= 8)

    def _slams(self) -> list[str]:
        d, ctx = self.decision, self.decision.ctx
        partner = ctx.shown[(ctx.seat + 2) % 4]
        if d.facts.hcp + partner.min_hcp < SLAM_ZONE:
            return []
        out = []
        for strain in Strain:
            low = cheapest(strain, ctx.last_bid)
            if low is not None and low.level <= 6 and self._fits(strain):
                out.append(f"bid:{Bid(6, strain)}")
        return out

    def _between(self) -> list[str]:
        # The values otherwise choose between the cheapest bid and game: 3♥ over 1♥ (2♣)
        # with four trumps, 2NT after 1♣–1♠, 4♦ in a ten-card fit.
        return [call for strain in Strain if self._fits(strain)
                for call in self._below_game(strain)]

    def _long(self) -> list[str]:
        # Jumps where no fit is known (a fit strain's are `_between`'s): 3♠ over 1♥ with
        # seven spades, 4♣ over 1♠ (2♥). The tables make such a jump only where a rule
        # names it; the values weigh it wherever its reading admits the hand.
        lengths = self.decision.facts.lengths
        return [call for strain in Strain
                if strain != Strain.NOTRUMP and lengths[int(strain)] >= LONG_SUIT
                and not self._fits(strain)
                for call in self._below_game(strain)]

    def _below_game(self, strain: Strain) -> list[str]:
        """Every bid in `strain` above the cheapest and below game."""
        ctx = self.decision.ctx
        low = cheapest(strain, ctx.last_bid)
        if low is None:
            return []
        return [f"bid:{Bid(level, strain)}"
                for level in range(low.level + 1, game_level(strain, ctx))]

    def reading(self, action: str) -> Shown | None:
        """The system's reading of `action` where it admits the hand (`explained_truly`), else
        None."""
        if action not in self._honest:
            said = self.shown(action)
            d = self.decision
            self._honest[action] = said if explained_truly(d.ctx, d.rules, action, d.facts,
                                                           said) else None
        return self._honest[action]

    def shown(self, action: str) -> Shown:
        """The system's reading of `action` here (`shown_by`), honest or not."""
        if action not in self._shown:
            d = self.decision
            self._shown[action] = shown_by(d.ctx, d.rules, action)
        return self._shown[action]

    def shared(self, vulnerable: tuple[bool, bool]) -> list[float]:
        """The decision's part of every row (`hand_part`, `auction_part`)."""
        if vulnerable not in self._shared:
            d = self.decision
            self._shared[vulnerable] = hand_part(d.facts) + auction_part(d.ctx, vulnerable)
        return self._shared[vulnerable]

    def hand_reading(self, vulnerable: tuple[bool, bool], reader: Reader) -> list[float]:
        """The decision's hand reading part (`READING_NAMES`), as `reader` gives it: read
        once (a decision has one reader, the shipped hand reading)."""
        if vulnerable not in self._read:
            d = self.decision
            part = [float(v) for v in reader(d.facts, d.ctx, vulnerable)]
            if len(part) != len(READING_NAMES):
                raise ValueError(f"a reading part of {len(part)} numbers, not "
                                 f"{len(READING_NAMES)}")
            self._read[vulnerable] = part
        return self._read[vulnerable]

    def call_part(self, action: str) -> list[float]:
        """`action`'s part of a row."""
        if action not in self._calls:
            self._calls[action] = _call_part(self.decision, action, self.shown(action))
        return self._calls[action]
