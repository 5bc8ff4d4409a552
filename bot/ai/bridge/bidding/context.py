"""An auction seen from the seat about to call: who opened, what each side bid, what each
hand has shown so far. The tables are chosen from this."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.games.bridge_auction import CALL_BY_TEXT, Auction, Bid, Call, Strain
from bot.games.cards import Suit

from ...core.hand_range import HandRange
from .rubber import Score

ME, LHO, PARTNER, RHO = 0, 1, 2, 3


def empty_auction(dealer: int) -> Auction:
    """A four-hand auction with `dealer` to call first, partners two seats apart: where
    the bidding code replays calls."""
    return Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)


# A player at the table: the call (an action text, one of `legal`) `seat` makes after
# `calls`.
Caller = Callable[[int, Sequence[tuple[int, Call]], Sequence[str]], str]


def bid_to_end(dealer: int, call: Caller, calls: Sequence[tuple[int, Call]] = ()) -> Auction:
    """The auction of `dealer`'s deal from `calls` on to its end, each call made by
    `call`: the one loop of the players bidding a deal out (the rollouts, the benches)."""
    auction = empty_auction(dealer)
    for seat, made in calls:
        auction.call(seat, made)
    while not auction.finished:
        seat = auction.to_call()
        auction.call(seat, CALL_BY_TEXT[call(seat, auction.calls, auction.legal_texts(seat))])
    return auction


@dataclass(frozen=True, slots=True)
class Context:
    """The calls so far (seat, call) and what each seat has shown, from `seat`'s side."""

    seat: int
    calls: tuple[tuple[int, Call], ...]
    shown: tuple[HandRange, ...]  # per absolute seat
    forcing: bool  # partner's last call asks us to bid again and nobody has bid since
    score: Score | None = None  # the rubber's public score (None: a duplicate board)
    # Each relation's calls and bids, and the first and last bid (relation, bid), worked
    # out once: the situations' predicates ask for them again and again.
    _calls_of: tuple[tuple[Call, ...], ...] = field(init=False, repr=False, compare=False)
    _bids_of: tuple[tuple[Bid, ...], ...] = field(init=False, repr=False, compare=False)
    _first: tuple[int, Bid] | None = field(init=False, repr=False, compare=False)
    _last: tuple[int, Bid] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        calls: tuple[list[Call], ...] = ([], [], [], [])
        bids: tuple[list[Bid], ...] = ([], [], [], [])
        first = last = None
        for s, c in self.calls:
            rel = (s - self.seat) % 4
            calls[rel].append(c)
            if c.bid is not None:
                bids[rel].append(c.bid)
                last = (rel, c.bid)
                first = first or last
        object.__setattr__(self, "_calls_of", tuple(tuple(c) for c in calls))
        object.__setattr__(self, "_bids_of", tuple(tuple(b) for b in bids))
        object.__setattr__(self, "_first", first)
        object.__setattr__(self, "_last", last)

    def rel(self, seat: int) -> int:
        return (seat - self.seat) % 4

    def bids(self, who: int | None = None) -> list[Bid]:
        """Bids in order, all or of one relation (ME, LHO, PARTNER, RHO)."""
        if who is not None:
            return list(self._bids_of[who])
        return [c.bid for _, c in self.calls if c.bid is not None]

    def our_bids(self) -> list[Bid]:
        """Our side's bids in order (mine and partner's)."""
        return [c.bid for s, c in self.calls if c.bid is not None
                and self.rel(s) in (ME, PARTNER)]

    def notrump_asks(self) -> bool:
        """A 4NT from our side now would be quantitative (our last bid was notrump), not
        a key-card ask: both the asker and the answerer read it so."""
        before = [b for b in self.our_bids() if b != Bid(4, Strain.NOTRUMP)]
        return bool(before) and before[-1].strain == Strain.NOTRUMP

    def called(self, who: int) -> list[Call]:
        return list(self._calls_of[who])

    def actions(self, who: int) -> list[Call]:
        """The calls of one relation other than passes (its bids, doubles, redoubles)."""
        return [c for c in self._calls_of[who] if c.kind != "pass"]

    @property
    def opener(self) -> int | None:
        """The relation of the first bidder."""
        return None if self._first is None else self._first[0]

    @property
    def opening(self) -> Bid | None:
        return None if self._first is None else self._first[1]

    @property
    def last_bid(self) -> Bid | None:
        return None if self._last is None else self._last[1]

    @property
    def last_bidder(self) -> int | None:
        return None if self._last is None else self._last[0]

    @property
    def doubled(self) -> int:
        """0, 1 (doubled) or 2 (redoubled): the state of the last bid."""
        state = 0
        for _, call in self.calls:
            state = {"bid": 0, "double": 1, "redouble": 2}.get(call.kind, state)
        return state

    @property
    def rho_passed(self) -> bool:
        """Right-hand opponent's last call (the one just made) was a pass, or nobody called."""
        return not self.calls or self.calls[-1][1].kind == "pass"

    def contested(self) -> bool:
        """The opponents have bid or doubled (not only passed)."""
        return any(c.kind != "pass" for s, c in self.calls if self.rel(s) in (LHO, RHO))

    def ours(self) -> bool:
        """Our side made the last bid."""
        return self.last_bidder in (ME, PARTNER)

    def their_suits(self) -> list[Suit]:
        out: list[Suit] = []
        for who in (LHO, RHO):
            for bid in self.bids(who):
                suit = bid.strain.trump
                if suit is not None and suit not in out:
                    out.append(suit)
        return out

    def part_score(self, who: int = ME) -> int:
        """Below the line in the current game for the side of `who` (0 on a duplicate
        board)."""
        if self.score is None:
            return 0
        return self.score.parts[(self.seat + who) % 2]

    def partner_range(self) -> HandRange:
        return self.shown[(self.seat + 2) % 4]

    def my_range(self) -> HandRange:
        return self.shown[self.seat]


