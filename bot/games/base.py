"""The engine contract every game implements, and the small value types it speaks in.

A game object is a whole match: built from (options, seed), driven by `apply(seat, action)`
and read through `to_act`, `legal`, `view`, `scores` and `result`. Actions travel as their
short text form (`play:QH`, `bid:3NT`, `pass`), which is also what the action log stores;
replaying the log from the seed rebuilds the exact state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from .cards import Card, deal_blocks
from .events import DealEnded, Event
from .fairness import FairDeals
from .tricks import Trick

# History entries (seat, action text) for legal actions in their usual spelling, shared by
# every game and table (the vocabulary is small): an action makes no new entry object, so
# the garbage collector runs less often under load.
_ENTRIES: tuple[dict[str, tuple[int, str]], ...] = tuple({} for _ in range(8))


class IllegalAction(Exception):
    """An action the rules do not allow now. The message is written for the player."""


class InvalidOptions(ValueError):
    """Table options that are unknown or out of range. The message is written for a person."""


OptionValue = int | bool | str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a game accepts at table creation (also drives the slash-command options)."""

    name: str
    kind: type  # bool, int, or str (one of `choices`)
    default: OptionValue
    description: str
    minimum: int | None = None
    maximum: int | None = None
    # Not offered by /play (daily deals set it): left out of the options unless given.
    internal: bool = False
    choices: tuple[str, ...] = ()  # the values a str option takes

    def check(self, value: object) -> OptionValue:
        if self.kind is str:
            if isinstance(value, str) and value in self.choices:
                return value
            raise InvalidOptions(f"Option `{self.name}` must be one of "
                                 + ", ".join(f"`{c}`" for c in self.choices) + ".")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if value in (0, 1):
                return bool(value)
            raise InvalidOptions(f"Option `{self.name}` must be true or false.")
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(f"Option `{self.name}` must be a whole number.")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"Option `{self.name}` must be at least {self.minimum}.")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"Option `{self.name}` must be at most {self.maximum}.")
        return value


def resolve_options(specs: Sequence[OptionSpec],
                    given: Mapping[str, object] | None) -> dict[str, OptionValue]:
    """The full option set: defaults overlaid with what was given, each value checked."""
    known = {spec.name: spec for spec in specs}
    out: dict[str, OptionValue] = {spec.name: spec.default for spec in specs
                                  if not spec.internal}
    for name, value in (given or {}).items():
        spec = known.get(name)
        if spec is None:
            names = ", ".join(known) or "none"
            raise InvalidOptions(f"Unknown option `{name}` (this game takes: {names}).")
        out[name] = spec.check(value)
    return out


@dataclass(frozen=True, slots=True)
class DailyPlay:
    """How a game's daily deals are played (bot/tables/daily.py): the options of each
    person's match, and the description of `/daily <game>` (at most 100 characters)."""

    options: Mapping[str, object]
    description: str


@dataclass(frozen=True, slots=True)
class ChallengePlay:
    """How a game's challenges are played (`/challenge`): two people play the same fair
    deals, each at `seat` with computer players in the other seats, and compare deal by
    deal. `options` are each person's match options apart from its length, which the
    option `length_option` sets to the challenge's number of deals (`default_deals`, at
    most `max_deals`). `compare`: "imps" turns the difference of the two people's net
    scores on a deal (their side's points less the other side's) into IMPs; "points"
    keeps that difference as it is."""

    options: Mapping[str, object]
    length_option: str
    default_deals: int
    max_deals: int
    seat: int
    compare: Literal["imps", "points"]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One row of a score sheet (usually one deal): points per side and a short note."""

    label: str
    points: tuple[int, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The running match score: one column per side."""

    sides: tuple[str, ...]
    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    lower_wins: bool = False
    detail: Any = None  # a game's own richer sheet (the bridge rubber sheet)
    # Whether the totals mean anything while the match is played. False: each deal is
    # scored on its own and compared elsewhere (duplicate boards: a team match, a daily
    # deal, a challenge, in IMPs or against a field), so no running total is shown.
    running: bool = True


@dataclass(frozen=True, slots=True)
class Result:
    """The final standing of a finished match."""

    sides: tuple[str, ...]
    side_seats: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]  # per side: 0 for the winner; equal ranks for a draw
    summary: str

    @property
    def winner(self) -> int | None:
        """The winning side's index, or None for a draw."""
        firsts = [i for i, rank in enumerate(self.ranks) if rank == 0]
        return firsts[0] if len(firsts) == 1 else None

    @property
    def is_draw(self) -> bool:
        return self.winner is None


def ranks_from_totals(totals: Sequence[int], lower_wins: bool = False) -> tuple[int, ...]:
    """Competition ranks (0 best) from totals; equal totals share a rank."""
    keyed = [(-t if not lower_wins else t) for t in totals]
    return tuple(sorted(set(keyed)).index(k) for k in keyed)


Phase = Literal["bidding", "auction", "dummy_choice", "crib", "exchange", "play", "match_over"]
"""Where a deal stands. Contract Bridge and Spades bid ("bidding"); Single Dummy Bridge
holds an "auction" then a "dummy_choice"; Bid Fair fills the "crib", bids, may "exchange"."""


