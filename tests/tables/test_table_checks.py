"""The service owns every click's checks: seat, turn and staleness (`current`, used by
play and by opening a group of choices), and what became of a table that is not open
(`fetch`); the lobby's computer-player levels."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.ai import bot_name, level_label, player_kinds
from bot.store import Store
from bot.tables import Person, StaleAction, TableError, TableService

ALICE, BOB, CAROL = Person(1, "Alice"), Person(2, "Bob"), Person(3, "Carol")


@pytest.fixture
async def service(tmp_path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "t.db")
    svc = TableService(store, bot_delay=0, seed_source=lambda: 42)
    yield svc
    await svc.shutdown()
    await store.close()


async def _tennis(svc: TableService):
    table = await svc.lobby.create("tennis", {}, guild_id=9, channel_id=100, creator=ALICE)
    await svc.lobby.join(table.id, BOB)
    return table


async def test_a_click_is_current_only_for_its_own_seat_and_moment(service):
    table = await _tennis(service)
    with pytest.raises(TableError, match="not started"):
        service.current(table.id, ALICE.user_id, 0, 0)
    await service.lobby.start(table.id, ALICE.user_id)
    assert service.current(table.id, ALICE.user_id, 0, 0) is table
    with pytest.raises(TableError, match="not your seat"):
        service.current(table.id, ALICE.user_id, 1, 0)
    with pytest.raises(TableError, match="not playing at this table"):
        service.current(table.id, CAROL.user_id, 0, 0)
    with pytest.raises(TableError, match="no such seat"):
        service.current(table.id, ALICE.user_id, 7, 0)
    with pytest.raises(StaleAction, match="moved on"):
        service.current(table.id, ALICE.user_id, 0, 3)


async def test_a_forged_move_is_refused_in_the_tables_words(service):
    table = await _tennis(service)
    await service.lobby.start(table.id, ALICE.user_id)
    seat = next(iter(table.game.to_act()))
    user = table.seats[seat].user_id
    with pytest.raises(TableError, match="does not hold a move"):
        await service.act(table.id, user, seat, table.decisions[seat], "play:ZZ")
    assert table.game.history == []


async def test_fetch_says_what_became_of_a_table(service):
    table = await _tennis(service)
    assert await service.fetch(table.id) is table
    await service.lobby.abandon(table.id, ALICE.user_id)
    with pytest.raises(StaleAction, match="cancelled"):
        await service.fetch(table.id)
    with pytest.raises(StaleAction, match="There is no table #999"):
        await service.fetch(999)


async def test_add_bot_seats_the_default_kind_or_a_named_one(service):
    table = await service.lobby.create("spades", {}, guild_id=9, channel_id=100,
                                       creator=ALICE)
    seat = await service.lobby.add_bot(table.id, ALICE.user_id)
    info = table.seats[seat]
    default = player_kinds("spades")[0]  # the strongest kind
    assert info is not None and info.bot_kind == default and info.name == bot_name(default)
    with pytest.raises(TableError, match="no such computer player"):
        await service.lobby.add_bot(table.id, ALICE.user_id, kind="spades-cheater")
    assert table.free_seats() == [2, 3]


def test_a_kind_is_named_by_its_level():
    assert level_label("single-dummy-advanced") == "Advanced"
    assert bot_name("spades-basic") == "Basic bot"
