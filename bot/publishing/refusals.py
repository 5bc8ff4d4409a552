"""What Discord's refusal of a write means, decided in one place. Every writer of the
publisher (the channel writer, live hands, the after-deal analysis) and the Tables cog's
answer with a hand ask `classify`, and act on the kind it gives:

- CARDS: a card emoji Discord does not know (deleted in the Developer Portal): cards are
  text from then on, and what was refused is drawn again with them;
- RATE_LIMITED: a 429 that got through the pacing: the write is tried again after
  Discord's `retry_after`;
- CHANNEL_GONE: the channel or thread was deleted: its table is abandoned;
- MESSAGE_GONE: the message was deleted, or is past the edits Discord takes of a message
  over an hour old: a table message is posted afresh, a line is not edited in;
- FORBIDDEN: the bot lost access or a permission there: the table's channel messages
  pause until someone asks for the table again (/table);
- OTHER: anything else, logged.
"""

from __future__ import annotations

from enum import Enum

import discord

from bot.render import emojis

RATE_LIMITED = 429
UNKNOWN_CHANNEL = 10003  # the channel or thread was deleted
GONE = frozenset({10008, 30046})  # unknown message; too many edits of an old message
FORBIDDEN = frozenset({50001, 50013})  # missing access, missing permissions
UNKNOWN_EMOJI = 10014
INVALID_FORM = 50035  # a body Discord refuses; "Invalid emoji" names a component's emoji


class Refusal(Enum):
    CARDS = "a card emoji"
    RATE_LIMITED = "rate limited"
    CHANNEL_GONE = "channel gone"
    MESSAGE_GONE = "message gone"
    FORBIDDEN = "forbidden"
    OTHER = "other"


def classify(error: discord.HTTPException) -> Refusal:
    """What Discord's refusal of a message means for the bot. A card emoji is blamed only
    while the bot writes cards as emojis: once they are text, nothing is drawn again."""
    if emojis.current().enabled and (error.code == UNKNOWN_EMOJI or (
            error.code == INVALID_FORM and "emoji" in str(error).lower())):
        return Refusal.CARDS
    if error.status == RATE_LIMITED:
        return Refusal.RATE_LIMITED
    if error.code == UNKNOWN_CHANNEL:
        return Refusal.CHANNEL_GONE
    if error.code in GONE or isinstance(error, discord.NotFound):
        return Refusal.MESSAGE_GONE
    if error.code in FORBIDDEN:
        return Refusal.FORBIDDEN
    return Refusal.OTHER


def retry_after(error: discord.HTTPException) -> float:
    """Seconds Discord asked us to wait after a 429 (its header; 1 s if unreadable)."""
    try:
        wait = float(error.response.headers.get("Retry-After", 1.0))
    except (AttributeError, TypeError, ValueError):
        wait = 1.0
    return min(max(wait, 0.0), 60.0)
