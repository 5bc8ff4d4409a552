"""Answering clicks comes first: while a click is being answered (Discord's 3 s), a
table's update waits for a quiet moment before it builds its messages, at most until its
deadline. Work already queued on the event loop when a click's write comes back is work
that click waits behind."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator


class ClickGate:
    def __init__(self) -> None:
        self._answering = 0  # clicks being answered now
        self._quiet = asyncio.Event()  # set while no click is being answered
        self._quiet.set()

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around the answer to a click: table updates wait while any is being answered."""
        self._answering += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if not self._answering:
                self._quiet.set()

    async def quiet(self, until: float) -> None:
        """Wait for a moment with no click being answered (until the monotonic time
        `until` at most)."""
        if not self._answering:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, until - time.monotonic())):
                await self._quiet.wait()
