"""Watching a person's turn: a reminder after `ping_after`, slow play's timer that acts
only when the turn's hours run out, and deadlines counted from the stored moment the turn
began, so a restart does not give anyone more (or less) time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from bot.tables import Clock, Person, Table, TableService, TableSettings
from tests.tables.helpers import settle

ALICE = Person(1, "Alice")
HOUR = 3600.0


class Notes:
    """A TurnNotifier that writes down what it is told."""

    def __init__(self) -> None:
        self.reminded: list[tuple[int, int, int]] = []
        self.moved: list[int] = []

    def remind(self, table: Table, seat: int, decision: int) -> None:
        self.reminded.append((table.id, seat, decision))

    def moved_on(self, table: Table) -> None:
        self.moved.append(table.id)


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


@pytest.fixture
async def watched(store: Store) -> AsyncIterator[tuple[TableService, Notes, Clock]]:
    """A service on its own clock, with a notifier that writes down what it is told."""
    clock = Clock()
    svc, notes = service_on(store, clock)
    yield svc, notes, clock
    await svc.shutdown()


def service_on(store: Store, clock: Clock) -> tuple[TableService, Notes]:
    svc = TableService(store, bot_delay=0, seed_source=lambda: 5, clock=clock)
    notes = Notes()
    svc.turns.notifier = notes
    return svc, notes


async def tennis_against_a_bot(svc: TableService, settings: TableSettings) -> Table:
    table = await svc.lobby.create("tennis", {}, guild_id=9, channel_id=100, creator=ALICE,
                                   settings=settings)
    await svc.lobby.add_bot(table.id, ALICE.user_id)
    await svc.lobby.start(table.id, ALICE.user_id)
    await settle(table)
    await _alice_to_act(table)
    return table


async def _alice_to_act(table: Table) -> None:
    for _ in range(1000):
        if 0 in table.game.to_act() and (table.driver is None or table.driver.done()):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("Alice never came to act")


async def later(clock: Clock, seconds: float) -> None:
    """Move the clock and let the woken watches run."""
    clock.advance(seconds)
    for _ in range(20):
        await asyncio.sleep(0.005)


async def timer_moved(table: Table, decision: int) -> None:
    """Wait for Alice's seat to move past `decision` and the timer's action to be stored
    (the timer's computer player thinks in a worker thread; the decision number moves
    before the write commits, the "time ran out" line after)."""
    for _ in range(300):
        if table.decisions[0] > decision and any("time ran out" in line
                                                   for line in table.recent):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the turn timer did not act")


async def test_a_person_kept_waiting_is_reminded_once_and_it_is_taken_back(watched):
    svc, notes, clock = watched
    table = await tennis_against_a_bot(svc, TableSettings(ping_after=120))
    decision = table.decisions[0]
    await later(clock, 100)
    assert notes.reminded == [], "not before ping_after"
    await later(clock, 30)
    assert notes.reminded == [(table.id, 0, decision)]
    await later(clock, 600)
    assert len(notes.reminded) == 1, "one reminder per turn"
    moved = len(notes.moved)
    await svc.act(table.id, ALICE.user_id, 0, decision, table.game.legal(0)[0])
    assert len(notes.moved) > moved, "an action tells the notifier to take pings back"
    assert table.status == "playing"


async def test_a_turn_that_moved_on_is_not_reminded(watched):
    svc, notes, clock = watched
    table = await tennis_against_a_bot(svc, TableSettings(ping_after=120))
    await later(clock, 60)
    await svc.act(table.id, ALICE.user_id, 0, table.decisions[0], table.game.legal(0)[0])
    await settle(table)
    await later(clock, 70)  # 130 s after the first turn began, 70 s into any new one
    assert notes.reminded == []


async def test_slow_play_reminds_at_half_time_and_the_computer_moves_at_the_end(
        watched, store):
    svc, notes, clock = watched
    table = await tennis_against_a_bot(svc, TableSettings.slow(hours=24))
    decision = table.decisions[0]
    await later(clock, 11 * HOUR)
    assert notes.reminded == []
    await later(clock, 1.5 * HOUR)
    assert notes.reminded == [(table.id, 0, decision)], "a reminder at half time"
    await later(clock, 11 * HOUR)
    assert table.decisions[0] == decision, "a person has the whole 24 hours"
    await later(clock, HOUR)
    await timer_moved(table, decision)
    actors = {a.actor for a in await store.actions(table.id) if a.seat == 0}
    assert actors == {"timer"}


async def test_a_restart_counts_the_turn_from_when_it_began(store, database):
    clock = Clock()
    svc, _ = service_on(store, clock)
    table = await tennis_against_a_bot(svc, TableSettings.slow(hours=24))
    decision, began = table.decisions[0], table.since
    await svc.shutdown()
    await later(clock, 20 * HOUR)  # the bot is down for 20 hours of the turn

    reopened = await Store.open(database)
    again_clock = Clock()
    again_clock.offset = clock.offset
    svc2, notes = service_on(reopened, again_clock)
    try:
        [again] = await svc2.restore()
        assert again.since == pytest.approx(began, abs=0.01), "the stored start of the turn"
        await later(again_clock, 0)
        assert notes.reminded == [(again.id, 0, decision)], "half time passed while down"
        assert again.decisions[0] == decision
        await later(again_clock, 4.1 * HOUR)  # 24 h since the turn began, not 44
        await timer_moved(again, decision)
    finally:
        await svc2.shutdown()
        await reopened.close()


def test_slow_settings_are_stored_and_read_back():
    slow = TableSettings.slow(hours=48, thread=True)
    assert slow.turn_timeout == 48 * HOUR and slow.ping_after == 24 * HOUR and slow.slow_pace
    assert TableSettings.from_dict(slow.to_dict()) == slow
    old = TableSettings.from_dict({"turn_timeout": 60, "thread": False})
    assert old.pace == "normal" and old.ping_after == 120
    odd = TableSettings.from_dict({"pace": "warp", "ping_after": "soon"})
    assert odd.pace == "normal" and odd.ping_after == 120
