"""The table service without Discord: lobby rules, turn flow, bots, timers, leaving and
coming back, abandoning, stale and double clicks, restart, and failed writes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

import pytest

from bot.games import Event
from bot.store import Shards, Store
from bot.tables import (
    ABANDONED,
    FINISHED,
    PLAYING,
    Person,
    StaleAction,
    Table,
    TableError,
    TableService,
    TableSettings,
)

ALICE = Person(1, "Alice")
BOB = Person(2, "Bob")
CAROL = Person(3, "Carol")
DAVE = Person(4, "Dave")
EVE = Person(5, "Eve")


class Recorder:
    def __init__(self) -> None:
        self.changes: list[tuple[int, list[Event]]] = []
        self.closed: list[int] = []

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        self.changes.append((table.id, list(events)))

    def table_closed(self, table: Table) -> None:
        self.closed.append(table.id)


@pytest.fixture
async def store(database) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


@pytest.fixture
async def service(store) -> AsyncIterator[TableService]:
    svc = TableService(store, bot_delay=0, observer=Recorder(), seed_source=lambda: 42)
    yield svc
    await svc.shutdown()


async def settle(svc: TableService, table: Table, timeout: float = 10.0) -> None:
    """Let computer players act until a person must (the store writes in a thread)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if table.driver is None or table.driver.done():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("computer players did not settle")


async def bidfair_against_a_bot(svc: TableService,
                                options: dict[str, object] | None = None) -> Table:
    """Alice's Bid Fair table in channel 100, against a computer player, started."""
    table = await svc.lobby.create("bidfair", options or {}, guild_id=9, channel_id=100,
                                   creator=ALICE)
    await svc.lobby.add_bot(table.id, ALICE.user_id)
    await svc.lobby.start(table.id, ALICE.user_id)
    return table


async def person_turns(svc: TableService, table: Table, user: Person) -> None:
    """Play the person's legal actions (first legal each time) until the match ends."""
    for _ in range(5000):
        await settle(svc, table)
        if table.closed:
            return
        seat = table.seat_of(user.user_id)
        assert seat is not None
        legal = table.game.legal(seat)
        assert legal, "the computer players stopped while the person was not to act"
        await svc.act(table.id, user.user_id, seat, table.decisions[seat], legal[0])
    raise AssertionError("the match did not end")


async def test_creator_takes_the_first_seat_and_a_channel_holds_one_table(service):
    table = await service.lobby.create("bidfair", {}, guild_id=9, channel_id=100, creator=ALICE)
    assert table.seats[0] is not None and table.seats[0].user_id == ALICE.user_id
    with pytest.raises(TableError, match="already open in this channel"):
        await service.lobby.create("spades", {}, guild_id=9, channel_id=100, creator=BOB)
    other = await service.lobby.create("spades", {}, guild_id=9, channel_id=101, creator=BOB)
    assert other.id != table.id


async def test_bad_options_are_refused_and_nothing_is_created(service, store):
    with pytest.raises(TableError, match="target"):
        await service.lobby.create("spades", {"target": 5}, guild_id=9, channel_id=100,
                             creator=ALICE)
    assert service.in_channel(100) is None
    assert await store.unfinished_matches() == []


async def test_lobby_join_rules(service):
    table = await service.lobby.create("spades", {}, guild_id=9, channel_id=100, creator=ALICE)
    assert await service.lobby.join(table.id, BOB) == 1
    with pytest.raises(TableError, match="already sit"):
        await service.lobby.join(table.id, BOB)
    with pytest.raises(TableError, match="taken by Bob"):
        await service.lobby.join(table.id, CAROL, seat=1)
    with pytest.raises(TableError, match="no such seat"):
        await service.lobby.join(table.id, CAROL, seat=7)
    assert await service.lobby.join(table.id, CAROL, seat=3) == 3
    assert await service.lobby.add_bot(table.id, ALICE.user_id) == 2
    # A newcomer may take a computer player's seat in the lobby, never a person's.
    assert await service.lobby.join(table.id, DAVE) == 2
    assert table.seats[2] is not None and table.seats[2].user_id == DAVE.user_id
    with pytest.raises(TableError, match="full"):
        await service.lobby.join(table.id, EVE)


