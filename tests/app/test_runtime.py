"""The bot process's runtime: uvloop when installed, collector thresholds for a
long-running server, and what is alive after start-up frozen out of later collections."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import app, runtime
from tests.e2e.harness import running


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's own collector settings, put back afterwards."""
    threshold = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_bot_runs_on_uvloop_when_it_is_installed() -> None:
    pytest.importorskip("uvloop")
    assert runtime.loop_name() == "uvloop"
    assert runtime.run(_loop_module()).startswith("uvloop")


def test_without_uvloop_the_bot_runs_on_asyncio_s_own_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # `import uvloop` raises ImportError
    assert runtime.loop_factory() is None
    assert runtime.loop_name() == "asyncio"
    assert runtime.run(_loop_module()).startswith("asyncio")


def test_the_collector_is_tuned_for_a_long_running_server(collector: None) -> None:
    gc.set_threshold(700, 10, 10)  # Python's defaults
    runtime.tune_collector()
    young, middle, full = gc.get_threshold()
    assert (young, middle, full) == (runtime.YOUNG_COLLECTION_EVERY,
                                     runtime.MIDDLE_COLLECTION_EVERY,
                                     runtime.FULL_COLLECTION_EVERY)
    # Shorter middle collections, full ones as rare as before (per young collection).
    assert middle < 10 and middle * full >= 10 * 100


def test_what_is_alive_after_start_up_is_frozen_and_garbage_is_not(collector: None) -> None:
    class Cycle:
        other: Any = None

    kept, dropped = Cycle(), Cycle()
    kept.other = kept
    dropped.other = dropped
    dropped_id = id(dropped)
    del dropped  # unreachable, and only a collection frees a cycle
    gc.unfreeze()
    runtime.freeze_started()
    assert gc.get_freeze_count() > 0
    frozen = {id(thing) for thing in gc.get_objects() if isinstance(thing, Cycle)}
    # gc.get_objects() leaves out the frozen generation: the live cycle is in it, and
    # the dead one was collected before the freeze instead of being kept forever.
    assert id(kept) not in frozen and dropped_id not in frozen
    gc.unfreeze()
    assert id(kept) in {id(thing) for thing in gc.get_objects() if isinstance(thing, Cycle)}


@pytest.mark.parametrize("alone", [False, True])
async def test_the_bot_freezes_its_start_up_objects_only_when_it_runs_alone(
        discord_double: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        collector: None, alone: bool) -> None:
    frozen: list[bool] = []
    # Recorded, not done: the test process is shared by every test.
    monkeypatch.setattr(app, "freeze_started", lambda: frozen.append(True))
    gc.set_threshold(700, 10, 10)  # Python's defaults
    async with running(discord_double, tmp_path, freeze_at_start=alone) as h:
        assert gc.get_threshold() == (runtime.YOUNG_COLLECTION_EVERY,
                                      runtime.MIDDLE_COLLECTION_EVERY,
                                      runtime.FULL_COLLECTION_EVERY)
        assert h.bot.is_ready()
        assert frozen == ([True] if alone else [])  # once, at the end of the start-up


# -- tasks started in place (Python 3.12's eager start, for aiohttp's body writers on 3.11)


async def test_a_coroutine_started_in_place_runs_to_its_end_before_the_call_returns() -> None:
    ran: list[str] = []

    async def quick() -> int:
        ran.append("all of it")
        return 7

    future = runtime.start_in_place(asyncio.get_running_loop(), quick())
    assert ran == ["all of it"] and future.done() and future.result() == 7


async def test_a_coroutine_started_in_place_runs_up_to_its_first_wait_then_in_a_task() -> None:
    ran: list[str] = []
    gate = asyncio.get_running_loop().create_future()

    async def waits() -> str:
        ran.append("before")
        got = await gate
        ran.append("after")
        return f"{got}!"

    future = runtime.start_in_place(asyncio.get_running_loop(), waits())
    assert ran == ["before"] and not future.done()
    gate.set_result("opened")
    assert await future == "opened!" and ran == ["before", "after"]


async def test_a_coroutine_started_in_place_keeps_its_error_and_its_context() -> None:
    seen: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="unset")

    async def fails() -> None:
        seen.set("inside")  # in the task's own copy of the context, not the caller's
        raise ValueError("broken")

    future = runtime.start_in_place(asyncio.get_running_loop(), fails())
    with pytest.raises(ValueError, match="broken"):
        await future
    assert seen.get() == "unset"


@pytest.mark.parametrize("before_its_task_ran", [False, True])
async def test_a_coroutine_started_in_place_is_cancelled_as_a_task_is(
        before_its_task_ran: bool) -> None:
    cleaned: list[str] = []
    never = asyncio.get_running_loop().create_future()

    async def waits_forever() -> None:
        try:
            await never
        finally:
            cleaned.append("cleaned up")

    future = runtime.start_in_place(asyncio.get_running_loop(), waits_forever())
    if not before_its_task_ran:
        await asyncio.sleep(0)  # the task has taken over the coroutine's wait
    future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await future
    assert cleaned == ["cleaned up"]


async def test_requests_go_out_through_the_task_factory_with_their_body_writer_in_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A real aiohttp request with a body (as every click's answer is): on 3.11 its
    body writer is started in place, and the request and its answer are whole."""
    import aiohttp
    from aiohttp import web

    started: list[str] = []
    start = runtime.start_in_place

    def spied(loop: asyncio.AbstractEventLoop, coro: Any, context: Any = None) -> Any:
        started.append(coro.cr_code.co_qualname)
        return start(loop, coro, context)

    monkeypatch.setattr(runtime, "start_in_place", spied)

    async def echo(request: web.Request) -> web.Response:
        return web.json_response({"got": await request.json()})

    server = web.Application()
    server.router.add_post("/echo", echo)
    runner = web.AppRunner(server)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    loop = asyncio.get_running_loop()
    before = loop.get_task_factory()
    try:
        runtime.install_task_factory(loop)
        async with aiohttp.ClientSession() as session:
            for n in range(3):
                async with session.post(f"http://127.0.0.1:{port}/echo",
                                        json={"n": n, "pad": "x" * 5000}) as answer:
                    assert (await answer.json())["got"]["n"] == n
    finally:
        loop.set_task_factory(before)
        await runner.cleanup()
    expected = ["ClientRequest.write_bytes"] * 3 if sys.version_info < (3, 12) else []
    assert started == expected


async def test_the_bot_makes_its_tasks_with_the_runtime_s_factory_on_3_11(
        discord_double: Any, tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    before = loop.get_task_factory()
    try:
        async with running(discord_double, tmp_path) as h:
            assert h.bot.is_ready()
            expected = runtime.task_factory if sys.version_info < (3, 12) else before
            assert loop.get_task_factory() is expected
    finally:
        loop.set_task_factory(before)
