"""A finished bridge deal in compass terms: the one shape PBN and the solver read.

Both bridge games end up here. Contract Bridge seats already are compass seats (0=N, 1=E,
2=S, 3=W). Single Dummy Bridge names its hands by compass (S, W, N, E), so they map
directly; its two-player auction becomes a four-seat one with the dummies (North, East)
passing in turn, which ends exactly where the two-player auction ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games.bridge_auction import Call, Contract
from bot.games.bridge_view import DealSummary as BridgeSummary
from bot.games.cards import Card, Seat
from bot.games.single_dummy_view import DealSummary as SingleDummySummary

NORTH, EAST, SOUTH, WEST = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
# Single Dummy hand index (S, W, N, E) -> compass seat; its seat 0 is South, 1 is West.
SINGLE_DUMMY_COMPASS: tuple[Seat, ...] = (SOUTH, WEST, NORTH, EAST)
_CALL_TOKENS = {"pass": "Pass", "double": "X", "redouble": "XX"}


def pbn_call(call: Call) -> str:
    """A call as PBN writes it: `Pass`, `X`, `XX`, `1C` .. `7NT`."""
    if call.bid is not None:
        return call.bid.text
    return _CALL_TOKENS[call.kind]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished deal, everything by compass seat (N, E, S, W)."""

    game: str  # "bridge" or "single_dummy"
    deal_no: int
    dealer: Seat
    vulnerable: tuple[bool, bool]  # North-South, East-West
    hands: tuple[tuple[Card, ...], ...]  # N, E, S, W as played (13 cards each)
    calls: tuple[tuple[Seat, str], ...]  # PBN call tokens, clockwise from the dealer
    contract: Contract | None  # None: passed out; `declarer` is a compass seat here
    play: tuple[tuple[Seat, Card], ...]  # every card in the order played
    declarer_tricks: int | None  # None: passed out
    # The engine's public end-of-deal summary it was made from (the deal's picture).
    summary: BridgeSummary | SingleDummySummary | None = field(default=None, compare=False)

    @property
    def declarer(self) -> Seat | None:
        return None if self.contract is None else Seat(self.contract.declarer)

    @property
    def opening_leader(self) -> Seat | None:
        return self.play[0][0] if self.play else None


def from_bridge(summary: BridgeSummary, play: Sequence[tuple[int, Card]]) -> HandRecord:
    """A Contract Bridge deal from its end-of-deal summary and the cards played."""
    contract = summary.contract
    tricks = None
    if contract is not None:
        tricks = summary.tricks_won[contract.declarer & 1]
    return HandRecord(
        game="bridge", deal_no=summary.deal_no, dealer=Seat(summary.dealer),
        vulnerable=summary.vulnerable, hands=summary.hands,
        calls=tuple((Seat(seat), pbn_call(call)) for seat, call in summary.calls),
        contract=contract, play=tuple((Seat(pos), card) for pos, card in play),
        declarer_tricks=tricks, summary=summary)


def from_single_dummy(summary: SingleDummySummary,
                      play: Sequence[tuple[int, Card]]) -> HandRecord:
    """A Single Dummy deal (hands as seated for the play, play by hand index)."""
    hands: list[tuple[Card, ...]] = [()] * 4
    for index, hand in enumerate(summary.hands):
        hands[SINGLE_DUMMY_COMPASS[index]] = hand
    dealer = SINGLE_DUMMY_COMPASS[summary.dealer]
    calls = four_seat_auction(dealer, [(SINGLE_DUMMY_COMPASS[seat], pbn_call(Call.parse(text)))
                                       for seat, text in summary.calls])
    contract = summary.contract
    tricks = None
    if contract is not None:
        tricks = summary.tricks[contract.declarer]
        contract = Contract(contract.level, contract.strain,
                            int(SINGLE_DUMMY_COMPASS[contract.declarer]), contract.doubled)
    return HandRecord(
        game="single_dummy", deal_no=summary.deal_no, dealer=dealer,
        vulnerable=(False, False), hands=tuple(hands), calls=calls, contract=contract,
        play=tuple((SINGLE_DUMMY_COMPASS[h], card) for h, card in play),
        declarer_tricks=tricks, summary=summary)


def four_seat_auction(dealer: Seat, calls: Sequence[tuple[Seat, str]],
                      players: tuple[Seat, Seat] = (SOUTH, WEST),
                      ) -> tuple[tuple[Seat, str], ...]:
    """A two-player auction (by default South and West) with the other two seats passing
    in turn, closed with the passes a four-seat auction needs (three after a call, four
    if none bid)."""
    pending = list(calls)
    out: list[tuple[Seat, str]] = []
    seat = dealer
    while pending or not _auction_over([c for _, c in out]):
        if seat in players and pending:
            who, token = pending.pop(0)
            if who != seat:
                raise ValueError(f"call {token} by {who.name} out of turn at {seat.name}")
            out.append((seat, token))
        else:
            out.append((seat, "Pass"))
        seat = Seat((seat + 1) % 4)
    return tuple(out)


def _auction_over(tokens: Sequence[str]) -> bool:
    if not any(t != "Pass" for t in tokens):
        return len(tokens) >= 4
    return len(tokens) >= 4 and all(t == "Pass" for t in tokens[-3:])