async def test_start_needs_every_seat_and_a_member(service):
    table = await service.lobby.create("bidfair", {}, guild_id=9, channel_id=100, creator=ALICE)
    with pytest.raises(TableError, match="Every seat must be filled"):
        await service.lobby.start(table.id, ALICE.user_id)
    with pytest.raises(TableError, match="Only people sitting"):
        await service.lobby.add_bot(table.id, BOB.user_id)
    await service.lobby.add_bot(table.id, ALICE.user_id)
    with pytest.raises(TableError, match="Only people sitting"):
        await service.lobby.start(table.id, BOB.user_id)
    await service.lobby.start(table.id, ALICE.user_id)
    assert table.status == PLAYING
    with pytest.raises(TableError, match="already started"):
        await service.lobby.start(table.id, ALICE.user_id)


async def test_bots_act_until_a_person_must(service):
    table = await service.lobby.create("spades", {}, guild_id=9, channel_id=100, creator=ALICE)
    for _ in range(3):
        await service.lobby.add_bot(table.id, ALICE.user_id)
    await service.lobby.start(table.id, ALICE.user_id)
    await settle(service, table)
    assert table.game.legal(0), "after the bots, it is Alice's turn"
    assert all(s == 0 for s in table.game.to_act())


async def test_a_whole_match_is_stored_with_its_result(service, store):
    table = await bidfair_against_a_bot(service)
    await person_turns(service, table, ALICE)
    assert table.status == FINISHED
    row = await store.get_match(table.id)
    assert row is not None and row.status == FINISHED
    stored = await store.get_result(table.id)
    assert stored is not None and len(stored.players) == 2
    assert [a.action for a in await store.actions(table.id)] == [
        a for _, a in table.game.history]
    assert await store.deals(table.id), "each deal's result is recorded"
    assert service.in_channel(100) is None, "the channel is free again"
    with pytest.raises(StaleAction):
        await service.act(table.id, ALICE.user_id, 0, table.decisions[0], "pass")


async def test_refusals_change_nothing(service):
    table = await bidfair_against_a_bot(service)
    await settle(service, table)
    before = list(table.game.history)
    legal = table.game.legal(0)
    with pytest.raises(TableError, match="not playing at this table"):
        await service.act(table.id, BOB.user_id, 0, table.decisions[0], legal[0])
    with pytest.raises(TableError, match="not your seat"):
        await service.act(table.id, ALICE.user_id, 1, table.decisions[1], legal[0])
    with pytest.raises(StaleAction, match="moved on"):
        await service.act(table.id, ALICE.user_id, 0, table.decisions[0] + 5, legal[0])
    with pytest.raises(TableError):
        await service.act(table.id, ALICE.user_id, 0, table.decisions[0], "play:2C")
    with pytest.raises(TableError, match="no such seat"):
        await service.act(table.id, ALICE.user_id, 9, 0, legal[0])
    assert table.game.history == before


async def test_two_clicks_at_once_apply_once(service):
    table = await service.lobby.create("spades", {}, guild_id=9, channel_id=100, creator=ALICE)
    for _ in range(3):
        await service.lobby.add_bot(table.id, ALICE.user_id)
    await service.lobby.start(table.id, ALICE.user_id)
    await settle(service, table)
    decision = table.decisions[0]
    action = table.game.legal(0)[0]
    outcomes = await asyncio.gather(
        service.act(table.id, ALICE.user_id, 0, decision, action),
        service.act(table.id, ALICE.user_id, 0, decision, action),
        return_exceptions=True)
    assert sum(1 for o in outcomes if isinstance(o, list)) == 1
    assert sum(1 for o in outcomes if isinstance(o, StaleAction)) == 1
    assert table.decisions[0] == decision + 1


