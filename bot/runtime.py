"""The bot process's runtime: its event loop and its garbage collector's settings.

Event loop: uvloop when it is installed (a dependency on Linux and macOS), else
asyncio's own. Each turn of uvloop's loop costs a fraction of asyncio's, and a click's
answer waits for several turns (its socket read, the store's answer on PostgreSQL, the
callback's write), each behind every callback queued on the loop.

Collector: a long-running bot keeps a large, stable heap (the modules, discord.py's
caches, every live table) and makes mostly short-lived garbage (parsed interactions,
payloads), freed by their last reference: an answered interaction lets go of the objects
that point back at it (`bot.router.release`), which would otherwise wait for a full
collection. A middle-generation collection walks everything that survived the young
collections since the last one: with Python's default of one every 10 young ones, that
took up to 13 ms at 200 tables (`bench/tables --trace`), the event loop stalled
meanwhile and every click arriving then waiting. One every 2 young ones walks a fifth as
much each time (measured at 50 tables: the longest 1.6 ms of CPU against 3.0). Full
collections stay as rare as before (one per 1000 young ones) and walk less: what is
alive once the bot has started (modules, restored tables) is frozen out of them. (A
larger young generation, 10,000 objects, was tried: its collections took up to 6 ms of
CPU each instead of 1.4, with no CPU saved.)

Requests: aiohttp writes each request's body in a task of its own. On Python 3.12+ it
starts that task eagerly, so the request is on the wire in the turn that makes it; on
3.11 the task waited for the loop's next turn, behind all the work queued meanwhile,
before a click's answer left the bot (`bench/tables --trace`, "connection -> sent": p50
2 ms, p99 12 ms at 200 tables). On 3.11 the bot starts those tasks in place as 3.12 does
(`task_factory`); every other task is created as asyncio creates it.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from bot.tables.begun import go_on

T = TypeVar("T")

# Net new container objects between young collections (Python's default).
YOUNG_COLLECTION_EVERY = 700
# Young collections between middle ones (Python's default: 10).
MIDDLE_COLLECTION_EVERY = 2
# Middle collections between full ones (Python's default: 10): with the above, one full
# collection per 1000 young ones; each walks every live object that is not frozen.
FULL_COLLECTION_EVERY = 500


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop when it is installed; None: asyncio's default."""
    try:
        import uvloop
    except ImportError:
        return None
    new_loop: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return new_loop


def loop_name() -> str:
    return "uvloop" if loop_factory() is not None else "asyncio"


def run(main: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(main) on the fastest event loop installed."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)


def tune_collector() -> None:
    """Thresholds for a long-running server (see the module's docstring)."""
    gc.set_threshold(YOUNG_COLLECTION_EVERY, MIDDLE_COLLECTION_EVERY, FULL_COLLECTION_EVERY)


def freeze_started() -> None:
    """Collect what start-up left behind, then keep every object alive now out of all
    later collections (gc.freeze): they live as long as the process, and walking them
    again in each full collection would only stall the loop."""
    gc.collect()
    gc.freeze()


# The coroutine aiohttp runs as a request's body writer (see the module's docstring).
_BODY_WRITER = ("aiohttp.client_reqrep", "ClientRequest.write_bytes")


def _is_body_writer(coro: Any) -> bool:
    code, frame = getattr(coro, "cr_code", None), getattr(coro, "cr_frame", None)
    return (code is not None and frame is not None and code.co_qualname == _BODY_WRITER[1]
            and frame.f_globals.get("__name__") == _BODY_WRITER[0])


def task_factory(loop: asyncio.AbstractEventLoop, coro: Any,
                 context: contextvars.Context | None = None) -> asyncio.Future[Any]:
    """The bot's tasks: as asyncio makes them, except aiohttp's body writers on Python
    3.11, which are started in place (3.12+ does so itself)."""
    if sys.version_info < (3, 12) and _is_body_writer(coro):
        return start_in_place(loop, coro, context)
    return asyncio.Task(coro, loop=loop, context=context)


def install_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    """Use `task_factory` on this loop (needed on 3.11 only; another factory is kept)."""
    if sys.version_info < (3, 12) and loop.get_task_factory() is None:
        loop.set_task_factory(task_factory)


def start_in_place(loop: asyncio.AbstractEventLoop, coro: Any,
                   context: contextvars.Context | None = None) -> asyncio.Future[Any]:
    """Run `coro` now up to its first wait, then on in a task (Python 3.12's eager
    start). Done at once, it is a finished future (a task factory may return any
    future). Unlike 3.12, `asyncio.current_task()` is the caller's during that first
    step: only for coroutines that do not ask for it (aiohttp's body writer)."""
    context = context if context is not None else contextvars.copy_context()
    try:
        waiting = context.run(coro.send, None)
    except StopIteration as done:
        future = loop.create_future()
        future.set_result(done.value)
        return future
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # the task's outcome, as a task would hold it
        future = loop.create_future()
        if isinstance(error, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(error)
        return future
    task = asyncio.Task(_rest(coro, waiting), loop=loop, context=context)
    # A task cancelled before its first step never runs `_go_on`: close the coroutine
    # so that its own clean-up runs (a no-op once it has finished).
    task.add_done_callback(lambda _: coro.close())
    return task


async def _rest(coro: Any, waiting: Any) -> Any:
    """A task takes coroutines only (3.12 refuses a generator-based one)."""
    return await go_on(coro, waiting)
