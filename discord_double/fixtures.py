"""The `discord_double` pytest fixture: a fresh double per test, discord.py pointed at it.

Use via `pytest_plugins = ["discord_double.fixtures"]` or import the fixture. The test
fails at teardown if the bot broke one of Discord's rules or discord.py logged an error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .driver import Driver
from .runner import discord_pointed_at
from .server import DiscordDouble


@pytest.fixture
async def discord_double() -> AsyncIterator[Driver]:
    double = DiscordDouble()
    await double.start()
    driver = Driver(double)
    try:
        with discord_pointed_at(double.api_base, double.gateway_url):
            yield driver
    finally:
        await double.stop()
    problems = [str(v) for v in driver.violations] + driver.bot_errors
    if problems:
        pytest.fail("Discord double: " + "\n".join(problems), pytrace=False)