class EndedDeal(Protocol):
    """What every game's summary of a finished deal has (each game's has more)."""

    @property
    def deal_no(self) -> int: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class GameView:
    """What every game's view holds; each game's view adds its own fields.

    `seat` is whose view it is (None: a spectator's); `turn` the seat on turn (None when
    several decide at once, or the match is over); `to_act` every seat that may act now;
    `hand` the seat's own cards (empty for a spectator or an unseen hand); `trick` the
    current trick as (player, card) in the order played; `score` the match's sheet;
    `dealer` who dealt this deal; `last_trick` the trick before the current one (None
    before the first is complete); `previous_deal` the last finished deal, all of it public
    (each game's view names its own trick and summary types).
    """

    seat: int | None
    deal_no: int
    phase: Phase
    turn: int | None
    to_act: frozenset[int]
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    score: ScoreSheet
    dealer: int
    last_trick: Trick | None
    previous_deal: EndedDeal | None
    deals: int = 0  # a match of this many deals whatever the score (0: to its target)
    deal_word: str = "deal"  # what its deals are called: "board" in duplicate bridge


ViewT = TypeVar("ViewT", bound=GameView, covariant=True)


class Game(ABC, Generic[ViewT]):
    """One match of one game (its view type `ViewT`). Subclasses implement the underscored
    hooks and the readers."""

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    SEATS: ClassVar[int]
    SEAT_NAMES: ClassVar[tuple[str, ...]]
    SIDES: ClassVar[tuple[tuple[int, ...], ...]]
    SIDE_NAMES: ClassVar[tuple[str, ...]]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    # What the game offers besides play, declared here once: every list of games reads
    # these, and tests/test_registry.py checks each against what the game does.
    HAND_RECORDS: ClassVar[bool] = False  # a finished deal has a hand record (bot.handrecord)
    EXPLAINED_BIDDING: ClassVar[bool] = False  # the computer players' calls are explained
    DAILY: ClassVar[DailyPlay | None] = None  # daily deals (`/daily <name>`), and how
    CHALLENGE: ClassVar[ChallengePlay | None] = None  # challenges (`/challenge`), and how
    # The names `python -m bot verify` gives the dealt hands, in the order the pack's
    # blocks go to them; None: one hand per seat, in seat order (SEAT_NAMES).
    DEALT_HANDS: ClassVar[tuple[str, ...] | None] = None

    @classmethod
    def deal_word(cls, options: Mapping[str, object]) -> str:
        """What a match with `options` calls one of its deals, in every text and picture:
        "deal", or "board" where the deals are duplicate boards."""
        return "deal"

    def __init__(self, options: Mapping[str, object] | None = None,
                 seed: int | FairDeals = 0) -> None:
        self.options = resolve_options(self.OPTIONS, options)
        # Fair deals (bot/games/fairness.py): packs from the hash chain and client seed,
        # every other draw from a number those fix; a plain int seed draws everything.
        self.fair = seed if isinstance(seed, FairDeals) else None
        self.seed = seed.public_seed() if isinstance(seed, FairDeals) else seed
        self.rng = random.Random(self.seed)
        self.history: list[tuple[int, str]] = []
        self._stacked: list[list[Card]] = []
        self.packs_dealt = 0  # fair deals: packs drawn so far (deal k is the k-th)
        self.packs_over = 0  # fair deals: the packs whose deal has ended
        if self.fair is not None:
            self.packs_dealt = self.packs_over = self.fair.first_deal - 1

    # -- the contract ---------------------------------------------------------------

    @property
    @abstractmethod
    def finished(self) -> bool:
        """True once the match is over."""

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that may act now (several at once for simultaneous decisions)."""

    def legal(self, seat: int) -> list[str]:
        """The legal actions of `seat` now, as their text forms (empty if not on turn)."""
        return list(self._legal(seat))

    @abstractmethod
    def turn(self) -> int | None:
        """The seat whose turn it is, as views show it (Contract Bridge's play: the hand
        whose card is next, dummy's included); None when the seats that may act decide
        at once, or the match is over."""

    @abstractmethod
    def _legal(self, seat: int) -> Sequence[str]:
        """`legal(seat)`, perhaps a sequence the engine keeps (read, never changed): the one
        place each game decides what may be done."""

    @abstractmethod
    def _do(self, seat: int, action: str) -> list[Event]:
        """Do a legal action (one of `legal(seat)`, in its usual text form)."""

    @abstractmethod
    def _why_not(self, seat: int, action: str) -> str:
        """Why `seat`, who may act now, may not take `action` (which is not in `legal(seat)`).

        `legal` alone decides what is allowed; this only explains a refusal to a player."""

    def _spelling(self, action: str) -> str:
        """The usual text form of an action written another way (`play:qh`, `x`), or
        `action` itself; `apply` accepts the action when that form is legal."""
        return action

    def _not_on_turn(self, seat: int) -> str:
        """Why `seat` may not act now."""
        return "It is not your turn."

    def _is_aside(self, text: str) -> bool:
        """Whether `text` is an action a seat may take out of turn, which `legal` does not
        list (the bridge games' claims and undo requests, bot/games/requests.py): `apply`
        hands it to `_do_aside`, which checks it (raising IllegalAction) before doing it."""
        return False

    def _do_aside(self, seat: int, action: str) -> list[Event]:
        raise IllegalAction("That is not an action of this game.")

    @abstractmethod
    def view(self, seat: int | None) -> ViewT:
        """A fresh object holding what `seat` may see (None: a spectator)."""

    @abstractmethod
    def scores(self) -> ScoreSheet:
        """The running match score sheet."""

    @abstractmethod
    def result(self) -> Result | None:
        """The final standing, or None while the match is still going."""

    @abstractmethod
    def deal_record(self) -> Any:
        """The current deal's hands as dealt (hand records and tests only)."""

    # -- shared machinery -----------------------------------------------------------

    def apply(self, seat: int, action: object) -> list[Event]:
        """Apply one action for `seat`; returns the events. Illegal: raises, changes nothing.

        An action is legal exactly when it is in `legal(seat)` (perhaps spelt another way);
        any other is refused with the reason `_why_not` gives.
        """
        text = action if type(action) is str else str(action)
        do = self._do
        if type(seat) is int and 0 <= seat < self.SEATS and text in self._legal(seat):
            usual = text
            entries = _ENTRIES[seat]
            entry = entries.get(text) or entries.setdefault(text, (seat, text))
        else:
            text = text.strip()
            entry = (seat, text)
            if self._is_aside(text):  # asked out of turn (a claim, an undo): its own checks
                usual, do = text, self._do_aside
            else:
                usual = self._legal_spelling(seat, text)
        if self.fair is None:
            events = do(seat, usual)
        else:
            drawn = self.packs_dealt
            events = do(seat, usual)
            # A deal that ended without the next one being dealt yet (Tennis deals
            # lazily; the match's last deal) is over too.
            if self.packs_dealt == drawn and (self.finished or any(
                    isinstance(event, DealEnded) for event in events)):
                self.packs_over = self.packs_dealt
        self.history.append(entry)
        return events

    def _legal_spelling(self, seat: int, text: str) -> str:
        """The usual text of `text` when it is another spelling of a legal action of
        `seat`'s; otherwise raises IllegalAction with the reason it is not legal."""
        if self.finished:
            raise IllegalAction("This match is over.")
        if not isinstance(seat, int) or not 0 <= seat < self.SEATS:
            raise IllegalAction("There is no such seat at this table.")
        if seat not in self.to_act():
            raise IllegalAction(self._not_on_turn(seat))
        usual = self._spelling(text)
        if usual not in self._legal(seat):
            raise IllegalAction(self._why_not(seat, usual))
        return usual

    def revealed_seed(self) -> tuple[int, str] | None:
        """Fair deals: (k, server seed) of the last deal that has ended, if any. Earlier
        deals' seeds follow from it (each is the hash of the next)."""
        if self.fair is None or self.packs_over < self.fair.first_deal:
            return None
        return self.packs_over, self.fair.server_seed(self.packs_over)

    def is_legal(self, seat: int, action: str) -> bool:
        return action in self.legal(seat)

    def seat_name(self, seat: int) -> str:
        return self.SEAT_NAMES[seat]

    def side_of(self, seat: int) -> int:
        for i, members in enumerate(self.SIDES):
            if seat in members:
                return i
        raise ValueError(f"seat {seat} is on no side")

    def stack_deck(self, pack: Sequence[Card]) -> None:
        """The next deal uses this card order instead of a shuffle: for tests, and for the
        learning rows that play a bank deal as dealt (never at a table).

        Each game documents how it deals a pack (hand i is usually the i-th block).
        """
        self._stacked.append(list(pack))

    def deal(self, pack: Sequence[Card], hands: int) -> list[list[Card]]:
        """The next deal's hands: `pack` shuffled (or a test's stacked order of it) dealt in
        `hands` equal blocks, hand i being the i-th block."""
        stacked = bool(self._stacked)  # a shuffle of the pack itself needs no check
        return deal_blocks(self.next_pack(pack), hands, pack if stacked else None)

    def next_pack(self, pack: Sequence[Card]) -> list[Card]:
        """The card order for the next deal: a stacked one (tests), else a seeded shuffle."""
        if self._stacked:
            return self._stacked.pop(0)
        if self.fair is not None:
            # Drawing a new pack means the previous deal is over.
            self.packs_over = self.packs_dealt
            self.packs_dealt += 1
            return self.fair.pack(pack, self.packs_dealt)
        order = list(pack)
        self.rng.shuffle(order)
        return order


def replay(game: Game[Any], history: Iterable[tuple[int, str]]) -> Game[Any]:
    """Apply a recorded action log to a freshly created game; returns it."""
    for _ in replayed(game, history):
        pass
    return game


def replayed(game: Game[Any], history: Iterable[tuple[int, str]]) -> Iterator[list[Event]]:
    """Apply a recorded action log to a freshly created game, yielding each action's events
    (for readers that count or collect what happened: figures, hand records)."""
    for seat, action in history:
        yield game.apply(seat, action)
