"""Work a club service starts from a table watcher's callback (which cannot wait): each
runs as its own task, is logged if it fails, and is counted while it runs, so tests can
wait until a service has caught up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger(__name__)


class Followups:
    def __init__(self, what: str) -> None:
        self.what = what  # for the log: "team match", "challenge"
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("%s: could not follow a table", self.what)
        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def busy(self) -> bool:
        return bool(self._tasks)
