"""Messages about people's turns: the ping that notifies someone the table waits for them,
and the list of a server's open tables (/tables)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from .messages import COLOUR, Message
from .text import clip

TABLES_SHOWN = 10  # tables listed in one /tables answer; the rest are counted
LINE_LIMIT = 390  # characters per table: ten of them fit an embed's 4,096


def jump_url(guild_id: int, channel_id: int, message_id: int | None) -> str:
    """A link that opens the channel at the message (or the channel, without one)."""
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


def ping(user_id: int, title: str, seat_name: str, url: str,
         deadline: float | None, slow: bool) -> Message:
    """A new message (an edit would notify nobody) that pings one person, and only them:
    the table waits for them. `deadline`: when a computer player moves for them."""
    when = f" A computer player moves for you <t:{int(deadline)}:R>." if deadline else ""
    # A private hand lives 15 minutes: after hours away it must be asked for afresh.
    hand = " Press **My hand** there for your cards." if slow else ""
    text = (f"<@{user_id}>, the {title} table is waiting for you ({seat_name}): "
            f"[go to the table]({url}).{when}{hand}")
    return Message(content=text, buttons=None,
                   mentions=discord.AllowedMentions(users=[discord.Object(user_id)],
                                                    roles=False, everyone=False,
                                                    replied_user=False))


@dataclass(frozen=True, slots=True)
class TableLine:
    """One open table as /tables lists it."""

    table_id: int
    title: str
    url: str  # the table message (or its channel)
    channel_id: int
    players: Sequence[str]
    waiting_for: Sequence[str]  # who is to act (empty: in the lobby)
    since: float | None  # when the current wait began (epoch seconds)
    slow: bool = False


def tables_list(lines: Sequence[TableLine], mine: bool) -> Message:
    """The open tables of a server (or only the asker's), newest wait last; with links."""
    heading = "Your open tables" if mine else "Open tables in this server"
    if not lines:
        empty = ("You are not seated at any open table here." if mine
                 else "No table is open in this server. Start one with /play.")
        return Message(content=empty, buttons=None,
                       mentions=discord.AllowedMentions.none())
    shown = [_line(line) for line in lines[:TABLES_SHOWN]]
    more = len(lines) - len(shown)
    if more:
        shown.append(f"… and {more} more.")
    embed = discord.Embed(title=heading, description=clip("\n\n".join(shown), 4096),
                          colour=COLOUR)
    return Message(embeds=[embed], buttons=None, mentions=discord.AllowedMentions.none())


def _line(line: TableLine) -> str:
    pace = " (slow play)" if line.slow else ""
    head = f"**[{line.title} #{line.table_id}]({line.url})**{pace} in <#{line.channel_id}>"
    players = ", ".join(line.players) or "nobody yet"
    if not line.waiting_for:
        turn = "in the lobby"
    else:
        turn = f"waiting for {', '.join(line.waiting_for)}"
        if line.since is not None:
            turn += f" since <t:{int(line.since)}:R>"
    return clip(f"{head}\n{players} · {turn}", LINE_LIMIT)
