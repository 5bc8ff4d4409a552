"""Playing a table through the service, as a person, while its computer players act."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


async def settle(table: Any, steps: int = 100000) -> None:
    """Let the computer players act until the person must (or the table is over)."""
    for _ in range(steps):
        if table.driver is None or table.driver.done():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("computer players did not settle")


async def play_until(service: Any, table: Any, user_id: int,
                     done: Callable[[], bool], limit: int = 5000) -> None:
    """The person plays their first legal action each time they are to act, until done()
    (or the table closes); for declarer's seat when they play their computer partner's
    contract (human declares)."""
    for _ in range(limit):
        await settle(table)
        if done() or table.closed:
            return
        seat = table.acting_seat(table.seat_of(user_id))
        legal = table.game.legal(seat)
        assert legal, "the computer players stopped while the person was not to act"
        await service.act(table.id, user_id, seat, table.decisions[seat], legal[0])
    raise AssertionError("not done")
