"""Edits of messages already shown: the public table message and people's private hands.

These go straight through discord.py's HTTP client (`bot.http`, with its rate limits and
retries) and never turn Discord's reply into a Message object: under load that parsing
was a large share of the bot's CPU, for objects nobody read. A private hand is kept as
just the interaction's application id and token (all an edit needs), not the whole
Interaction with its message and member.
"""

from __future__ import annotations

from typing import Any

import discord
import orjson
from discord.http import Route
from discord.webhook.async_ import async_context

ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


def fingerprint(body: dict[str, Any]) -> int:
    """What a message shows, in one number: an edit that would change nothing is skipped."""
    return hash(orjson.dumps(body))


async def edit_channel_message(http: discord.http.HTTPClient, channel_id: int,
                               message_id: int, body: dict[str, Any]) -> None:
    """Edit a message the bot posted; raises discord.HTTPException (NotFound if deleted)."""
    await http.request(Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                             channel_id=channel_id, message_id=message_id), json=body)


async def edit_original_response(http: discord.http.HTTPClient, application_id: int,
                                 token: str, body: dict[str, Any]) -> None:
    """Edit the message an interaction was answered with (the only way to edit an
    ephemeral one, for 15 minutes); raises discord.HTTPException."""
    await http.request(Route("PATCH", ORIGINAL, webhook_id=application_id,
                             webhook_token=token), json=body)


CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
NEW_MESSAGE, UPDATE_MESSAGE = 4, 7  # Discord's interaction response types
EPHEMERAL = 64  # message flag: shown to the clicking person only


async def answer_with_message(interaction: discord.Interaction[Any], body: dict[str, Any],
                              in_place: bool) -> int | None:
    """Answer a click with a message (the JSON `body` of an edit): the message it was on
    edited in place, or a new private one. The id of the message that shows it.

    Through discord.py's webhook adapter, as its `edit_message` and `send_message` go
    (their rate limits and retries), but without building a View and a Button object per
    button for them to serialise, nor a Message from Discord's reply: on every click."""
    data = dict(body)
    if in_place:
        kind, params = UPDATE_MESSAGE, None
    else:
        if data.get("content") is None:  # an edit's null clears it; a new one has none
            data.pop("content", None)
        data["flags"] = EPHEMERAL
        kind, params = NEW_MESSAGE, {"with_response": "1"}  # the new message's id
    http = interaction._state.http
    answer = await async_context.get().request(
        Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token),
        session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
        payload={"type": kind, "data": data}, params=params)
    # discord.py's own record that the click is answered (`response.is_done()`), kept as
    # its methods keep it.
    interaction.response._response_type = discord.InteractionResponseType(kind)
    if in_place:
        return interaction.message.id if interaction.message else None
    made = answer.get("interaction", {}).get("response_message_id") \
        if isinstance(answer, dict) else None
    return int(made) if made is not None else None
