"""Human declares: when a person's computer partner wins the contract, the person plays the
hand (declarer's cards and their own as dummy); the auction and the score stay as bid."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.games import InvalidOptions, create
from bot.games.cards import Card, Seat, parse_deal
from bot.publishing import table_message
from bot.store import Store
from bot.tables import Person, Table, TableError, TableService
from tests.tables.helpers import settle

ALICE = Person(1, "Alice")
SOUTH, NORTH = int(Seat.SOUTH), int(Seat.NORTH)
# North holds a powerhouse, East and West nothing: North (a computer player) opens and
# declares; South (a person) only passes in the auction.
DEAL = ("N:AKQJT98.AKQ.AK.A 76.8765.8765.876 2.JT9.QJT9.KQJT9 543.432.432.5432")


def stacked_pack() -> list[Card]:
    """DEAL as a pack the engine deals in blocks of 13: North, East, South, West."""
    hands = parse_deal(DEAL)
    return [card for seat in Seat for card in hands[seat]]  # blocks N, E, S, W


@pytest.fixture
async def service(database) -> AsyncIterator[TableService]:
    store = await Store.open(database)
    svc = TableService(store, bot_delay=0, seed_source=lambda: 42)
    yield svc
    await svc.shutdown()
    await store.close()


async def _started(service: TableService, human_declares: bool = True) -> Table:
    """Alice at South, computer players elsewhere, the first deal stacked as DEAL."""
    table = await service.lobby.create("bridge", {"human_declares": human_declares},
                                       guild_id=9, channel_id=100, creator=ALICE)
    await service.lobby.join(table.id, ALICE, SOUTH)
    for seat in (0, 1, 3):
        await service.lobby.add_bot(table.id, ALICE.user_id, seat, kind="bridge-basic")
    # Nobody calls until the first deal is replaced by this one.
    service.turns.bot_delay = 3600
    await service.lobby.start(table.id, ALICE.user_id)
    assert not table.game.history
    table.game.stack_deck(stacked_pack())
    service.turns.stop(table)
    service.turns.bot_delay = 0
    service.turns.kick(table)
    return table


async def _north_declaring(service: TableService) -> Table:
    """The table after the first deal's auction (Alice passing), North declaring."""
    table = await _started(service)
    while table.game.contract is None:
        await settle(table)
        if table.game.contract is None:
            assert table.game.to_act() == {SOUTH}
            await service.act(table.id, ALICE.user_id, SOUTH, table.decisions[SOUTH], "pass")
    assert table.game.declarer == NORTH
    return table


async def test_human_declares_south_plays_both_hands_and_north_stays_declarer(service):
    table = await _north_declaring(service)
    assert table.human_declaring() == (NORTH, SOUTH)
    assert table.acting_seat(SOUTH) == NORTH and table.decider(NORTH) == SOUTH
    await settle(table)
    # The public table pings Alice when North's cards wait for her.
    assert table.game.to_act() == {NORTH}
    assert f"<@{ALICE.user_id}>" in (table_message(table).content or "")
    deal_no = table.game.deal_no
    played_by_alice = 0
    while table.game.deal_no == deal_no:
        await settle(table)
        if table.game.deal_no != deal_no:
            break
        # The computer players stop whenever North's or South's cards are to be played:
        # Alice decides for North, who plays both hands.
        assert table.game.to_act() == {NORTH}
        assert table.waiting_on() == [NORTH]
        legal = table.game.legal(NORTH)
        await service.act(table.id, ALICE.user_id, NORTH, table.decisions[NORTH], legal[0])
        played_by_alice += 1
    assert played_by_alice == 26
    actions = await service.store.actions(table.id)
    plays = [a for a in actions if a.action.startswith("play:") and a.seat == NORTH]
    assert len(plays) == 26 and {(a.actor, a.user_id) for a in plays} == {
        ("user", ALICE.user_id)}
    # The score sheet keeps the contract as bid: North declared.
    summary = table.game.previous
    assert summary is not None and summary.contract.declarer == NORTH
    assert "by North" in summary.lines[-1].note
    # The next deal's auction: Alice is South again, and nobody plays for North.
    assert table.human_declaring() is None and table.acting_seat(SOUTH) == SOUTH


async def test_human_declares_refuses_a_click_for_north_before_the_auction_ends(service):
    table = await service.lobby.create("bridge", {}, guild_id=9, channel_id=100, creator=ALICE)
    await service.lobby.join(table.id, ALICE, SOUTH)
    for seat in (0, 1, 3):
        await service.lobby.add_bot(table.id, ALICE.user_id, seat, kind="bridge-basic")
    await service.lobby.start(table.id, ALICE.user_id)
    await settle(table)
    with pytest.raises(TableError, match="not your seat"):
        await service.act(table.id, ALICE.user_id, NORTH, table.decisions[NORTH], "pass")


async def test_human_declares_off_the_computer_player_declares(service):
    table = await _started(service, human_declares=False)
    while table.game.deal_no == 1:
        await settle(table)
        if table.game.deal_no == 1:  # Alice calls; she is never asked to play
            assert table.game.contract is None and table.game.to_act() == {SOUTH}
            assert table.acting_seat(SOUTH) == SOUTH
            await service.act(table.id, ALICE.user_id, SOUTH, table.decisions[SOUTH], "pass")
    assert table.game.previous.contract.declarer == NORTH
    plays = [a for a in await service.store.actions(table.id)
             if a.action.startswith("play:") and a.seat == NORTH]
    assert len(plays) >= 26 and {a.actor for a in plays} == {"bot"}


def test_human_declares_is_a_bridge_option_on_by_default():
    assert create("bridge", {}, seed=1).options["human_declares"] is True
    assert create("bridge", {"human_declares": False}, seed=1).options["human_declares"] is False
    with pytest.raises(InvalidOptions):
        create("bridge", {"human_declares": "maybe"}, seed=1)
