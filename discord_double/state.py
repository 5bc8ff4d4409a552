"""What the Discord double knows: guilds, channels, users, messages, interactions.

Plain data, no I/O. The server mutates it while answering the bot; the driver reads it
and adds the world a test needs (guilds, channels, members) before or while the bot runs.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
INTERACTION_DEADLINE = 3.0  # seconds to send the initial response
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used
EPHEMERAL = 1 << 6
LOADING = 1 << 7


class Clock:
    """Real time plus an offset the test can advance, so deadlines expire instantly."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def iso(self, at: float | None = None) -> str:
        return datetime.fromtimestamp(self.now() if at is None else at, UTC).isoformat()


class Snowflakes:
    """Snowflakes that carry the (fake) time and are strictly increasing."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
        value = max((ms << 22) | (next(self._counter) & 0xFFF), self._last + 1)
        self._last = value
        return value

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose server would be on this shard ((id >> 22) % count):
        up to count - 1 milliseconds ahead of the clock."""
        value = self.next()
        ahead = (shard_id - (value >> 22)) % shard_count
        value += ahead << 22
        self._last = value
        return value


@dataclass(eq=False)
class User:
    id: int
    name: str
    display_name: str | None = None  # Discord's global_name
    bot: bool = False

    @property
    def shown_name(self) -> str:
        return self.display_name or self.name


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = 0


@dataclass(eq=False)
class Member:
    user: User
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)
    joined_at: float = 0.0

    @property
    def shown_name(self) -> str:
        return self.nick or self.user.shown_name


@dataclass(eq=False)
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # 0 text, 11 public thread, 12 private thread
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    created_at: float = 0.0
    # Discord's answer to every message the bot sends or edits here, as (status, code,
    # message), e.g. (403, 50013, "Missing Permissions") once the bot lost a permission.
    refuse_writes: tuple[int, int, str] | None = None
    # Permission bits the bot lacks in this channel (as a channel overwrite would deny
    # them): left out of interactions' `app_permissions`, and Discord refuses the writes
    # they govern (sending, threads, files) with 50013.
    bot_denied: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    roles: list[Role] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Audience:
    """Who sees a payload: everyone in a channel, or one user (ephemeral)."""

    channel_id: int
    user_id: int | None = None  # set for ephemeral

    @property
    def ephemeral(self) -> bool:
        return self.user_id is not None


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None


@dataclass(eq=False)
class AppEmoji:
    """An emoji the application owns (usable by its bot in every server)."""

    id: int
    name: str
    image: bytes  # the decoded image as uploaded


@dataclass
class Version:
    """One state of a message, as Discord would show it after a create or an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: float


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    versions: list[Version]
    ephemeral_to: int | None = None  # user id, for ephemeral messages
    interaction_id: int | None = None  # the interaction that created it
    type: int = 0
    deleted: bool = False
    thread_id: int | None = None  # thread started from this message
    # Users this message notified when it was posted (mentions allowed to ping)
    notified: frozenset[int] = frozenset()

    @property
    def latest(self) -> Version:
        return self.versions[-1]

    @property
    def content(self) -> str:
        return self.latest.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.latest.embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.latest.components

    @property
    def attachments(self) -> list[Attachment]:
        return self.latest.attachments

    @property
    def flags(self) -> int:
        return self.latest.flags

    @property
    def audience(self) -> Audience:
        return Audience(self.channel_id, self.ephemeral_to)

    def attachment(self, filename: str) -> bytes:
        for att in self.attachments:
            if att.filename == filename:
                return att.data
        raise KeyError(f"no attachment {filename!r} on message {self.id}")


@dataclass(eq=False)
class Interaction:
    id: int
    token: str
    type: int  # 2 application command, 3 component, 5 modal submit
    user: User
    channel: Channel
    created_at: float
    payload: dict[str, Any]
    source_message_id: int | None = None  # the message holding the clicked component
    response_type: int | None = None
    received_at: float | None = None  # the first callback request reached its handler
    response_at: float | None = None
    ephemeral: bool = False
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    allow_double_ack: bool = False
    answered_first_followup: bool = False  # a deferred "thinking" message was filled in

    def expired(self, now: float) -> bool:
        return now - self.created_at > TOKEN_LIFETIME


@dataclass(frozen=True)
class RecordedPayload:
    """A body the bot sent to Discord, with who would have seen it."""

    method: str
    path: str
    kind: str  # "message", "edit", "interaction_response", "followup", ...
    audience: Audience | None
    body: dict[str, Any]
    files: tuple[tuple[str, bytes], ...]
    status: int
    at: float


@dataclass(frozen=True)
class Violation:
    rule: str
    detail: str
    request: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.detail} ({self.request})"


class DoubleState:
    """Everything the double holds. Lookups raise KeyError for unknown ids."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.snowflakes = Snowflakes(self.clock)
        self.bot_user = User(self.snowflakes.next(), "TrickTable", bot=True)
        self.application_id = self.snowflakes.next()
        self.owner = User(self.snowflakes.next(), "owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.payloads: list[RecordedPayload] = []
        self.violations: list[Violation] = []
        self.app_emojis: dict[int, AppEmoji] = {}

    def guild_of(self, channel: Channel) -> Guild:
        return self.guilds[channel.guild_id]

    def channel_messages(self, channel_id: int) -> list[Message]:
        return sorted(
            (m for m in self.messages.values()
             if m.channel_id == channel_id and m.ephemeral_to is None and not m.deleted),
            key=lambda m: m.id)

    def ephemerals(self, user_id: int) -> list[Message]:
        return sorted(
            (m for m in self.messages.values() if m.ephemeral_to == user_id and not m.deleted),
            key=lambda m: m.id)
