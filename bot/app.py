"""The discord.py `Bot` subclass: opens the store, makes the bot's services (the table
service, the publisher, the click router), loads the cogs, restores tables, syncs."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.ops.server import OpsServer
from bot.publishing import Publisher
from bot.render.pictures.board import warm as warm_pictures
from bot.router import SORRY, ClickRouter, refuse, release
from bot.runtime import freeze_started, install_task_factory, tune_collector
from bot.store import Shards, Store
from bot.tables import Clock, TableError, TableService
from bot.tables.servers import ServerRules

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.cards",
    "cogs.tables",
    "cogs.lost",
    "cogs.records",
    "cogs.play",
    "cogs.info",
    "cogs.leaderboard",
    "cogs.daily",
    "cogs.overview",
    "cogs.match",
    "cogs.challenge",
    "cogs.forget",
    "cogs.server",
)


class TrickTableTree(app_commands.CommandTree):
    """Answers every failed command with a private explanation instead of silence; a
    command refuses a request by raising `TableError`, answered here with its text."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CommandInvokeError) and \
                isinstance(error.original, TableError):
            text = str(error.original)
        elif isinstance(error, app_commands.TransformerError):
            text = f"`{error.value}` is not a valid value for that option."
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = "This command works in a server channel only."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You cannot use this command here."
        elif isinstance(error, app_commands.CommandNotFound):
            text = "That command is not available any more; Discord may still be updating."
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed for user %s", command, interaction.user.id,
                      exc_info=error)
            text = SORRY
        try:
            await refuse(interaction, text)
        finally:
            release(interaction)


