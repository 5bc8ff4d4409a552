"""A person's own private thread under a text channel, where their own table is played
(daily deals, challenges), and the table's first message in it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.publishing import table_message
from bot.tables import Table

if TYPE_CHECKING:
    from bot.app import TrickTableBot

NO_THREAD = ("I could not open a private thread here: I need the Create Private Threads "
             "permission.")


async def private_thread(channel: discord.TextChannel, name: str,
                         user: discord.abc.Snowflake) -> discord.Thread | None:
    """A new private thread that only `user` (and the bot) is in; None if Discord refused
    (the bot lacks the permission)."""
    try:
        thread = await channel.create_thread(name=name[:100],
                                             type=discord.ChannelType.private_thread,
                                             invitable=False, auto_archive_duration=1440)
        await thread.add_user(user)
    except discord.HTTPException:
        return None
    return thread


async def post_table(bot: TrickTableBot, thread: discord.Thread, table: Table) -> Any:
    """Post the table's message in its thread and remember it as the table's message."""
    message = await thread.send(**table_message(table).send_kwargs())
    await bot.tables.set_message(table, message.id)
    return message
