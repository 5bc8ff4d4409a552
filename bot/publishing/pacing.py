"""Keeping within Discord's per-channel budget for message sends and edits.

Discord allows about 5 message writes (sends, edits, deletes) per channel in 5 seconds
and answers more with 429. discord.py learns a bucket from the answers' headers, but per
route: until it has seen a send's headers it does not know that sends share the budget
its edits have used up, so a bot relying on it alone overruns the budget now and then.
The publisher therefore paces each channel itself: at most `limit` writes in any `per`
seconds, counted from the moment each write's answer came back (Discord counts a request
when it arrives, which is earlier), one write at a time per channel.

Waiting here costs nothing shown: the publisher builds a message after its wait, from
the latest state, so a burst of changes becomes one edit.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

CHANNEL_WRITES = 5  # Discord's per-channel budget: this many writes ...
CHANNEL_WINDOW = 5.0  # ... in this many seconds
FORGET_AFTER = 10 * 60.0  # a channel quiet this long is forgotten (memory stays flat)


@dataclass
class _Lane:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    done: deque[float] = field(default_factory=deque)  # when recent writes came back


class ChannelPacer:
    def __init__(self, limit: int = CHANNEL_WRITES, per: float = CHANNEL_WINDOW, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.limit = limit
        self.per = per
        self.clock = clock
        self._sleep = sleep
        self._lanes: dict[int, _Lane] = {}
        self.waited = 0.0  # seconds spent waiting for the budget, for tests and logs

    def _lane(self, channel_id: int) -> _Lane:
        lane = self._lanes.get(channel_id)
        if lane is None:
            self._forget_quiet()
            lane = self._lanes[channel_id] = _Lane()
        return lane

    def _forget_quiet(self) -> None:
        now = self.clock()
        for channel_id, lane in list(self._lanes.items()):
            if not lane.lock.locked() and (not lane.done or now - lane.done[-1] > FORGET_AFTER):
                del self._lanes[channel_id]

    async def _wait_turn(self, lane: _Lane) -> None:
        while len(lane.done) >= self.limit:
            wait = lane.done[0] + self.per - self.clock()
            if wait <= 0:
                lane.done.popleft()
                continue
            self.waited += wait
            await self._sleep(wait)

    async def ready(self, channel_id: int) -> None:
        """Wait until a write to the channel would be within the budget (without taking
        it): build what to send after this, so it shows the latest state."""
        lane = self._lane(channel_id)
        async with lane.lock:
            await self._wait_turn(lane)

    @asynccontextmanager
    async def write(self, channel_id: int) -> AsyncIterator[None]:
        """Around one message write to the channel: waits for the budget, and counts it."""
        lane = self._lane(channel_id)
        async with lane.lock:
            await self._wait_turn(lane)
            try:
                yield
            finally:
                lane.done.append(self.clock())
