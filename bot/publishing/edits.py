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