def agreed_trump(ctx: Context) -> Suit | None:
    """Our side's trump suit: the latest suit both of us bid or that we hold 8+ cards in
    together by what we have shown, else the latest suit one of us bid. A suit counts as
    bid by a hand that has shown three cards in it, below the five level (Stayman's or a
    strong 2♣, its 2♦ answers, and key-card answers, agree nothing: 1NT–2♣–2♦–4NT is
    quantitative, there is no suit to ask in)."""
    me, partner = ctx.my_range(), ctx.partner_range()
    suits = [s for b in reversed(ctx.our_bids()) if (s := b.strain.trump) is not None
             and b.level < 5]
    bid_by = {rel: {s for b in ctx.bids(rel) if (s := b.strain.trump) is not None
                    and b.level < 5 and ctx.shown[(ctx.seat + rel) % 4].min_len[s] >= 3}
              for rel in (ME, PARTNER)}
    for suit in suits:
        if (suit in bid_by[ME] and suit in bid_by[PARTNER]) or \
                me.min_len[suit] + partner.min_len[suit] >= 8:
            return suit
    return next((s for s in suits if s in bid_by[ME] | bid_by[PARTNER]), None)


def cheapest(strain: Strain, over: Bid | None) -> Bid | None:
    """The lowest bid in `strain` above `over` (None: over 7NT there is none)."""
    level = 1 if over is None else over.level + (0 if strain > over.strain else 1)
    return Bid(level, strain) if level <= 7 else None


def bid_text(level: int, strain: Strain | Suit) -> str:
    return f"{level}{Strain(int(strain)).letter}"


def suit_fit(ctx: Context, my_lengths: Sequence[int]) -> list[float]:
    """Our side's expected length in each suit: mine plus what partner has shown (or an
    even share of partner's unshown cards)."""
    shown = ctx.partner_range()
    rest = 13 - sum(shown.min_len)
    unknown = [s for s in range(4) if shown.min_len[s] == 0]
    share = min(2.5, rest / len(unknown)) if unknown else 0.0
    return [my_lengths[s] + (shown.min_len[s] if shown.min_len[s] else
                             min(share, shown.max_len[s])) for s in range(4)]
