"""A clean stop's log: SIGTERM to this very process, the handler the bot installs, and the
last line says the bot stopped, after everything the close did."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from bot.ops.stopping import stop_on_signals


async def test_a_clean_stop_ends_with_a_stopped_line(caplog):
    closing = logging.getLogger("bot.app")

    async def close() -> None:
        await asyncio.sleep(0.05)
        closing.info("the database is closed")

    loop = asyncio.get_running_loop()
    caplog.set_level(logging.INFO)
    try:
        stop = stop_on_signals(close, loop)
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100):
            if stop.task is not None:
                break
            await asyncio.sleep(0.01)
        await stop.stopped()
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    lines = [record.getMessage() for record in caplog.records]
    assert lines[0] == "SIGTERM: stopping cleanly"
    assert lines[-2] == "the database is closed"
    assert lines[-1].startswith("stopped cleanly (SIGTERM), in 0.")
