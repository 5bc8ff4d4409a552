"""The test API: build the world, act as users (slash, click, select, modal), read what Discord
received, wait, inject failures, and run a discord.py bot against the double."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from . import payloads
from .components import button, buttons, find_component
from .interactions import InteractionHandle, command_data, new_interaction, resolve
from .runner import run_bot
from .server import DiscordDouble, InjectedFailure
from .state import (
    Audience,
    Channel,
    DoubleState,
    Guild,
    Member,
    Message,
    RecordedPayload,
    Role,
    User,
    Version,
    Violation,
)

if TYPE_CHECKING:
    from discord.ext.commands import Bot

T = TypeVar("T")
APPLICATION_COMMAND, COMPONENT, MODAL_SUBMIT = 2, 3, 5
# Broad rights for @everyone so tests need no setup; administrator left out on purpose.
EVERYONE_DEFAULT = ((1 << 41) - 1) & ~payloads.ADMINISTRATOR


@dataclass(frozen=True)
class World:
    """A ready-made guild with one text channel and some members."""

    guild: Guild
    channel: Channel
    users: tuple[User, ...]


class Driver:
    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.idle = 0.05  # seconds without requests that count as "the bot is done"
        # How long a settle may wait for the bot to be done: the e2e harness raises it for
        # computer players thinking at full strength on a busy machine.
        self.settle_timeout = 5.0
        self.bot_errors: list[str] = []  # ERROR logs of the discord logger while running
        # A test's hooks into the bot: work under way that will talk to Discord (a
        # computer player thinking in a worker thread, a picture being drawn): while any
        # of these says busy, the bot is not done (settle() waits).
        self.busy: list[Callable[[], bool]] = []

    @property
    def state(self) -> DoubleState:
        return self.double.state

    @property
    def bot_user(self) -> User:
        return self.state.bot_user

    # building the world (before or while the bot runs)

    async def add_guild(self, name: str = "Test Guild",
                        shard: tuple[int, int] | None = None) -> Guild:
        """A server; on shard (shard_id, shard_count) when given."""
        state = self.state
        gid = state.snowflakes.on_shard(*shard) if shard else state.snowflakes.next()
        # The bot has a role of its own, as an invited bot does (its permissions do not
        # change when a test narrows @everyone's).
        bot_role = Role(state.snowflakes.next(), state.bot_user.name,
                        permissions=EVERYONE_DEFAULT)
        guild = Guild(gid, name, roles=[Role(gid, "@everyone", permissions=EVERYONE_DEFAULT),
                                        bot_role])
        guild.members[state.bot_user.id] = Member(state.bot_user, role_ids=[bot_role.id],
                                                  joined_at=state.clock.now())
        state.guilds[gid] = guild
        await self.double.gateway.dispatch("GUILD_CREATE", payloads.guild_create(state, guild))
        return guild

    async def add_channel(self, guild: Guild, name: str = "tables") -> Channel:
        state = self.state
        channel = Channel(state.snowflakes.next(), guild.id, name,
                          position=len(guild.channel_ids), created_at=state.clock.now())
        state.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        await self.double.gateway.dispatch("CHANNEL_CREATE", payloads.channel(state, channel))
        return channel

    async def add_thread(self, parent: Channel, name: str, owner: User | None = None) -> Channel:
        state = self.state
        thread = Channel(state.snowflakes.next(), parent.guild_id, name, type=11,
                         parent_id=parent.id, owner_id=(owner or state.bot_user).id,
                         created_at=state.clock.now())
        state.channels[thread.id] = thread
        state.guilds[parent.guild_id].channel_ids.append(thread.id)
        await self.double.gateway.dispatch("THREAD_CREATE", payloads.channel(state, thread))
        return thread

    def add_user(self, name: str, display_name: str | None = None, *, bot: bool = False) -> User:
        user = User(self.state.snowflakes.next(), name, display_name, bot)
        self.state.users[user.id] = user
        return user

    async def add_member(self, guild: Guild, user: User, nick: str | None = None) -> Member:
        member = Member(user, nick, joined_at=self.state.clock.now())
        guild.members[user.id] = member
        await self.double.gateway.dispatch(
            "GUILD_MEMBER_ADD", {**payloads.member(self.state, member), "guild_id": str(guild.id)})
        return member

    async def add_role(self, guild: Guild, name: str, permissions: int = 0,
                       members: Iterable[User] = ()) -> Role:
        """A role with these permission bits, given to `members`. (@everyone is
        guild.roles[0]; its permissions can be set directly before an interaction.)"""
        role = Role(self.state.snowflakes.next(), name, permissions)
        guild.roles.append(role)
        await self.double.gateway.dispatch("GUILD_ROLE_CREATE", {
            "guild_id": str(guild.id), "role": payloads.role(role, len(guild.roles) - 1)})
        for user in members:
            await self.give_role(guild, user, role)
        return role

    async def give_role(self, guild: Guild, user: User, role: Role) -> None:
        member = guild.members[user.id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        await self.double.gateway.dispatch("GUILD_MEMBER_UPDATE", {
            **payloads.member(self.state, member), "guild_id": str(guild.id)})

    async def delete_channel(self, channel: Channel, *, notify: bool = True) -> None:
        """Someone deletes a channel or thread (a channel's threads go with it): every
        request about it then gets 404 Unknown Channel (10003). With `notify`, the
        gateway says so (CHANNEL_DELETE, or THREAD_DELETE for a thread; a channel's
        threads get no event of their own, as on Discord)."""
        state = self.state
        gone = [channel, *(c for c in state.channels.values() if c.parent_id == channel.id)]
        guild = state.guilds[channel.guild_id]
        for lost in gone:
            state.channels.pop(lost.id, None)
            if lost.id in guild.channel_ids:
                guild.channel_ids.remove(lost.id)
        if not notify:
            return
        if channel.is_thread:
            await self.double.gateway.dispatch("THREAD_DELETE", {
                "id": str(channel.id), "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id), "type": channel.type})
        else:
            await self.double.gateway.dispatch("CHANNEL_DELETE",
                                               payloads.channel(state, channel))

    async def remove_bot(self, guild: Guild, *, notify: bool = True) -> None:
        """The bot is removed from a server (kicked, or the server deleted): its writes
        there get 403 Missing Access (50001); with `notify`, GUILD_DELETE (without
        `unavailable`, which would mean an outage) tells it."""
        guild.members.pop(self.state.bot_user.id, None)
        for channel_id in guild.channel_ids:
            self.state.channels[channel_id].refuse_writes = (403, 50001, "Missing Access")
        if notify:
            await self.double.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def make_world(self, users: Iterable[str] = ("alice", "bob", "carol", "dave"),
                         guild: str = "Test Guild", channel: str = "tables",
                         shard: tuple[int, int] | None = None) -> World:
        """A guild (on this shard, when given), a text channel and members with display
        names (Alice, Bob, ...)."""
        made_guild = await self.add_guild(guild, shard)
        made_channel = await self.add_channel(made_guild, channel)
        people = []
        for name in users:
            user = self.add_user(name, name.capitalize())
            await self.add_member(made_guild, user)
            people.append(user)
        return World(made_guild, made_channel, tuple(people))

    # acting as users

    async def slash(self, user: User, channel: Channel, name: str,
                    subcommand: str | None = None, options: dict[str, Any] | None = None,
                    group: str | None = None, *, guild_command: bool | None = None,
                    wait: bool = True, expect_double_ack: bool = False,
                    timeout: float | None = None) -> InteractionHandle:
        """A type-2 interaction. Options: str 3, int 4, bool 5, User 6, Channel 7, float 10.

        guild_command None: guild-scoped when the bot synced the command to this guild."""
        data = command_data(self, channel, name, subcommand, group, options or {}, guild_command)
        return await self._send(APPLICATION_COMMAND, user, channel, data, None, wait,
                                expect_double_ack, timeout)

    async def click(self, user: User, message: Message, custom_id: str, *, wait: bool = True,
                    expect_double_ack: bool = False,
                    timeout: float | None = None) -> InteractionHandle:
        """Press the button with this custom_id on the latest state of the message."""
        message = self._clickable(user, message)
        comp = find_component(message, custom_id=custom_id)
        if comp.get("type") != 2:
            raise AssertionError(f"{custom_id!r} is not a button on message {message.id}")
        if comp.get("disabled"):
            raise AssertionError(f"button {custom_id!r} is disabled: a user cannot press it")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send(COMPONENT, user, self.state.channels[message.channel_id], data,
                                message, wait, expect_double_ack, timeout)

    async def select(self, user: User, message: Message, custom_id: str,
                     values: Sequence[str | User | Channel | Role], *, wait: bool = True,
                     expect_double_ack: bool = False,
                     timeout: float | None = None) -> InteractionHandle:
        """Choose values in a select: option values (strings) for a string select; users,
        roles or channels for the other select kinds (sent with `resolved`)."""
        message = self._clickable(user, message)
        channel = self.state.channels[message.channel_id]
        resolved: dict[str, dict[str, Any]] = {}
        ids = [v if isinstance(v, str) else resolve(self, channel, v, resolved) for v in values]
        comp = find_component(message, custom_id=custom_id)
        if comp.get("disabled"):
            raise AssertionError(f"select {custom_id!r} is disabled")
        if comp.get("type") == 3:
            offered = {o["value"] for o in comp.get("options", [])}
            unknown = set(ids) - offered
            if unknown:
                raise AssertionError(f"values {sorted(unknown)} not among the options {offered}")
        if not comp.get("min_values", 1) <= len(ids) <= comp.get("max_values", 1):
            raise AssertionError(f"{len(ids)} values outside min/max of {custom_id!r}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"],
                                "values": ids}
        if resolved:
            data["resolved"] = resolved
        return await self._send(COMPONENT, user, channel, data, message, wait,
                                expect_double_ack, timeout)

    async def submit_modal(self, user: User, shown: InteractionHandle, values: dict[str, str],
                           *, wait: bool = True, timeout: float | None = None) -> InteractionHandle:
        """Submit the modal `shown` opened, filling text inputs by custom_id."""
        modal = shown.modal
        if modal is None:
            raise AssertionError(f"interaction {shown.id} did not open a modal")
        rows = []
        for top in modal.get("components", []):
            if top.get("type") == 18:  # a label wrapping one input
                inner = top["component"]
                rows.append({"type": 18, "component": {
                    "type": inner["type"], "custom_id": inner["custom_id"],
                    "value": values.get(inner["custom_id"], "")}})
            else:
                rows.append({"type": 1, "components": [
                    {"type": c["type"], "custom_id": c["custom_id"],
                     "value": values.get(c["custom_id"], "")}
                    for c in top.get("components", [])]})
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = self.state.messages.get(shown.interaction.source_message_id or 0)
        return await self._send(MODAL_SUBMIT, user, shown.interaction.channel, data, source,
                                wait, False, timeout)

    async def press(self, user: User, message: Message, label: str | None = None, *,
                    prefix: str | None = None, **kwargs: Any) -> InteractionHandle:
        """Click the button found by label or custom_id prefix on the message's latest state."""
        found = self.button(message, label, prefix=prefix)
        return await self.click(user, message, found["custom_id"], **kwargs)

    def button(self, message: Message, label: str | None = None, *,
               prefix: str | None = None) -> dict[str, Any]:
        """A button of the message's latest state, by label or custom_id prefix."""
        return button(self.message(message), label, prefix=prefix)

    def buttons(self, message: Message) -> list[dict[str, Any]]:
        return buttons(self.message(message))

    def _clickable(self, user: User, message: Message) -> Message:
        message = self.message(message)
        if message.deleted:
            raise AssertionError(f"message {message.id} was deleted")
        if message.ephemeral_to not in (None, user.id):
            raise AssertionError(f"{user.name} cannot see ephemeral message {message.id}")
        return message

    async def _send(self, kind: int, user: User, channel: Channel, data: dict[str, Any],
                    source: Message | None, wait: bool, expect_double_ack: bool,
                    timeout: float | None) -> InteractionHandle:
        if not self.double.gateway.connected:
            raise RuntimeError("no bot is connected to the double")
        inter = new_interaction(self, kind, user, channel, data, source)
        inter.allow_double_ack = expect_double_ack
        await self.double.gateway.dispatch("INTERACTION_CREATE", inter.payload)
        handle = InteractionHandle(self, inter)
        if wait:
            await handle.wait_response(5.0 if timeout is None else timeout)
            await self.settle(timeout=timeout)
        return handle

    # reading what Discord received

    def message(self, channel_or_message: Channel | Message | int,
                message_id: int | None = None) -> Message:
        """The latest state of a message (by object, id, or channel and id)."""
        if isinstance(channel_or_message, Message):
            return self.state.messages[channel_or_message.id]
        if isinstance(channel_or_message, int):
            return self.state.messages[channel_or_message]
        found = self.state.messages[message_id or 0]
        if found.channel_id != channel_or_message.id:
            raise KeyError(f"message {message_id} is not in channel {channel_or_message.name}")
        return found

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Public, undeleted messages of the channel, oldest first."""
        return self.state.channel_messages(channel.id)

    def last_message(self, channel: Channel) -> Message | None:
        found = self.channel_messages(channel)
        return found[-1] if found else None

    def ephemerals(self, user: User) -> list[Message]:
        return self.state.ephemerals(user.id)

    def visible_to(self, user: User, channel: Channel) -> list[Message]:
        """What the user sees in the channel: public messages and their own ephemerals."""
        mine = [m for m in self.ephemerals(user) if m.channel_id == channel.id]
        return sorted([*self.channel_messages(channel), *mine], key=lambda m: m.id)

    def edits_of(self, message: Message) -> list[Version]:
        """Every version of the message, the original first."""
        return list(self.message(message).versions)

    def recorded_payloads(self, audience: Audience | None = None, kind: str | None = None, *,
                          public: bool | None = None,
                          user: User | None = None) -> list[RecordedPayload]:
        """Bodies the bot sent, oldest first, filtered by exact audience, kind
        ("message", "edit", "interaction_response", "followup", "delete", "thread", "channel"),
        public (channel-visible or not) or user (ephemeral to that user)."""
        return [p for p in self.state.payloads
                if (audience is None or p.audience == audience)
                and (kind is None or p.kind == kind)
                and (public is None or (p.audience is not None
                                        and p.audience.ephemeral != public))
                and (user is None or (p.audience is not None
                                      and p.audience.user_id == user.id))]

    def commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The application commands the bot synced (globally, or to the guild)."""
        if guild is None:
            return list(self.state.global_commands)
        return list(self.state.guild_commands.get(guild.id, []))

    @property
    def violations(self) -> list[Violation]:
        return list(self.state.violations)

    def take_violations(self) -> list[Violation]:
        """The violations so far, forgotten: for tests that break a rule on purpose."""
        found = list(self.state.violations)
        self.state.violations.clear()
        return found

    def take_bot_errors(self) -> list[str]:
        found = list(self.bot_errors)
        self.bot_errors.clear()
        return found

    # time, waiting, failures

    def advance_time(self, seconds: float) -> None:
        """Move Discord's clock: deadlines (3 s answers, 15 min tokens) see the jump."""
        self.state.clock.advance(seconds)

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0,
                       what: str = "the condition") -> T:
        """Poll until predicate() is truthy and return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            await asyncio.sleep(0.005)

    async def settle(self, idle: float | None = None, timeout: float | None = None) -> None:
        """Return once no request is in flight and none arrived for `idle` seconds
        (default `self.idle`), and no `busy` hook (the test's view into the bot) is true, at
        most `timeout` s (default `self.settle_timeout`). Time the event loop spent blocked
        (a bot thinking in the loop) does not count as quiet: the bot had no chance to talk."""
        idle = self.idle if idle is None else idle
        timeout = self.settle_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        calm_since = time.monotonic()
        while True:
            now = time.monotonic()
            quiet = now - max(self.double.last_activity, calm_since)
            if any(busy() for busy in self.busy):
                calm_since = now
                quiet = 0.0
            elif self.double.in_flight == 0 and quiet >= idle:
                return
            if now > deadline:
                raise TimeoutError(f"the bot kept talking to Discord for {timeout} s")
            nap = max(0.005, idle - quiet)
            await asyncio.sleep(nap)
            if time.monotonic() - now > nap + idle / 2:
                calm_since = time.monotonic()  # the loop was blocked: start counting again

    def fail_next(self, method: str, path_regex: str, status: int = 429,
                  retry_after: float = 0.05, *, via: bool = False,
                  is_global: bool = False) -> None:
        """Answer the next matching request (path after /api/v10) with an error, once.

        A 429 without `via` is raised by discord.py at once; with `via` it sleeps and retries.
        A 5xx makes discord.py sleep 1 s and retry; 403/404/other 4xx are raised at once."""
        self.double.failures.append(InjectedFailure(
            method.upper(), re.compile(path_regex), status, retry_after, via, is_global))

    async def reconnect(self) -> None:
        """Ask the client to reconnect (op 7); it RESUMEs."""
        await self.double.gateway.reconnect()

    @asynccontextmanager
    async def running(self, bot: Bot, token: str = "test-token",
                      ready_timeout: float = 5.0) -> AsyncIterator[Bot]:
        """Run `bot` against the double until the block ends (create it with
        guild_ready_timeout=0.1, or on_ready waits 2 s)."""
        async with run_bot(self, bot, token, ready_timeout) as running_bot:
            yield running_bot
