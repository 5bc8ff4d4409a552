"""Running a discord.py bot against the double for the length of an `async with` block."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

import discord
import yarl

if TYPE_CHECKING:
    from discord.ext import commands

    from .driver import Driver

log = logging.getLogger("discord_double")


@contextmanager
def discord_pointed_at(api_base: str, gateway_url: str) -> Iterator[None]:
    """discord.py's REST calls and gateway go to the double (a `DiscordDouble`'s `api_base`
    and `gateway_url`, maybe from another process) inside the block."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class _ErrorCollector(logging.Handler):
    """discord.py logs exceptions in commands and views instead of raising: keep them."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(self.format(record))


@asynccontextmanager
async def run_bot(driver: Driver, bot: commands.Bot, token: str,
                  ready_timeout: float) -> AsyncIterator[commands.Bot]:
    discord_log = logging.getLogger("discord")
    collector = _ErrorCollector(driver.bot_errors)
    collector.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    discord_log.addHandler(collector)
    if bot._connection.guild_ready_timeout > 0.5:
        log.warning("bot made without guild_ready_timeout=0.1: on_ready will wait %.1f s",
                    bot._connection.guild_ready_timeout)
    task = asyncio.create_task(bot.start(token), name="bot under test")
    try:
        deadline = time.monotonic() + ready_timeout
        while not bot.is_ready():
            if task.done():
                task.result()  # raises what ended the bot
                raise RuntimeError("the bot stopped before it was ready")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot was not ready within {ready_timeout} s")
            await asyncio.sleep(0.005)
        yield bot
    finally:
        try:
            await bot.close()
            await asyncio.wait_for(task, 5)
        except BaseException:
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            raise
        finally:
            discord_log.removeHandler(collector)
