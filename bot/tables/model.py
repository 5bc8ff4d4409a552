"""A table's state: who sits where, its settings, and its match; plus the refusal errors.

Nothing here talks to Discord or the database: `TableService` drives these objects.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

from bot.games import Game, InvalidOptions, OptionSpec
from bot.games.base import resolve_options
from bot.games.bridge import ContractBridge
from bot.games.fairness import FairDeals, deal_source
from bot.store import ServerSettingsRow, Status

LOBBY: Final = "lobby"
PLAYING: Final = "playing"
FINISHED: Final = "finished"
ABANDONED: Final = "abandoned"
CANCELLED: Final = "cancelled"
CLOSED = frozenset({FINISHED, ABANDONED, CANCELLED})


class TableError(Exception):
    """A refused request. The message is written for the person who asked."""


class StaleAction(TableError):
    """A button from a moment that has passed (an old trick, an old deal, a closed table)."""


@dataclass(frozen=True, slots=True)
class Person:
    user_id: int
    name: str


@dataclass(slots=True)
class SeatInfo:
    """Who decides for a seat: a person, or a computer player (`bot_kind`)."""

    name: str
    user_id: int | None = None
    bot_kind: str | None = None
    # A person who left mid-match: the bot plays on and they may take the seat back.
    left_user_id: int | None = None

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


NORMAL: Final = "normal"
SLOW: Final = "slow"
PACES: Final = (NORMAL, SLOW)
DEFAULT_PING_AFTER: Final = 120.0  # seconds on turn before a person is pinged
DEFAULT_TURN_HOURS: Final = 24


MAX_TURN_HOURS: Final = 168  # a week

TABLE_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("turn_timeout", int, 0, "Seconds before a computer player moves for an "
               "absent person (0: no timer)", 0, 3600),
    OptionSpec("thread", bool, False, "Open the table in a new thread of this channel"),
    OptionSpec("pace", str, NORMAL, "slow: turns last hours (turn_hours), for friends who "
               "are not online together", choices=PACES),
    OptionSpec("turn_hours", int, DEFAULT_TURN_HOURS, "Slow play: hours a turn lasts before "
               "a computer player moves (default 24)", 1, MAX_TURN_HOURS),
    OptionSpec("ping_after", int, int(DEFAULT_PING_AFTER), "Seconds on turn before you are "
               "pinged by a new message (0: never)", 0, 3600),
)
"""The options every game's `/play` takes (CONTRIBUTING.md, "Adding a setting"). One named
like a `TableSettings` field is that field: `chosen` sets it, `to_dict` stores it and
`from_dict` reads it back; `turn_hours` is slow play's timer, kept as `turn_timeout`."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How a table runs, whatever its game."""

    turn_timeout: float = 0  # seconds; 0 = no timer
    thread: bool = False
    # Slow play: turns last hours (the timer acts only when one runs out), and the
    # reminder ping comes at half time.
    pace: str = NORMAL
    # Seconds a person may keep the table waiting before a new message pings them (0: never).
    ping_after: float = DEFAULT_PING_AFTER
    # Fair deals (bot/games/fairness.py): the hash chain's secret, drawn when the table
    # opens (never shown), and the client seed, made when Start is pressed.
    deal_secret: str = ""
    client_seed: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {spec.name: getattr(self, spec.name) for spec in _stored_options()}
        if self.deal_secret:
            out["deals"] = {"secret": self.deal_secret, "client": self.client_seed}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Settings read back from a row: a missing or corrupt option gets its default (old
        rows lack options added since)."""
        deals = data.get("deals")
        deals = deals if isinstance(deals, dict) else {}
        options = {spec.name: _stored(spec, data.get(spec.name)) for spec in _stored_options()}
        return cls(**options, deal_secret=str(deals.get("secret") or ""),
                   client_seed=str(deals.get("client") or ""))

    @classmethod
    def chosen(cls, given: Mapping[str, object], defaults: Mapping[str, object]
               ) -> TableSettings:
        """The settings of the table options a person gave with /play (None: not given);
        the others come from `defaults` (the bot's settings), else each option's default.
        InvalidOptions says which value is wrong or which options contradict each other."""
        given = {name: value for name, value in given.items() if value is not None}
        values: dict[str, Any] = resolve_options(TABLE_OPTIONS, given)
        for name, value in defaults.items():
            values[name] = given.get(name, value)
        if "pace" not in given and given.keys() & {"turn_timeout", "ping_after"}:
            values["pace"] = NORMAL  # a normal pace's own options win over a slow default
        if values["pace"] == SLOW:
            if "turn_timeout" in given:
                raise InvalidOptions("In slow play the turn timer is `turn_hours`, not "
                                     "`turn_timeout`.")
            if "ping_after" in given:
                raise InvalidOptions("In slow play the reminder comes at half the turn's "
                                     "time; `ping_after` is for normal pace.")
            return cls.slow(values["turn_hours"], values["thread"])
        if "turn_hours" in given:
            raise InvalidOptions("`turn_hours` is for slow play: add `pace: slow`.")
        return cls(**{spec.name: values[spec.name] for spec in _stored_options()})

    @classmethod
    def slow(cls, hours: float = DEFAULT_TURN_HOURS, thread: bool = False) -> TableSettings:
        """Slow play: a turn lasts `hours`, with a reminder ping at half time."""
        seconds = hours * 3600
        return cls(turn_timeout=seconds, thread=thread, pace=SLOW, ping_after=seconds / 2)

    @property
    def slow_pace(self) -> bool:
        return self.pace == SLOW

    def deal_source(self, seed: int) -> int | FairDeals:
        """What the match deals from: fair deals once started, else the plain seed."""
        return deal_source(seed, self.to_dict().get("deals"))


def _stored_options() -> list[OptionSpec]:
    return [spec for spec in TABLE_OPTIONS if spec.name in _FIELDS]


_FIELDS: Final = frozenset(item.name for item in fields(TableSettings))


def _stored(spec: OptionSpec, value: object) -> Any:
    """A stored option's value, or its default when missing or not of its kind. Only the
    minimum is checked: code may set more than /play offers (slow tables' timers)."""
    if spec.kind is str:
        return value if value in spec.choices else spec.default
    if spec.kind is bool:
        return bool(value) if value is not None else spec.default
    if isinstance(value, bool) or not isinstance(value, int | float):
        return spec.default
    return value if spec.minimum is None or value >= spec.minimum else spec.default


@dataclass(eq=False)
class Table:
    """One table: a lobby, then a match. `id` is the match id in the store."""

    id: int
    game_name: str
    options: dict[str, Any]
    seed: int
    guild_id: int
    channel_id: int
    creator_id: int
    settings: TableSettings
    game: Game[Any]
    seats: list[SeatInfo | None]
    status: Status = LOBBY
    message_id: int | None = None
    # Its server's settings as last read or changed (what the lobby offers); None: the
    # bot's defaults.
    server: ServerSettingsRow | None = None
    # How many decisions each seat has made: a button carries this number, so a click
    # from before the seat's last decision is recognised as stale.
    decisions: list[int] = field(default_factory=list)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=6))
    abandon_votes: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # A waiting person's watch (ping, then timer), by seat: the decision it watches, its task.
    timers: dict[int, tuple[int, asyncio.Task[None]]] = field(default_factory=dict)
    # When the current wait began (the last action, or the start), on the tables' clock.
    since: float = 0.0
    # When each seat whose latest claim or undo was rejected or withdrawn may ask again,
    # on the tables' clock (bot/tables/requests.py); the service drops the entry, and
    # redraws the table, once that moment has come. Not stored: a restart forgets a wait
    # of seconds.
    ask_again_at: dict[int, float] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    # The seats from which a person (not a robot, nor a turn timer: its move is a robot's)
    # made an action in the current deal; emptied as a deal ends. A robot that took such a
    # seat mid-deal did not choose its earlier cards: they are not its signals (turns.py).
    people_played: set[int] = field(default_factory=set)
    # The fair deals' commitment, computed once (the secret's hash chain)
    _commitment: str | None = field(default=None, repr=False)
    # waiting_on's answer for (game object, actions applied): it builds a spectator view
    _waiting: tuple[Game[Any], int, tuple[int, ...]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.decisions:
            self.decisions = [0] * self.game.SEATS
            for seat, _action in self.game.history:
                self.decisions[seat] += 1

    @property
    def commitment(self) -> str | None:
        """The hash shown before the match starts that fixes every deal's server seed."""
        if self.game.fair is not None:
            return self.game.fair.commitment
        if self._commitment is None and self.settings.deal_secret:
            self._commitment = FairDeals(client_seed="",
                                         secret=self.settings.deal_secret).commitment
        return self._commitment

    @property
    def deal_source(self) -> int | FairDeals:
        return self.settings.deal_source(self.seed)

    @property
    def closed(self) -> bool:
        return self.status in CLOSED

    @property
    def seq(self) -> int:
        """The number of actions applied so far (the next action's sequence number)."""
        return len(self.game.history)

    def seat_of(self, user_id: int) -> int | None:
        for seat, info in enumerate(self.seats):
            if info is not None and info.user_id == user_id:
                return seat
        return None

    def left_seat_of(self, user_id: int) -> int | None:
        for seat, info in enumerate(self.seats):
            if info is not None and info.left_user_id == user_id:
                return seat
        return None

    def human_declaring(self) -> tuple[int, int] | None:
        """(declarer, partner) while a person plays the hand for the computer player that
        declares: Contract Bridge's play with its human_declares option, a computer player
        as declarer and a person opposite. Who may act is mapped here; the engine still
        has declarer (the computer player's seat) play both hands."""
        game = self.game
        if (self.status != PLAYING or not isinstance(game, ContractBridge) or game.finished
                or not game.options.get("human_declares", True)
                or game.contract is None or game.declarer is None):
            return None
        declarer = int(game.declarer)
        partner = (declarer + 2) % 4
        bot, person = self.seats[declarer], self.seats[partner]
        if bot is None or not bot.is_bot or person is None or person.is_bot:
            return None
        return declarer, partner

    def decider(self, seat: int) -> int:
        """The seat whose occupant decides `seat`'s moves now: the person opposite for a
        computer declarer under human declares, else the seat itself."""
        declaring = self.human_declaring()
        return declaring[1] if declaring is not None and declaring[0] == seat else seat

    def acting_seat(self, seat: int) -> int:
        """The seat whose cards and moves the occupant of `seat` holds now (declarer's for
        a person who declares for their computer partner, else their own)."""
        declaring = self.human_declaring()
        return declaring[0] if declaring is not None and declaring[1] == seat else seat

    def people(self) -> list[int]:
        return [info.user_id for info in self.seats if info is not None and info.user_id]

    def check_seat(self, seat: int) -> None:
        """Refuse a seat number this table does not have (from a forged button)."""
        if not 0 <= seat < self.game.SEATS:
            raise TableError("There is no such seat at this table.")

    def free_seats(self) -> list[int]:
        return [seat for seat, info in enumerate(self.seats) if info is None]

    def is_full(self) -> bool:
        return all(info is not None for info in self.seats)

    def waiting_on(self) -> list[int]:
        """The seats the table is waiting for: the seat on turn, or all who act at once."""
        if self.status != PLAYING or self.game.finished:
            return []
        game, seq = self.game, len(self.game.history)
        cached = self._waiting
        if cached is not None and cached[0] is game and cached[1] == seq:
            return list(cached[2])
        to_act = game.to_act()
        turn = game.turn()
        waiting = [turn] if turn is not None and turn in to_act else sorted(to_act)
        self._waiting = (game, seq, tuple(waiting))
        return waiting
