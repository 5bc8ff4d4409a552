"""The turn flow tells a computer player that shares conventions with its own kind which
seats hold computer players of that kind (`bot.ai.SeatedWith`): the count signals of
`bridge-advanced` are read only from them, never from people or other kinds, nor from a
seat a person played from earlier in the deal (`Table.people_played`), across a restart
too."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence

import pytest

from bot.ai import SeatedWith
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.store import Store
from bot.tables import Person, Table, TableService, TableSettings
from tests.tables.helpers import play_until, settle

ALICE = Person(1, "Alice")
BOB = Person(2, "Bob")
KIND = "bridge-advanced"  # the default kind: a person's seat is handed to it


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    svc = TableService(store, bot_delay=0, seed_source=lambda: 42, think_seconds=0.05)
    yield svc
    await svc.shutdown()


async def test_a_robot_learns_the_seats_of_robots_of_its_kind(service):
    table = await service.lobby.create("bridge", {}, guild_id=9, channel_id=100,
                                       creator=ALICE)
    await service.lobby.join(table.id, ALICE, 2)
    for seat, kind in ((0, "bridge-advanced"), (1, "bridge-advanced"), (3, "bridge-basic")):
        await service.lobby.add_bot(table.id, ALICE.user_id, seat, kind=kind)
    await service.lobby.start(table.id, ALICE.user_id)
    # Every seat has called once: each robot has decided.
    await play_until(service, table, ALICE.user_id,
                     lambda: len(table.game.deal_record().calls) >= 4)
    for seat in (0, 1):
        player = service.turns.player(table, seat)
        assert isinstance(player, AdvancedBridgePlayer)
        assert player.count_givers == frozenset({0, 1})  # not Alice's, not the basic one's
    assert not isinstance(service.turns.player(table, 3), SeatedWith)


async def _people_play(service: TableService, table: Table, people: Sequence[Person],
                       done: Callable[[], bool]) -> None:
    """Each person plays their first legal action whenever they are to act (for their
    computer declarer too), the computer players in between, until done()."""
    for _ in range(5000):
        await settle(table)
        if done() or table.closed:
            return
        for person in people:
            own = table.seat_of(person.user_id)
            seat = table.acting_seat(own) if own is not None else None
            if seat is not None and (legal := table.game.legal(seat)):
                await service.act(table.id, person.user_id, seat, table.decisions[seat],
                                  legal[0])
                break
        else:
            raise AssertionError("the computer players stopped while no person was to act")
    raise AssertionError("not done")


async def _alice_plays_a_card_and_leaves(service: TableService) -> Table:
    """Alice (South) and Bob (East) with two robots; Alice plays a card of her own seat,
    then leaves mid-deal and a robot takes South over."""
    table = await service.lobby.create("bridge", {}, guild_id=9, channel_id=100,
                                       creator=ALICE)
    await service.lobby.join(table.id, ALICE, 2)
    await service.lobby.join(table.id, BOB, 1)
    for seat in (0, 3):
        await service.lobby.add_bot(table.id, ALICE.user_id, seat, kind=KIND)
    await service.lobby.start(table.id, ALICE.user_id)
    # Until South has a card to play (not when her robot partner declares: she is dummy).
    await _people_play(service, table, (ALICE, BOB),
                       lambda: table.game.phase == "play" and bool(table.game.legal(2)))
    card = next(a for a in table.game.legal(2) if a.startswith("play:"))
    await service.act(table.id, ALICE.user_id, 2, table.decisions[2], card)
    assert 2 in table.people_played
    await service.lobby.leave(table.id, ALICE.user_id)
    seat = table.seats[2]
    assert seat is not None and seat.is_bot and seat.bot_kind == KIND
    return table


async def test_a_seat_a_person_played_from_is_no_robot_s_until_the_deal_ends(service):
    """The robot that takes Alice's seat mid-deal did not choose her cards: they are not
    read as its signals for the rest of the deal; from the next deal on they are."""
    table = await _alice_plays_a_card_and_leaves(service)
    deal = table.game.deal_no
    assert 2 not in service.turns._same_kind(table, KIND)
    await settle(table)  # the robots play on, South's among them, until Bob must act
    assert table.game.deal_no == deal
    assert 2 not in service.turns._same_kind(table, KIND)
    await _people_play(service, table, (BOB,), lambda: table.game.deal_no > deal)
    assert table.game.deal_no > deal
    assert 2 not in table.people_played and 2 in service.turns._same_kind(table, KIND)


async def test_the_seats_people_played_from_survive_a_restart(store, database):
    first = TableService(store, bot_delay=0, seed_source=lambda: 42, think_seconds=0.05)
    table = await _alice_plays_a_card_and_leaves(first)
    await settle(table)
    played = set(table.people_played)
    assert 2 in played
    table.people_played.clear()
    await first._reload(table)  # as after a failed write: rebuilt from the store's log
    assert table.people_played == played
    await first.shutdown()
    await store.close()

    reopened = await Store.open(database)
    try:
        second = TableService(reopened, bot_delay=0, think_seconds=0.05)
        [again] = await second.restore()
        assert again.game.history == table.game.history
        assert again.people_played == played
        assert second.turns._same_kind(again, KIND) == first.turns._same_kind(table, KIND)
        assert 2 not in second.turns._same_kind(again, KIND)
        await second.shutdown()
    finally:
        await reopened.close()


async def test_a_turn_timer_s_action_is_a_robot_s(service, store):
    """The timer moves with the default robot: its cards are that robot's signals."""
    table = await service.lobby.create("bridge", {}, guild_id=9, channel_id=100,
                                       creator=ALICE,
                                       settings=TableSettings(turn_timeout=0.05))
    await service.lobby.join(table.id, ALICE, 2)
    for seat in (0, 1, 3):
        await service.lobby.add_bot(table.id, ALICE.user_id, seat, kind=KIND)
    await service.lobby.start(table.id, ALICE.user_id)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30.0  # the robots think on a CPU budget: wait generously
    while table.decisions[2] == 0 and loop.time() < deadline:
        await asyncio.sleep(0.01)
    async with table.lock:  # the timer's action has been written (not only applied)
        assert {a.actor for a in await store.actions(table.id) if a.seat == 2} == {"timer"}
        assert table.people_played == set()
    await service.lobby.leave(table.id, ALICE.user_id)
    assert 2 in service.turns._same_kind(table, KIND)
