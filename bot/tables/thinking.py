"""Where computer players think: a small thread pool, off the event loop.

A search player (sampling, double-dummy solving) can think for most of a second. Run on
the event loop it would hold up every click of every table, so each decision runs in a
worker thread (the double-dummy solver releases the GIL; pure-Python search shares it,
which the loop tolerates because the interpreter switches threads every few ms). Each
decision gets a `Budget`; `thinkers` tells the player how many are thinking at once, so
that it can size its work to its share of the machine.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.ai import Budget, Player


class ThinkingPool:
    """Runs `player.choose` in worker threads with a per-decision budget."""

    def __init__(self, seconds: float, workers: int | None = None) -> None:
        self.seconds = seconds
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._pool = ThreadPoolExecutor(max_workers=self.workers,
                                        thread_name_prefix="computer-player")
        self.thinking = 0

    async def choose(self, player: Player, view: Any, legal: Sequence[str]) -> str:
        """The player's choice, thought out in a worker thread."""
        self.thinking += 1
        try:
            budget = Budget(self.seconds, thinkers=self.thinking)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, player.choose, view, legal, budget)
        finally:
            self.thinking -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
