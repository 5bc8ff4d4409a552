"""Channel routes: messages, threads, typing, reactions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits, payloads
from .bodies import read_body
from .messaging import create_message, delete_message, edit_message
from .server import error, no_content, reply
from .state import Channel, Message

if TYPE_CHECKING:
    from .server import DiscordDouble


def _channel(double: DiscordDouble, request: web.Request) -> Channel | None:
    return double.state.channels.get(int(request.match_info["channel_id"]))


def _message(double: DiscordDouble, request: web.Request) -> Message | None:
    """A public, live message of this channel (ephemerals cannot be reached this way)."""
    message = double.state.messages.get(int(request.match_info["message_id"]))
    if (message is None or message.deleted or message.ephemeral_to is not None
            or str(message.channel_id) != request.match_info["channel_id"]):
        return None
    return message


def _ephemeral_via_channel(double: DiscordDouble, request: web.Request) -> bool:
    message = double.state.messages.get(int(request.match_info["message_id"]))
    if message is not None and message.ephemeral_to is not None:
        double.violation("ephemeral-via-channel", f"message {message.id} is ephemeral: it can "
                         "only be read or edited through its interaction token", request)
        return True
    return False


async def get_channel(double: DiscordDouble, request: web.Request) -> web.Response:
    channel = _channel(double, request)
    if channel is None:
        return error(404, 10003, "Unknown Channel")
    return reply(payloads.channel(double.state, channel))


async def edit_channel(double: DiscordDouble, request: web.Request) -> web.Response:
    channel = _channel(double, request)
    if channel is None:
        return error(404, 10003, "Unknown Channel")
    body, _ = await read_body(request)
    double.record(request, "channel", None, body, [], 200)
    channel.name = body.get("name", channel.name)
    data = payloads.channel(double.state, channel)
    if channel.is_thread:
        meta = data["thread_metadata"]
        meta.update({k: body[k] for k in ("archived", "locked") if k in body})
    await double.gateway.dispatch(
        "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
    return reply(data)


def _refused(double: DiscordDouble, request: web.Request,
             needs: int = 0) -> web.Response | None:
    """The channel's answer to a write the bot may no longer make there: test-set, or
    for want of the permission bits `needs`."""
    channel = _channel(double, request)
    if channel is None:
        return None
    if channel.refuse_writes is not None:
        status, code, text = channel.refuse_writes
        return error(status, code, text)
    if needs & ~payloads.bot_permissions(double.state, channel):
        return error(403, 50013, "Missing Permissions")
    return None


def _send_permission(channel: Channel) -> int:
    return payloads.SEND_MESSAGES_IN_THREADS if channel.is_thread else payloads.SEND_MESSAGES


async def post_message(double: DiscordDouble, request: web.Request) -> web.Response:
    channel = _channel(double, request)
    if channel is None:
        return error(404, 10003, "Unknown Channel")
    refused = _refused(double, request, _send_permission(channel))
    if refused is not None:
        return refused
    body, uploads = await read_body(request)
    if uploads and (refused := _refused(double, request, payloads.ATTACH_FILES)):
        return refused
    made = await create_message(double, request, channel, body, uploads, kind="message")
    if isinstance(made, web.Response):
        return made
    return reply(payloads.message(double.state, made))


async def list_messages(double: DiscordDouble, request: web.Request) -> web.Response:
    channel = _channel(double, request)
    if channel is None:
        return error(404, 10003, "Unknown Channel")
    found = double.state.channel_messages(channel.id)
    query = request.query
    if "before" in query:
        found = [m for m in found if m.id < int(query["before"])]
    if "after" in query:
        found = [m for m in found if m.id > int(query["after"])]
    limit = int(query.get("limit", 50))
    newest_first = list(reversed(found))[:limit]
    return reply([payloads.message(double.state, m) for m in newest_first])


def _unknown_channel(double: DiscordDouble, request: web.Request) -> web.Response | None:
    """Discord's answer about a message in a channel that no longer exists."""
    if _channel(double, request) is None:
        return error(404, 10003, "Unknown Channel")
    return None


async def get_message(double: DiscordDouble, request: web.Request) -> web.Response:
    if (gone := _unknown_channel(double, request)) is not None:
        return gone
    message = _message(double, request)
    if message is None:
        _ephemeral_via_channel(double, request)
        return error(404, 10008, "Unknown Message")
    return reply(payloads.message(double.state, message))


