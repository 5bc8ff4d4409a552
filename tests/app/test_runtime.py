"""The bot process's runtime: uvloop when installed, collector thresholds for a
long-running server, and what is alive after start-up frozen out of later collections."""

from __future__ import annotations

import asyncio
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
