"""Begun: a coroutine's first step now, its rest in the task that awaits it."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.begun import Begun


async def test_the_first_step_runs_at_once_and_the_rest_in_the_awaiting_task():
    steps: list[tuple[str, asyncio.Task | None]] = []
    answer = asyncio.get_running_loop().create_future()

    async def write() -> int:
        steps.append(("sent", asyncio.current_task()))
        value = await answer
        steps.append(("answered", asyncio.current_task()))
        return value

    begun = Begun(write())
    assert steps == [("sent", asyncio.current_task())]  # before any await of ours
    asyncio.get_running_loop().call_soon(answer.set_result, 7)
    tasks = len(asyncio.all_tasks())
    assert await begun == 7
    assert steps[1] == ("answered", asyncio.current_task())
    assert len(asyncio.all_tasks()) == tasks  # no task of its own


async def test_a_coroutine_that_never_waits_is_done_at_once():
    async def synchronous() -> str:
        return "done"

    begun = Begun(synchronous())
    assert not begun.failed
    assert await begun == "done"


async def test_a_failure_is_raised_where_it_is_awaited():
    async def refused_at_once() -> None:
        raise OSError("no connection")

    async def refused_later() -> None:
        await asyncio.sleep(0)
        raise ValueError("refused")

    at_once = Begun(refused_at_once())
    assert at_once.failed
    with pytest.raises(OSError, match="no connection"):
        await at_once
    later = Begun(refused_later())
    assert not later.failed
    with pytest.raises(ValueError, match="refused"):
        await later


async def test_cancelling_the_awaiting_task_cancels_the_rest():
    cleaned: list[str] = []
    started = asyncio.Event()

    async def write() -> None:
        try:
            await asyncio.sleep(10)
        finally:
            cleaned.append("given back")

    async def click() -> None:
        begun = Begun(write())
        started.set()
        await begun

    task = asyncio.create_task(click())
    await started.wait()
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cleaned == ["given back"]
