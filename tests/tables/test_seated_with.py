"""The turn flow tells a computer player that shares conventions with its own kind which
seats hold computer players of that kind (`bot.ai.SeatedWith`): the count signals of
`bridge-advanced` are read only from them, never from people or other kinds."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.ai import SeatedWith
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.store import Store
from bot.tables import Person, TableService
from tests.tables.helpers import play_until

ALICE = Person(1, "Alice")


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