async def test_leaving_mid_match_hands_the_seat_to_a_bot_and_it_can_be_taken_back(service):
    table = await service.lobby.create("bidfair", {}, guild_id=9, channel_id=100, creator=ALICE)
    await service.lobby.join(table.id, BOB)
    await service.lobby.start(table.id, ALICE.user_id)
    message = await service.lobby.leave(table.id, BOB.user_id)
    assert "computer player" in message
    assert table.seats[1] is not None and table.seats[1].is_bot
    with pytest.raises(TableError, match="seats are taken"):
        await service.lobby.join(table.id, CAROL)
    await settle(service, table)
    assert await service.lobby.join(table.id, BOB) == 1
    assert table.seats[1] is not None and table.seats[1].user_id == BOB.user_id


async def test_abandon_needs_creator_manager_or_majority(service):
    table = await service.lobby.create("spades", {}, guild_id=9, channel_id=100, creator=ALICE)
    await service.lobby.join(table.id, BOB)
    await service.lobby.join(table.id, CAROL)
    await service.lobby.add_bot(table.id, ALICE.user_id)
    await service.lobby.start(table.id, ALICE.user_id)
    with pytest.raises(TableError, match="Only the table's creator"):
        await service.lobby.abandon(table.id, DAVE.user_id)
    assert "1 of 2" in await service.lobby.abandon(table.id, BOB.user_id)
    assert table.status == PLAYING
    assert "majority" in await service.lobby.abandon(table.id, CAROL.user_id)
    assert table.status == ABANDONED


async def test_manage_messages_can_abandon(service, store):
    table = await service.lobby.create("tennis", {}, guild_id=9, channel_id=100, creator=ALICE)
    await service.lobby.join(table.id, BOB)
    await service.lobby.start(table.id, ALICE.user_id)
    await service.lobby.abandon(table.id, DAVE.user_id, can_manage=True)
    row = await store.get_match(table.id)
    assert row is not None and row.status == ABANDONED


async def test_turn_timer_lets_the_bot_play_for_an_absent_person(service, store):
    table = await service.lobby.create("tennis", {}, guild_id=9, channel_id=100, creator=ALICE,
                                 settings=TableSettings(turn_timeout=0.05))
    await service.lobby.add_bot(table.id, ALICE.user_id)
    await service.lobby.start(table.id, ALICE.user_id)
    await settle(service, table)
    assert 0 in table.game.to_act()
    before = table.decisions[0]
    # The decision number moves when the action is applied, before its write commits; the
    # "time ran out" line is added once it has, so that is what to wait for. The computer
    # player thinks on a CPU budget, so on a busy machine this can take seconds: wait by
    # the clock, generously, as `settle` does.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30.0
    while loop.time() < deadline:
        await asyncio.sleep(0.01)
        if any("time ran out" in line for line in table.recent):
            break
    assert table.decisions[0] > before
    assert any("time ran out" in line for line in table.recent)
    actors = {a.actor for a in await store.actions(table.id) if a.seat == 0}
    assert actors == {"timer"}


async def test_restart_rebuilds_unfinished_tables_from_the_log(store, database):
    first = TableService(store, bot_delay=0, seed_source=lambda: 7)
    table = await first.lobby.create("spades", {}, guild_id=9, channel_id=100, creator=ALICE)
    for _ in range(3):
        await first.lobby.add_bot(table.id, ALICE.user_id)
    await first.lobby.start(table.id, ALICE.user_id)
    await settle(first, table)
    await first.act(table.id, ALICE.user_id, 0, table.decisions[0], table.game.legal(0)[0])
    await settle(first, table)
    history = list(table.game.history)
    await first.shutdown()
    await store.close()

    reopened = await Store.open(database)
    try:
        second = TableService(reopened, bot_delay=0)
        restored = await second.restore()
        assert [t.id for t in restored] == [table.id]
        again = restored[0]
        assert again.game.history == history
        assert again.decisions == table.decisions
        assert again.seats[0] is not None and again.seats[0].user_id == ALICE.user_id
        assert second.in_channel(100) is again
        await settle(second, again)
        await second.act(again.id, ALICE.user_id, 0, again.decisions[0],
                         again.game.legal(0)[0])
        await second.shutdown()
    finally:
        await reopened.close()


async def test_a_match_over_in_its_log_but_not_in_the_store_is_finished_at_restart(
        store, database, monkeypatch):
    """The process died between the match's last action's write and the match's end (the
    chaos test's SIGKILL found it): the restart writes the end, not a table waiting for a
    move that will never come."""
    first = TableService(store, bot_delay=0, seed_source=lambda: 7)
    table = await bidfair_against_a_bot(first, {"target": 100})

    async def killed(*args, **kwargs):
        raise ConnectionError("the process died here")

    monkeypatch.setattr(store, "finish_match", killed)
    for _ in range(5000):  # the last action is written, the end is not
        await settle(first, table)
        if table.game.finished:
            break
        with contextlib.suppress(ConnectionError):  # the person's move ended it
            await first.act(table.id, ALICE.user_id, 0, table.decisions[0],
                            table.game.legal(0)[0])
    history = list(table.game.history)
    assert table.game.finished and await store.get_result(table.id) is None
    await first.shutdown()
    monkeypatch.undo()
    await store.close()

    reopened = await Store.open(database)
    try:
        observer = Recorder()
        second = TableService(reopened, bot_delay=0, observer=observer)
        assert await second.restore() == []
        assert second.in_channel(100) is None
        assert observer.closed == [table.id]  # the end is posted
        assert await reopened.get_result(table.id) is not None
        assert [(a.seat, a.action) for a in await reopened.actions(table.id)] == history
        deals = await reopened.deals(table.id)
        assert [d.deal_no for d in deals] == list(range(1, len(deals) + 1))
        assert len(deals) == table.game.deal_no  # the last deal's result too
        await second.shutdown()
    finally:
        await reopened.close()


async def test_a_failed_write_leaves_the_table_unchanged(service, store, monkeypatch):
    table = await bidfair_against_a_bot(service)
    await settle(service, table)
    before = list(table.game.history)

    async def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store, "append_action", broken)
    with pytest.raises(TableError, match="could not be saved"):
        await service.act(table.id, ALICE.user_id, 0, table.decisions[0],
                          table.game.legal(0)[0])
    assert table.game.history == before
    assert table.decisions[0] == sum(1 for s, _ in before if s == 0)


async def test_a_click_s_answer_is_built_as_its_move_left_the_table_before_anything_else(
        service, store, monkeypatch):
    """act_and_show builds the answer under the move's own hold of the table's lock:
    whatever queued for the lock during the write (a computer player's move, a redraw)
    comes after it, and the answer shows the stored move and the seat's next decision."""
    table = await bidfair_against_a_bot(service)
    await settle(service, table)
    decision, move = table.decisions[0], table.game.legal(0)[0]
    order: list[str] = []
    writing, written = asyncio.Event(), asyncio.Event()
    append = store.append_action

    async def slow(*args, **kwargs):
        writing.set()
        await written.wait()
        await append(*args, **kwargs)

    async def queued_for_the_lock() -> None:
        await writing.wait()
        async with table.lock:
            order.append("next holder")

    def show(acted):
        order.append("answer")
        return acted.decisions[0], acted.game.history[-1]

    monkeypatch.setattr(store, "append_action", slow)
    other = asyncio.create_task(queued_for_the_lock())
    clicked = asyncio.create_task(service.act_and_show(
        table.id, ALICE.user_id, 0, decision, move, show))
    await writing.wait()
    await asyncio.sleep(0.01)  # the other task is now queued for the lock
    written.set()
    shown = await clicked
    await other
    assert order == ["answer", "next holder"]
    assert shown == (decision + 1, (0, move))
    assert [a.action for a in await store.actions(table.id)][-1] == move