class TrickTableBot(commands.Bot):
    store: Store
    tables: TableService
    publisher: Publisher  # what the bot sends on its own: table messages, posts, hands
    router: ClickRouter  # every button's verb -> its handler (each cog registers its own)
    server_rules: ServerRules  # each server's own settings (/server settings)
    served_shards: Shards | None = None  # None: unsharded, this process serves every server
    ops_server: OpsServer | None = None  # health and metrics (METRICS_PORT)
    _lease_task: asyncio.Task[None] | None = None

    def __init__(self, settings: Settings, store: Store | None = None,
                 clock: Clock | None = None, freeze_at_start: bool = False,
                 **kwargs: Any) -> None:
        # Slash commands and components need no privileged intents. Nor do they need
        # message events: without them Discord does not send the bot a MESSAGE_UPDATE for
        # every table and hand edit it makes itself (each one parsed into a Message).
        intents = discord.Intents.default()
        intents.messages = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=TrickTableTree, **kwargs)
        self.settings = settings
        self.router = ClickRouter()
        # Called with each interaction as discord.py hands it over, before any handler runs
        # (bench/tables stamps its arrival there).
        self.interaction_observers: list[Callable[[discord.Interaction[Any]], None]] = []
        self._given_store = store
        self._clock = clock  # the tables' wall clock (tests move one forward by days)
        # The process is this bot's alone (not a test run of many bots): once it has
        # started, what is alive is kept out of every later garbage collection.
        self._freeze_at_start = freeze_at_start

    def _schedule_event(self, coro: Callable[..., Coroutine[Any, Any, Any]], event_name: str,
                        *args: Any, **kwargs: Any) -> asyncio.Task[Any]:
        """A click is started at once (Python 3.12+ can start a task eagerly): its
        handler runs up to its first real wait, the callback's HTTP request, before the
        event loop goes on with the work already queued (table edits, hands, computer
        players). Under load that queue is what a click used to wait behind. Other events
        keep discord.py's scheduling."""
        if sys.version_info >= (3, 12) and event_name == "on_interaction":
            return asyncio.Task(self._run_event(coro, event_name, *args, **kwargs),
                                loop=self.loop, name=f"discord.py: {event_name}",
                                eager_start=True)
        return super()._schedule_event(coro, event_name, *args, **kwargs)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":
            for observe in self.interaction_observers:
                observe(args[0])
        super().dispatch(event_name, *args, **kwargs)
        if event_name == "app_command_completion":
            release(args[0])  # the command has answered (a failed one: `on_error`)

    async def setup_hook(self) -> None:
        tune_collector()
        install_task_factory(asyncio.get_running_loop())  # requests out in their turn
        self.store = self._given_store or await Store.open(self.settings.database)
        if self.settings.shard_count is not None:
            self.served_shards = Shards(self.settings.shard_count,
                                 self.settings.shard_ids or tuple(range(self.settings.shard_count)))
            await self._take_leases()
        self.tables = TableService(self.store, bot_delay=self.settings.bot_delay_seconds,
                                   think_seconds=self.settings.think_seconds,
                                   think_processes=self.settings.think_processes,
                                   worker_setup=(warm_pictures,),
                                   shards=self.served_shards, clock=self._clock)
        self.publisher = Publisher(self, self.tables, self.settings.edit_interval,
                                   self.settings.channel_write_window)
        self.publisher.start()
        self.server_rules = self.tables.servers
        if self.settings.metrics_port is not None:
            self.ops_server = OpsServer(self, self.settings.metrics_port)
            await self.ops_server.start()
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("could not load extension %s", extension)
        if self.ops_server is not None:  # the cogs have registered their commands and verbs
            self.ops_server.instruments.count_interactions_from_zero()
        restored = await self.tables.restore()
        log.info("restored %d unfinished tables", len(restored))
        await self.publisher.restore(restored)  # their messages, live hands and pings
        self.dispatch("tables_restored")  # e.g. rating posts a stopped bot still owed
        if self.served_shards is None or 0 in self.served_shards.ids:
            await self._sync_commands()  # once per bot, not once per process
        else:
            log.info("commands are synced by the process that serves shard 0")
        if self._freeze_at_start:
            freeze_started()

    @property
    def lease_holder(self) -> str:
        return f"{socket.gethostname()}:{os.getpid()}"

    async def _take_leases(self) -> None:
        """Hold this process's shards (raises ShardTaken, one line, if another living
        process serves one of them), and keep them renewed while the process lives."""
        shards = self.served_shards
        assert shards is not None
        # A second process for one of these shards is refused; a killed process's shards
        # are free again once its leases expire (renewed three times per lease).
        await self.store.take_shards(shards.count, shards.ids, self.lease_holder,
                                     self.settings.lease_seconds)
        log.info("serving shards %s of %d", ",".join(map(str, shards.ids)), shards.count)
        self._lease_task = asyncio.create_task(self._renew_leases(), name="shard-leases")

    async def _renew_leases(self) -> None:
        shards = self.served_shards
        assert shards is not None
        while True:
            await asyncio.sleep(self.settings.lease_seconds / 3)
            try:
                lost = await self.store.renew_shards(
                    shards.count, shards.ids, self.lease_holder, self.settings.lease_seconds)
            except Exception:
                log.exception("could not renew the shard leases; trying again")
                continue
            if lost:  # expired (the process stalled) and taken over: stop serving
                log.error("shards %s are now served by another process; stopping", lost)
                self._lease_task = None  # close() must not cancel this very task
                await self.close()
                return

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
        if self.ops_server is not None:
            await self.ops_server.stop()
            self.ops_server = None
        if hasattr(self, "tables"):
            await self.tables.shutdown()
        await super().close()
        if hasattr(self, "publisher"):
            self.publisher.stop()
        if self._lease_task is not None:
            self._lease_task.cancel()
            self._lease_task = None
            shards = self.served_shards
            if shards is not None and not self.store.closed:
                try:
                    await self.store.release_shards(shards.count, shards.ids, self.lease_holder)
                except Exception:
                    log.exception("could not release the shard leases (they expire)")
        if hasattr(self, "store"):
            await self.store.close()


class ShardedTrickTableBot(TrickTableBot, commands.AutoShardedBot):
    """The bot as one process of several: discord.py's AutoShardedBot running the shards
    given by SHARD_COUNT and SHARD_IDS."""


def make_bot(settings: Settings, store: Store | None = None, **kwargs: Any) -> TrickTableBot:
    """The bot for these settings: sharded when a shard count is set."""
    if settings.shard_count is None:
        return TrickTableBot(settings, store=store, **kwargs)
    return ShardedTrickTableBot(
        settings, store=store, shard_count=settings.shard_count,
        shard_ids=list(settings.shard_ids or range(settings.shard_count)), **kwargs)
