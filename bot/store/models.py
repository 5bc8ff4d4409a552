"""Rows read from the store, as frozen dataclasses (JSON cells decoded, times as UTC datetimes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal

Status = Literal["lobby", "playing", "finished", "abandoned", "cancelled"]
Actor = Literal["user", "bot", "timer"]

STATUSES: Final = ("lobby", "playing", "finished", "abandoned", "cancelled")
ACTIVE_STATUSES: Final = ("lobby", "playing")
END_STATUSES: Final = ("finished", "abandoned", "cancelled")
ACTORS: Final = ("user", "bot", "timer")


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One table: what was played, where, by whose invitation, and how far it got."""

    id: int
    game: str
    options: dict[str, Any] = field(hash=False)
    seed: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    creator_id: int
    status: Status
    settings: dict[str, Any] = field(hash=False)
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    @property
    def is_active(self) -> bool:
        """Still in the lobby or being played (restored on restart)."""
        return self.status in ACTIVE_STATUSES


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in a seat: a person (user_id) or a computer player (bot_kind), never both.

    left_user_id remembers the person who left mid-match while a bot plays for them,
    so that person can take the seat back.
    """

    match_id: int
    seat: int
    user_id: int | None
    bot_kind: str | None
    display_name: str
    left_user_id: int | None

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of a match's append-only action log (seq is 0-based and dense)."""

    match_id: int
    seq: int
    seat: int
    action: str
    actor: Actor
    user_id: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal's score: points per side plus the game's own detail."""

    match_id: int
    deal_no: int
    points: tuple[int, ...]
    detail: dict[str, Any] = field(hash=False)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's standing at the end of a match (input to finish_match, and read back).

    rank is 0 for the winners (as in bot.games.base.Result.ranks); equal ranks for a draw.
    """

    seat: int
    side: int
    user_id: int | None
    bot_kind: str | None
    rank: int
    points: int


@dataclass(frozen=True, slots=True)
class MatchResultRow:
    """A finished match's outcome as written by finish_match."""

    match_id: int
    finished_at: datetime
    result: dict[str, Any] = field(hash=False)
    winner_side: int | None
    players: tuple[PlayerResult, ...]


@dataclass(frozen=True, slots=True)
class MatchBundle:
    """Everything needed to rebuild a table: the match, its seats, and its action log in
    replay order as (seat, action) pairs: all a replay reads (a restart loads every
    unfinished table's log at once, so the log's other columns are left in the store)."""

    match: MatchRow
    seats: tuple[SeatRow, ...]
    log: tuple[tuple[int, str], ...]
    # When the last action was stored (None: no action yet): where the current wait began.
    last_action_at: datetime | None = None
    # By seat, the seq of the last action a person (actor "user") made from it: with the
    # deals' ends, which only the replay knows, it tells the seats people played from in
    # the current deal (`Table.people_played`). Seats no person acted from are left out
    # (as are seats without a row: a match being played has a row for every seat).
    last_by_person: dict[int, int] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class HandTokenRow:
    """The interaction that last showed a person their hand at a table (see hands.py)."""

    match_id: int
    user_id: int
    seat: int
    application_id: int
    token: str = field(repr=False)
    message_id: int | None
    issued_at: datetime


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one bot process serves: `ids` out of `count`. A server belongs
    to shard (guild_id >> 22) % count (Discord's rule; actions.py says it in SQL)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids
