"""A clean stop: SIGTERM (what Docker and systemd send) or SIGINT (Ctrl+C) lets the clicks
and commands being handled finish (their writes and answers, up to 3 s), then closes the
bot as `close()` does: the computer players' moves in flight finish their writes, the
computer players, timers and worker processes stop, the gateway and the database close,
and the process exits 0, its last line saying it stopped and how long the stop took.
A second signal while it is stopping is ignored (Docker sends SIGKILL after its grace
period anyway)."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


# The tasks that answer an interaction: discord.py's for the on_interaction event (a
# click), its command tree's for a slash command.
ANSWERING = ("discord.py: on_interaction", "CommandTree-invoker")
ANSWER_GRACE = 3.0  # seconds: Discord's own limit for a first answer


async def finish_answers(grace: float = ANSWER_GRACE) -> int:
    """Let the interactions being handled now finish (their writes and their answers)
    before the bot closes its HTTP session under them; how many were waited for."""
    current = asyncio.current_task()
    busy = [task for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(ANSWERING)]
    if busy:
        await asyncio.wait(busy, timeout=grace)
    return len(busy)


class CleanStop:
    """The stop a signal started; `await stopped()` once the bot's run has returned, so
    the process does not end while the close is still finishing (closing the store)."""

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None
        self.signal = ""  # the signal's name
        self.asked_at = 0.0  # when it came (the event loop's clock)

    async def stopped(self) -> None:
        if self.task is not None:
            await self.task
            took = asyncio.get_running_loop().time() - self.asked_at
            log.info("stopped cleanly (%s), in %.1f s", self.signal, took)


def stop_on_signals(close: Callable[[], Awaitable[None]],
                    loop: asyncio.AbstractEventLoop | None = None) -> CleanStop:
    """Call `close()` once when the process is asked to stop."""
    loop = loop or asyncio.get_running_loop()
    stop = CleanStop()

    async def run_close() -> None:
        await finish_answers()
        await close()

    def asked(signum: int) -> None:
        if stop.task is not None:
            log.info("%s again: still stopping", signal.Signals(signum).name)
            return
        stop.signal, stop.asked_at = signal.Signals(signum).name, loop.time()
        log.info("%s: stopping cleanly", stop.signal)
        stop.task = loop.create_task(run_close(), name="clean-stop")

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, asked, sig)
    return stop
