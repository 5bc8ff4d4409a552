"""The tables' wall clock: turn timers and pings wait until a moment on it.

Deadlines are moments (seconds since the epoch), not in-memory sleeps, so a restarted bot
counts a slow table's 24 hours from when the turn began. A wait is made of naps of at most
a minute, and a clock moved forward (tests move it by days) wakes every waiter at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import UTC, datetime

LONGEST_NAP = 60.0  # seconds: a waiter looks at the clock at least this often


class Clock:
    """Real time plus an offset a test can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._moved = asyncio.Event()

    def now(self) -> float:
        return time.time() + self.offset

    def moment(self, at: float | None = None) -> datetime:
        """A moment as a timezone-aware datetime (as the store keeps times)."""
        return datetime.fromtimestamp(self.now() if at is None else at, UTC)

    def advance(self, seconds: float) -> None:
        """Move the clock forward and wake every waiter to look at it again."""
        self.offset += seconds
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep_until(self, moment: float) -> None:
        while (left := moment - self.now()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._moved.wait(), min(left, LONGEST_NAP))
