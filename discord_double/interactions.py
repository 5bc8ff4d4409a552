"""Building INTERACTION_CREATE payloads the way Discord sends them."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import payloads
from .state import Channel, Interaction, Message, Role, User

if TYPE_CHECKING:
    from .driver import Driver

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, NUMBER = 3, 4, 5, 6, 7, 8, 10
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2


@dataclass
class InteractionHandle:
    """A live view of one interaction: its response, the messages it made, its followups."""

    driver: Driver
    interaction: Interaction

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def responded(self) -> bool:
        return self.interaction.response_type is not None

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.interaction.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        return self.interaction.ephemeral

    @property
    def message(self) -> Message | None:
        """The response message (for a click answered by an update: the clicked message)."""
        found = self.driver.state.messages.get(self.interaction.original_message_id or 0)
        return found

    @property
    def followups(self) -> list[Message]:
        return [self.driver.state.messages[i] for i in self.interaction.followup_ids]

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    async def wait_response(self, timeout: float = 5.0) -> InteractionHandle:
        await self.driver.wait_for(lambda: self.responded, timeout=timeout,
                                   what=f"a response to interaction {self.id}")
        return self


def resolve(driver: Driver, channel: Channel, value: User | Channel | Role,
            resolved: dict[str, dict[str, Any]]) -> str:
    """Add a user, channel or role to an interaction's `resolved` map; its id as text."""
    state = driver.state
    guild = state.guild_of(channel)
    if isinstance(value, User):
        resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
        if value.id in guild.members:
            member = payloads.member(state, guild.members[value.id], with_user=False)
            member["permissions"] = str(payloads.member_permissions(guild, value.id))
            resolved.setdefault("members", {})[str(value.id)] = member
    elif isinstance(value, Channel):
        data = payloads.channel(state, value)
        data["permissions"] = str(payloads.ALL_PERMISSIONS)
        resolved.setdefault("channels", {})[str(value.id)] = data
    else:
        position = next(i for i, r in enumerate(guild.roles) if r.id == value.id)
        resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value, position)
    return str(value.id)


def _option(state_users: dict[int, User], name: str, value: Any,
            resolved: dict[str, dict[str, Any]], driver: Driver,
            channel: Channel) -> dict[str, Any]:
    if isinstance(value, User):
        return {"name": name, "type": USER, "value": resolve(driver, channel, value, resolved)}
    if isinstance(value, Channel):
        return {"name": name, "type": CHANNEL,
                "value": resolve(driver, channel, value, resolved)}
    if isinstance(value, Role):
        return {"name": name, "type": ROLE, "value": resolve(driver, channel, value, resolved)}
    if isinstance(value, bool):
        return {"name": name, "type": BOOLEAN, "value": value}
    if isinstance(value, int):
        return {"name": name, "type": INTEGER, "value": value}
    if isinstance(value, float):
        return {"name": name, "type": NUMBER, "value": value}
    return {"name": name, "type": STRING, "value": str(value)}


def command_data(driver: Driver, channel: Channel, name: str, subcommand: str | None,
                 group: str | None, options: dict[str, Any],
                 guild_command: bool | None) -> dict[str, Any]:
    resolved: dict[str, dict[str, Any]] = {}
    opts = [_option(driver.state.users, k, v, resolved, driver, channel)
            for k, v in options.items()]
    if subcommand is not None:
        opts = [{"name": subcommand, "type": SUBCOMMAND, "options": opts}]
    if group is not None:
        if subcommand is None:
            raise ValueError("a subcommand group needs a subcommand")
        opts = [{"name": group, "type": SUBCOMMAND_GROUP, "options": opts}]
    state = driver.state
    guild_cmds = state.guild_commands.get(channel.guild_id, [])
    synced = [c for c in guild_cmds if c["name"] == name]
    if guild_command is None:
        guild_command = bool(synced)
    if not synced:
        synced = [c for c in state.global_commands if c["name"] == name]
    data: dict[str, Any] = {
        "id": synced[0]["id"] if synced else str(state.snowflakes.next()),
        "name": name, "type": 1, "options": opts,
    }
    if guild_command:
        data["guild_id"] = str(channel.guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def new_interaction(driver: Driver, kind: int, user: User, channel: Channel,
                    data: dict[str, Any], source: Message | None = None) -> Interaction:
    state = driver.state
    inter_id = state.snowflakes.next()
    token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
    payload = payloads.interaction_base(state, inter_id, token, kind, user, channel)
    payload["data"] = data
    if source is not None:
        payload["message"] = payloads.message(state, source)
    inter = Interaction(id=inter_id, token=token, type=kind, user=user, channel=channel,
                        created_at=state.clock.now(), payload=payload,
                        source_message_id=source.id if source else None)
    state.interactions[inter.id] = inter
    state.by_token[token] = inter
    return inter
