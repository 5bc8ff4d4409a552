"""Channels, threads and servers that go away under a table.

A table whose channel or thread is deleted, or whose server the bot was removed from,
can never be shown or played again: it is closed as abandoned (stored so, so a restart
leaves it closed), and nothing more is written for it. The gateway's events say so at
once; a write answered with Unknown Channel (10003) says so too (bot/publishing), for an
event missed while the bot was away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.tables import TableService

if TYPE_CHECKING:
    from bot.app import TrickTableBot


class LostPlaces(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.service: TableService = bot.tables

    async def _lost(self, *, channel_id: int | None = None,
                    guild_id: int | None = None) -> None:
        tables = self.service.tables_in(channel_id=channel_id, guild_id=guild_id)
        if tables:
            await self.bot.publisher.tables_lost(tables)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        # discord.py follows it with a thread deletion for each of its threads
        await self._lost(channel_id=channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._lost(channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from the server (an outage is `on_guild_unavailable`, not this)."""
        await self._lost(guild_id=guild.id)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(LostPlaces(bot))