async def patch_message(double: DiscordDouble, request: web.Request) -> web.Response:
    if (gone := _unknown_channel(double, request)) is not None:
        return gone
    message = _message(double, request)
    if message is None:
        _ephemeral_via_channel(double, request)
        return error(404, 10008, "Unknown Message")
    if message.author.id != double.state.bot_user.id:
        double.violation("edit-foreign-message", f"message {message.id} was not sent by the bot",
                         request)
        return error(403, 50005, "Cannot edit a message authored by another user")
    refused = _refused(double, request)
    if refused is not None:
        return refused
    clock = double.state.clock
    if limits.old_edits_spent(message.versions[0].at, [v.at for v in message.versions[1:]],
                              clock.now()):
        return error(400, limits.OLD_MESSAGE_EDITS_CODE, "Maximum number of edits to "
                     "messages older than 1 hour reached. Try again later")
    body, uploads = await read_body(request)
    failed = await edit_message(double, request, message, body, uploads, kind="edit")
    return failed or reply(payloads.message(double.state, message))


async def remove_message(double: DiscordDouble, request: web.Request) -> web.Response:
    if (gone := _unknown_channel(double, request)) is not None:
        return gone
    message = _message(double, request)
    if message is None:
        _ephemeral_via_channel(double, request)
        return error(404, 10008, "Unknown Message")
    await delete_message(double, request, message)
    return no_content()


async def _new_thread(double: DiscordDouble, request: web.Request, parent: Channel,
                      thread_id: int | None, body: dict[str, Any] | None = None
                      ) -> web.Response:
    if body is None:
        body, _ = await read_body(request)
    state = double.state
    name = str(body.get("name") or "")
    if not 1 <= len(name) <= 100:
        double.violation("limit", f"thread name has {len(name)} characters (1 to 100)", request)
        return error(400, 50035, "Invalid Form Body: name")
    thread = Channel(
        id=thread_id or state.snowflakes.next(), guild_id=parent.guild_id, name=name,
        type=int(body.get("type") or 11), parent_id=parent.id, owner_id=state.bot_user.id,
        created_at=state.clock.now())
    state.channels[thread.id] = thread
    state.guilds[parent.guild_id].channel_ids.append(thread.id)
    double.record(request, "thread", None, body, [], 201)
    data = payloads.channel(state, thread)
    await double.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True})
    return reply(data, 201)


async def thread_without_message(double: DiscordDouble, request: web.Request) -> web.Response:
    parent = _channel(double, request)
    if parent is None or parent.is_thread:
        return error(404, 10003, "Unknown Channel")
    # A private thread (type 12) needs Create Private Threads, any other Create Public
    # Threads.
    body, _ = await read_body(request)
    private = int(body.get("type") or 11) == 12
    refused = _refused(double, request, payloads.CREATE_PRIVATE_THREADS if private
                       else payloads.CREATE_PUBLIC_THREADS)
    if refused is not None:
        return refused
    return await _new_thread(double, request, parent, None, body)


async def thread_from_message(double: DiscordDouble, request: web.Request) -> web.Response:
    parent = _channel(double, request)
    message = _message(double, request)
    if parent is None or message is None:
        return error(404, 10008, "Unknown Message")
    if message.thread_id is not None:
        return error(400, 160004, "A thread has already been created for this message")
    response = await _new_thread(double, request, parent, message.id)  # Discord reuses the id
    if response.status == 201:
        message.thread_id = message.id
    return response


async def accepted(double: DiscordDouble, request: web.Request) -> web.Response:
    """Typing, reactions, thread membership: acknowledged, nothing to keep."""
    if _channel(double, request) is None:
        return error(404, 10003, "Unknown Channel")
    return no_content()


ROUTES = [
    ("GET", "/channels/{channel_id}", get_channel),
    ("PATCH", "/channels/{channel_id}", edit_channel),
    ("POST", "/channels/{channel_id}/messages", post_message),
    ("GET", "/channels/{channel_id}/messages", list_messages),
    ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", patch_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", remove_message),
    ("POST", "/channels/{channel_id}/threads", thread_without_message),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", thread_from_message),
    ("POST", "/channels/{channel_id}/typing", accepted),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", accepted),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", accepted),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", accepted),
]
