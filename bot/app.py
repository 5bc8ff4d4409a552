"""The discord.py `Bot` subclass: opens the store, loads the cogs, restores tables, syncs."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.store import Store
from bot.tables import TableService

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.tables",
    "cogs.play",
    "cogs.info",
)


class TrickTableBot(commands.Bot):
    store: Store
    tables: TableService

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        # Slash commands and components need no privileged intents.
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **kwargs)
        self.settings = settings

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.tables = TableService(self.store, bot_delay=self.settings.bot_delay_seconds)
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("could not load extension %s", extension)
        restored = await self.tables.restore()
        log.info("restored %d unfinished tables", len(restored))
        publisher = self.get_cog("Tables")
        if publisher is not None:
            for table in restored:
                publisher.table_changed(table, ())  # type: ignore[attr-defined]
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        try:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("synced %d application commands", len(synced))
        except discord.HTTPException:
            log.exception("could not sync application commands; the old ones stay")

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.shutdown()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
