"""The `discord_double` pytest fixture: a fresh double per test, discord.py pointed at it.

Use via `pytest_plugins = ["tests.discord_double.fixtures"]` or import the fixture. The test
fails at teardown if the bot broke one of Discord's rules or discord.py logged an error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import yarl

from .driver import Driver
from .server import DiscordDouble


@pytest.fixture
async def discord_double() -> AsyncIterator[Driver]:
    double = DiscordDouble()
    await double.start()
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = double.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(double.gateway_url)
    driver = Driver(double)
    try:
        yield driver
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
        await double.stop()
    problems = [str(v) for v in driver.violations] + driver.bot_errors
    if problems:
        pytest.fail("Discord double: " + "\n".join(problems), pytrace=False)
