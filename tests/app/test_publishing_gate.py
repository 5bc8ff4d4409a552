"""A table's update builds its messages in a moment with no click being answered, and
waits for one no longer than the round's deadline."""

from __future__ import annotations

import asyncio
import time

from bot.publishing.gate import ClickGate


async def test_with_no_click_being_answered_an_update_goes_on_at_once():
    gate = ClickGate()
    started = time.monotonic()
    await gate.quiet(started + 5.0)
    assert time.monotonic() - started < 0.5


async def test_an_update_waits_until_the_clicks_being_answered_are_answered():
    gate = ClickGate()
    answered = asyncio.Event()

    async def click() -> None:
        with gate.answering():
            await answered.wait()

    clicks = [asyncio.create_task(click()) for _ in range(2)]
    await asyncio.sleep(0)
    update = asyncio.create_task(gate.quiet(time.monotonic() + 5.0))
    await asyncio.sleep(0.05)
    assert not update.done()
    answered.set()
    await asyncio.gather(*clicks)
    await asyncio.wait_for(update, 1.0)


async def test_an_update_waits_no_longer_than_its_deadline():
    gate = ClickGate()
    with gate.answering():  # clicks that go on and on
        started = time.monotonic()
        await gate.quiet(started + 0.05)
        assert 0.04 <= time.monotonic() - started < 1.0


async def test_a_click_answered_early_lets_the_updates_go_on():
    """A click deferred first (a claim waiting for a worker) is answered: updates stop
    waiting for it, while another click still being answered holds them."""
    gate = ClickGate()
    finish = asyncio.Event()

    async def deferred_click() -> None:
        with gate.answering():
            gate.answered()
            gate.answered()  # once is enough; twice changes nothing
            await finish.wait()

    click = asyncio.create_task(deferred_click())
    await asyncio.sleep(0)
    started = time.monotonic()
    await gate.quiet(started + 5.0)
    assert time.monotonic() - started < 0.5
    with gate.answering():  # another click, not answered yet
        update = asyncio.create_task(gate.quiet(time.monotonic() + 5.0))
        await asyncio.sleep(0.05)
        assert not update.done()
    await asyncio.wait_for(update, 1.0)
    finish.set()
    await click
    await asyncio.wait_for(gate.quiet(time.monotonic() + 5.0), 1.0)
