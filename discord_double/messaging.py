"""Creating and editing stored messages for any route, with validation, recording and events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads
from .bodies import Upload, new_version
from .gateway import GUILD_MESSAGES_INTENT
from .mentions import notified_users
from .server import error
from .state import EPHEMERAL, Audience, Channel, Interaction, Message, Version

if TYPE_CHECKING:
    from .server import DiscordDouble


async def create_message(
    double: DiscordDouble, request: web.Request, channel: Channel, body: dict[str, Any],
    uploads: list[Upload], *, kind: str, interaction: Interaction | None = None,
    msg_type: int = 0, forced_flags: int | None = None,
) -> Message | web.Response:
    """A new message, or Discord's error answer if the body breaks a rule."""
    state = double.state
    flags = forced_flags if forced_flags is not None else body.get("flags") or 0
    ephemeral_to = interaction.user.id if interaction and flags & EPHEMERAL else None
    audience = Audience(channel.id, ephemeral_to)
    version = new_version(state, body, uploads, None, forced_flags=forced_flags)
    invalid = double.invalid_body(request, body)
    if invalid is None and forced_flags is None and _empty(version):
        invalid = _refuse_empty(double, request)
    double.record(request, kind, audience, body, uploads, invalid.status if invalid else 200)
    if invalid is not None:
        return invalid
    if interaction is None:
        version.flags &= ~EPHEMERAL  # only interactions can make ephemeral messages
    message = Message(
        id=state.snowflakes.next(), channel_id=channel.id, guild_id=channel.guild_id,
        author=state.bot_user, versions=[version], ephemeral_to=ephemeral_to,
        interaction_id=interaction.id if interaction else None, type=msg_type,
        notified=frozenset() if ephemeral_to is not None else notified_users(
            version.content, body.get("allowed_mentions")))
    state.messages[message.id] = message
    if ephemeral_to is None and double.dispatch_message_events:
        await double.gateway.dispatch("MESSAGE_CREATE", payloads.message_event(state, message),
                                      intent=GUILD_MESSAGES_INTENT)
    return message


async def edit_message(
    double: DiscordDouble, request: web.Request, message: Message, body: dict[str, Any],
    uploads: list[Upload], *, kind: str,
) -> web.Response | None:
    """Apply an edit; None when it succeeded, else Discord's error answer."""
    version = new_version(double.state, body, uploads, message.latest)
    invalid = double.invalid_body(request, body)
    if invalid is None and _empty(version):
        invalid = _refuse_empty(double, request)
    double.record(request, kind, message.audience, body, uploads,
                  invalid.status if invalid else 200)
    if invalid is not None:
        return invalid
    message.versions.append(version)
    if message.ephemeral_to is None and double.dispatch_message_events:
        await double.gateway.dispatch(
            "MESSAGE_UPDATE", payloads.message_event(double.state, message),
            intent=GUILD_MESSAGES_INTENT)
    return None


async def delete_message(double: DiscordDouble, request: web.Request, message: Message) -> None:
    message.deleted = True
    double.record(request, "delete", message.audience, {"id": str(message.id)}, [], 204)
    if message.ephemeral_to is None and double.dispatch_message_events:
        await double.gateway.dispatch("MESSAGE_DELETE", {
            "id": str(message.id), "channel_id": str(message.channel_id),
            "guild_id": str(message.guild_id)}, intent=GUILD_MESSAGES_INTENT)


def _empty(version: Version) -> bool:
    return not (version.content or version.embeds or version.components
                or version.attachments)


def _refuse_empty(double: DiscordDouble, request: web.Request) -> web.Response:
    double.violation("empty-message", "a message needs content, embeds, components or "
                     "attachments", request)
    return error(400, 50006, "Cannot send an empty message")
