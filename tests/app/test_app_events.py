"""How the bot schedules its work: a click starts at once where Python can (the event
loop and the garbage collector's settings: tests/app/test_runtime.py)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from tests.e2e.harness import make_bot

EAGER = sys.version_info >= (3, 12)


async def test_a_click_is_started_at_once_where_python_can_start_tasks_eagerly(
        tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "t.db", guild_id=1)
    bot.loop = asyncio.get_running_loop()  # set by login, which this test skips
    ran: list[str] = []

    async def listener(what: str) -> None:
        ran.append(what)
        await asyncio.sleep(0)
        ran.append(f"{what} done")

    task = bot._schedule_event(listener, "on_interaction", "click")
    # Python 3.12+: the handler has run up to its first wait before the call returns;
    # 3.11 has no eager tasks, so it waits its turn in the event loop as before.
    assert ran == (["click"] if EAGER else [])
    await task
    assert ran == ["click", "click done"]


async def test_other_events_keep_discord_py_scheduling(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "t.db", guild_id=1)
    bot.loop = asyncio.get_running_loop()
    ran: list[Any] = []

    async def listener(what: str) -> None:
        ran.append(what)

    task = bot._schedule_event(listener, "on_table_finished", "table")
    assert ran == []
    await task
    assert ran == ["table"]
