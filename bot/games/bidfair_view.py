"""What Bid Fair shows: a seat's view, placed bid cards, played tricks and deal summaries.

All are frozen dataclasses built fresh for each request, holding only what the viewer may
see: a face-down bid card is `None` to everyone but its owner.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import GameView, ScoreLine
from .cards import Card, Rank, Suit
from .tricks import Trick


@dataclass(frozen=True, slots=True)
class Placement:
    """A placed bid card: face up (a bid) or face down (no bid). `card` None: not visible."""

    face_up: bool
    card: Card | None


PlayedTrick = Trick  # the name this game's readers use


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A whole deal, shown to everyone once it is over (and `deal_record()` mid-deal).

    `hands` are the 12 cards each seat was dealt; `cribs` the 4 each put in the crib;
    `remaining_crib` the 7 crib cards nobody played (the holder's old hand after an
    exchange). Bid cards and the remaining crib are captured by nobody.
    """

    deal_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    cribs: tuple[tuple[Card, ...], ...]
    bids: tuple[Placement | None, ...]
    bidder: int | None
    holder: int | None
    high_rank: Rank | None
    contract_value: int | None
    cut: Card | None
    trump: Suit | None
    exchanged: bool
    remaining_crib: tuple[Card, ...]
    tricks: tuple[PlayedTrick, ...]
    captured: tuple[int, ...]
    line: ScoreLine | None


@dataclass(frozen=True, slots=True)
class BidFairView(GameView):
    """What one seat (or a spectator, seat None) may see of a Bid Fair match.

    - `crib_owed`: cards each seat still has to put into the crib; `crib_count`: cards in it.
    - `my_crib`: the cards this seat put into the crib (empty for spectators).
    - `passes`: who has passed this deal; `bids`: each seat's placed card, if any.
    - `set_aside`: after this seat exchanged, its old hand (now the unused crib).
    - `captured`: card points each seat has taken in tricks so far this deal.
    """

    last_trick: PlayedTrick | None
    previous_deal: DealSummary | None
    target: int
    hand_sizes: tuple[int, ...]
    crib_owed: tuple[int, ...]
    crib_count: int
    my_crib: tuple[Card, ...]
    passes: tuple[bool, ...]
    bids: tuple[Placement | None, ...]
    bidder: int | None
    holder: int | None
    high_rank: Rank | None
    contract_value: int | None
    cut: Card | None
    trump: Suit | None
    exchanged: bool | None  # None until the holder decides (or with no contract)
    set_aside: tuple[Card, ...]
    played: tuple[Card, ...]  # every card played to tricks this deal, in order
    tricks_won: tuple[int, ...]
    captured: tuple[int, ...]
    redeals: int  # how many times this deal was thrown in (both passed)
