"""The bot process's runtime: its event loop and its garbage collector's settings.

Event loop: uvloop when it is installed (a dependency on Linux and macOS), else
asyncio's own. Each turn of uvloop's loop costs a fraction of asyncio's, and a click's
answer waits for several turns (its socket read, the store's answer on PostgreSQL, the
callback's write), each behind every callback queued on the loop.

Collector: a long-running bot keeps a large, stable heap (the modules, discord.py's
caches, every live table) and makes mostly short-lived garbage (parsed interactions,
payloads). A middle-generation collection walks everything that survived the young
collections since the last one: with Python's default of one every 10 young ones, that
took up to 13 ms at 200 tables (`bench/tables --trace`), the event loop stalled
meanwhile and every click arriving then waiting. One every 2 young ones walks a fifth as
much each time (measured at 50 tables: the longest 1.6 ms of CPU against 3.0). Full
collections stay as rare as before (one per 1000 young ones) and walk less: what is
alive once the bot has started (modules, restored tables) is frozen out of them. (A
larger young generation, 10,000 objects, was tried: its collections took up to 6 ms of
CPU each instead of 1.4, with no CPU saved.)
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

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
