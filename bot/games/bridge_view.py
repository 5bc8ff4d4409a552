"""What a Contract Bridge seat may see (views), the end-of-deal summary, and hand records.

All are fresh frozen dataclasses: a view holds only cards its seat may see (its own hand,
dummy once faced, cards played to the current and last trick, and the previous deal, which
is public once that deal is over).
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import ScoreLine
from .bridge_auction import Call, Contract
from .cards import Card, Seat, format_deal
from .requests import ClaimedDeal, RequestView
from .tricks import Trick


def auction_grid(calls: tuple[tuple[int, Call], ...],
                 ) -> tuple[tuple[Call | None, ...], ...]:
    """The auction as rows of four cells in seat order N, E, S, W (None: no call there).

    Calls go clockwise, so a row ends after West; the first row leaves the cells before
    the dealer empty, as an auction grid does.
    """
    rows: list[tuple[Call | None, ...]] = []
    row: list[Call | None] = [None] * 4
    for seat, call in calls:
        if seat == 0 and any(cell is not None for cell in row):
            rows.append(tuple(row))
            row = [None] * 4
        row[seat] = call
    if any(cell is not None for cell in row):
        rows.append(tuple(row))
    return tuple(rows)


LastTrick = Trick  # the name this game's readers use


@dataclass(frozen=True, slots=True)
class DealSummary(ClaimedDeal):
    """A finished (or thrown-in) deal, all public: hands as dealt, auction, result."""

    deal_no: int
    dealer: int
    vulnerable: tuple[bool, bool]
    hands: tuple[tuple[Card, ...], ...]  # per seat, as dealt
    calls: tuple[tuple[int, Call], ...]
    contract: Contract | None  # None: thrown in
    tricks_won: tuple[int, int]  # per side
    lines: tuple[ScoreLine, ...]


@dataclass(frozen=True, slots=True)
class BridgeView(RequestView):
    """What one seat (or a spectator, seat None) sees of a Contract Bridge match.

    `turn` is the seat whose cards are to be played (dummy's seat when dummy plays) or who
    calls; `to_act` is who decides (declarer when dummy plays); `playing_for` is the seat
    whose cards the viewer plays now (their own seat, or dummy's seat for declarer), else
    None. `hand` is the viewer's own cards; `dummy_hand` is dummy's cards once faced.
    """

    last_trick: LastTrick | None
    previous_deal: DealSummary | None
    vulnerable: tuple[bool, bool]  # per side: North-South, East-West
    calls: tuple[tuple[int, Call], ...]  # the auction so far, (seat, call), dealer first
    contract: Contract | None
    declarer: int | None
    dummy: int | None
    dummy_hand: tuple[Card, ...]  # empty until dummy is faced
    playing_for: int | None
    tricks_won: tuple[int, int]  # per side
    hand_sizes: tuple[int, ...]  # cards left in each seat's hand
    rubber_no: int
    games_won: tuple[int, int]
    part_scores: tuple[int, int]  # below the line in the current game
    # (seat, card) of every card played to the completed tricks of this deal, in order:
    # what a player at the table remembers (computer players read it, not just last_trick).
    played: tuple[tuple[int, Card], ...] = ()
    duplicate: bool = False  # a board scored on its own (daily deals): no rubber score

    @property
    def auction_grid(self) -> tuple[tuple[Call | None, ...], ...]:
        return auction_grid(self.calls)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """The current deal for hand records and tests (never shown to a player mid-deal)."""

    deal_no: int
    dealer: int
    vulnerable: tuple[bool, bool]
    hands: tuple[tuple[Card, ...], ...]  # per seat N, E, S, W, as dealt
    calls: tuple[tuple[int, Call], ...]
    contract: Contract | None
    play: tuple[tuple[int, Card], ...]  # every card played so far, in order

    @property
    def pbn(self) -> str:
        """The deal in PBN form, `N:S.H.D.C ...` clockwise from North."""
        return format_deal({Seat(i): list(hand) for i, hand in enumerate(self.hands)})
