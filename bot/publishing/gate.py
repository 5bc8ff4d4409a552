"""Answering clicks comes first: while a click is being answered (Discord's 3 s), a
table's update waits for a quiet moment before it builds its messages, at most until its
deadline. Work already queued on the event loop when a click's write comes back is work
that click waits behind. A click deferred first (a claim waiting for a worker) is
answered already: it lets the updates go on (`answered`) while it finishes."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator

# the release of the click being answered in this task (each click has its own task)
_current: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar(
    "click_release", default=None)


class ClickGate:
    def __init__(self) -> None:
        self._answering = 0  # clicks being answered now
        self._quiet = asyncio.Event()  # set while no click is being answered
        self._quiet.set()

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around the answer to a click: table updates wait while any is being answered."""
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self._answering -= 1
            if not self._answering:
                self._quiet.set()

        self._answering += 1
        self._quiet.clear()
        token = _current.set(release)
        try:
            yield
        finally:
            _current.reset(token)
            release()

    def answered(self) -> None:
        """The click being answered in this task has had its answer (a defer): table
        updates need not wait for the rest of its work."""
        release = _current.get()
        if release is not None:
            release()

    async def quiet(self, until: float) -> None:
        """Wait for a moment with no click being answered (until the monotonic time
        `until` at most)."""
        if not self._answering:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, until - time.monotonic())):
                await self._quiet.wait()