async def test_a_failed_write_shows_nothing_and_leaves_the_table_unchanged(
        service, store, monkeypatch):
    table = await bidfair_against_a_bot(service)
    await settle(service, table)
    before, decisions = list(table.game.history), list(table.decisions)
    logged = [a.action for a in await store.actions(table.id)]
    shown: list[object] = []

    async def broken(*args, **kwargs):
        raise OSError("connection lost")

    monkeypatch.setattr(store, "append_action", broken)
    with pytest.raises(TableError, match="could not be saved"):
        await service.act_and_show(table.id, ALICE.user_id, 0, table.decisions[0],
                                   table.game.legal(0)[0], shown.append)
    assert shown == []
    assert table.game.history == before and table.decisions == decisions
    assert [a.action for a in await store.actions(table.id)] == logged
    monkeypatch.undo()  # the same click again, now stored: nothing was lost or doubled
    shown_now = await service.act_and_show(table.id, ALICE.user_id, 0, table.decisions[0],
                                           table.game.legal(0)[0], lambda t: len(t.game.history))
    assert shown_now == len(before) + 1
    assert len(await store.actions(table.id)) == len(logged) + 1


@pytest.mark.parametrize("commits", [True, False], ids=["committed", "refused"])
async def test_a_click_s_answer_is_built_while_its_write_is_on_its_way(
        service, store, monkeypatch, commits):
    """The write is sent first and the answer built while it travels; the answer is
    returned only once the write has committed, and dropped if the database refuses it
    after the statement went out (the table is then rebuilt from the log)."""
    table = await bidfair_against_a_bot(service)
    await settle(service, table)
    before, decisions = list(table.game.history), list(table.decisions)
    logged = [a.action for a in await store.actions(table.id)]
    decision, move = table.decisions[0], table.game.legal(0)[0]
    sent, answer_back = asyncio.Event(), asyncio.Event()
    built: list[tuple[int, bool]] = []
    append = store.append_action

    async def on_its_way(*args, **kwargs):
        sent.set()
        await answer_back.wait()
        if not commits:
            raise OSError("the server refused the statement")
        await append(*args, **kwargs)

    def show(acted):
        built.append((acted.decisions[0], answer_back.is_set()))
        return "the answer"

    monkeypatch.setattr(store, "append_action", on_its_way)
    clicked = asyncio.create_task(service.act_and_show(
        table.id, ALICE.user_id, 0, decision, move, show))
    await sent.wait()
    await asyncio.sleep(0.01)
    assert built == [(decision + 1, False)]  # built before the write's answer came back
    assert not clicked.done()
    answer_back.set()
    if commits:
        assert await clicked == "the answer"
        assert [a.action for a in await store.actions(table.id)] == [*logged, move]
    else:
        with pytest.raises(TableError, match="could not be saved"):
            await clicked
        assert table.game.history == before and table.decisions == decisions
        assert [a.action for a in await store.actions(table.id)] == logged
    assert len(built) == 1


async def test_a_shard_process_restores_only_its_servers_tables(store):
    """Two processes on one database, shards 0 and 1 of 2: each restores exactly the tables
    of the servers on its shard."""
    first = TableService(store, bot_delay=0)
    guilds = [n << 22 for n in range(6)]  # shard n % 2
    made = {}
    for index, guild in enumerate(guilds):
        table = await first.lobby.create("tennis", {}, guild_id=guild,
                                         channel_id=200 + index, creator=ALICE)
        made[guild] = table.id
    await first.shutdown()
    for shard in (0, 1):
        service = TableService(store, bot_delay=0, shards=Shards(2, (shard,)))
        restored = await service.restore()
        expected = {made[g] for g in guilds if (g >> 22) % 2 == shard}
        assert {t.id for t in restored} == expected and len(expected) == 3
        assert all(Shards(2, (shard,)).owns(t.guild_id) for t in restored)
        await service.shutdown()
