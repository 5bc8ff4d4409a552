"""What an action made happen, for the table to show and for readers that count (figures,
hand records): one frozen class per kind of event.

Every event has `text` (one line a person can read, naming seats by their seat names) and
`seat` (the seat it concerns, if any); each class adds its own typed fields. Events are
immutable through and through (tuples, read-only mappings), so an engine may hand the same
event object to every table that takes the same action. Readers dispatch on the class
(`isinstance`, `match`); `kind` is the event's short name for logs and tests.

Shared kinds come first, then each game's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:  # annotations only: base.py imports this module
    from .base import Result, ScoreLine
    from .bidfair_scoring import DealScore


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; the subclasses say what."""

    kind: ClassVar[str] = "event"
    text: str
    seat: int | None


# -- every game ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """A seat acted (a bid, a call, a card, a pass): `action` is its text as logged."""

    kind: ClassVar[str] = "action"
    action: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Acted):
    """The bridge games' card play: `hand` is the hand the card came from (Contract
    Bridge: the compass seat, dummy's included; Single Dummy: hand 0..3)."""

    hand: int


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """A trick is complete: `winner` is the winning seat, `cards` (hand, card text) in the
    order played."""

    kind: ClassVar[str] = "trick"
    winner: int
    cards: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    kind: ClassVar[str] = "deal_start"
    deal_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """A deal is over and scored: its score lines and the hands as dealt (by seat)."""

    kind: ClassVar[str] = "deal_end"
    deal_no: int
    lines: tuple[ScoreLine, ...]
    hands: tuple[tuple[str, ...], ...]

    def hand_keys(self) -> tuple[int | str, ...]:
        """How the stored deal result names each of `hands` (its index by default)."""
        return tuple(range(len(self.hands)))

    def stored_hands(self) -> dict[int | str, list[str]]:
        """The hands as the deal results have always stored them (a key per hand)."""
        return {key: list(cards) for key, cards in zip(self.hand_keys(), self.hands, strict=True)}


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    kind: ClassVar[str] = "match_end"
    result: Result


# -- the bridge games ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ThrownIn(Event):
    """Everyone passed: the deal is not played."""

    kind: ClassVar[str] = "thrown_in"
    deal_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class AuctionEnded(Event):
    """`contract` is the contract's code ("4SX"), `declarer` the declaring seat."""

    kind: ClassVar[str] = "auction_end"
    contract: str
    declarer: int


@dataclass(frozen=True, slots=True)
class DummyFaced(Event):
    kind: ClassVar[str] = "dummy_faced"
    dummy: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BridgeDealStarted(DealStarted):
    vulnerable: tuple[bool, bool]  # per side


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game"
    side: int


@dataclass(frozen=True, slots=True)
class RubberEnded(Event):
    kind: ClassVar[str] = "rubber_end"
    rubber_no: int
    winner: int  # the side
    bonus: int


@dataclass(frozen=True, slots=True)
class RequestMade(Event):
    """A claim or an undo request (bot/games/requests.py) waits for the answers."""

    kind: ClassVar[str] = "request"
    request: str  # "claim" or "undo"
    tricks: int
    remaining: int


@dataclass(frozen=True, slots=True)
class Answered(Event):
    kind: ClassVar[str] = "answer"
    accept: bool


@dataclass(frozen=True, slots=True)
class RequestEnded(Event):
    kind: ClassVar[str] = "request_end"
    request: str  # "claim" or "undo"
    outcome: str  # "accepted", "rejected" or "withdrawn"
    asker: int
    tricks: int
    remaining: int


@dataclass(frozen=True, slots=True)
class Undone(Event):
    """Actions were taken back (`count` of them): the table shows the state again."""

    kind: ClassVar[str] = "undone"
    count: int


# -- Single Dummy Bridge ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandTrickWon(TrickWon):
    """Single Dummy: `cards` name hands 0..3; `winner_hand` won, for `winner` (a seat)."""

    winner_hand: int


@dataclass(frozen=True, slots=True)
class DummyRevealed(Event):
    kind: ClassVar[str] = "dummy_revealed"
    hand: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DummiesFaced(Event):
    """Declarer chose a dummy; both dummies' cards by hand name."""

    kind: ClassVar[str] = "dummies_faced"
    choice: str
    swapped: bool
    hands: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class SingleDummyDealEnded(DealEnded):
    """`hands` by hand 0..3, stored by their names; `contract` None when thrown in."""

    hand_names: tuple[str, ...]
    contract: str | None
    tricks: tuple[int, int]  # per player

    def hand_keys(self) -> tuple[int | str, ...]:
        return self.hand_names


# -- Spades ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BidsComplete(Event):
    kind: ClassVar[str] = "bids_complete"
    bids: tuple[str, ...]  # per seat, as in `bid:<text>`
    leader: int


@dataclass(frozen=True, slots=True)
class SpadesBroken(Event):
    kind: ClassVar[str] = "spades_broken"


@dataclass(frozen=True, slots=True)
class SpadesDealEnded(DealEnded):
    bids: tuple[str, ...]  # per seat
    tricks: tuple[int, ...]  # per seat
    bags: tuple[int, int]  # per side, taken this deal


# -- Tennis ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandActed(Acted):
    """Tennis: a bid or a card from the named hand ("Backhand" or "Forehand")."""

    hand: str


@dataclass(frozen=True, slots=True)
class BidsRevealed(Event):
    kind: ClassVar[str] = "bids_revealed"
    hand: str
    bids: Mapping[int, str]  # by seat, the bids shown
    values: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class ForehandDealt(Event):
    kind: ClassVar[str] = "forehand_dealt"
    deal_no: int


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    kind: ClassVar[str] = "play_start"
    leader: int


@dataclass(frozen=True, slots=True)
class TennisTrickWon(TrickWon):
    winner_hand: str
    hands: tuple[str, ...]  # the hand of each card in `cards`


@dataclass(frozen=True, slots=True)
class TennisDealStarted(DealStarted):
    set_no: int
    game_no: int
    trump: str


@dataclass(frozen=True, slots=True)
class TennisDealEnded(DealEnded):
    """`hands`, `bids` and `tricks` per hand id, named "<seat name> <hand kind>"."""

    hand_names: tuple[str, ...]
    bids: tuple[str, ...]
    tricks: tuple[int, ...]
    errors: tuple[int, ...]  # per seat

    def hand_keys(self) -> tuple[int | str, ...]:
        return self.hand_names


# -- Bid Fair --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CribDone(Event):
    kind: ClassVar[str] = "crib_done"
    first: int  # who bids first


@dataclass(frozen=True, slots=True)
class Redealt(Event):
    kind: ClassVar[str] = "redeal"
    dealer: int
    deal_no: int


@dataclass(frozen=True, slots=True)
class TrumpTurned(Event):
    kind: ClassVar[str] = "trump"
    cut: str
    trump: str  # the suit's letter
    bonus: tuple[int, ...]  # the seats whose face-up bid is a trump


@dataclass(frozen=True, slots=True)
class ContractSettled(Event):
    """The bidding's outcome: all None (and `both_up` False) when nobody bid."""

    kind: ClassVar[str] = "contract"
    bidder: int | None
    holder: int | None
    high_rank: str | None
    value: int | None
    both_up: bool


@dataclass(frozen=True, slots=True)
class BidFairDealEnded(DealEnded):
    score: DealScore
