"""Claims and undo at a table: the double-dummy check before a claim is recorded, the
computer players' answers, the turn timer's rejection, and restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.ai.core.claims import tricks_for
from bot.games.requests import claim_text
from bot.store import Store
from bot.tables import (
    Clock,
    Person,
    StaleAction,
    Table,
    TableError,
    TableService,
    TableSettings,
)
from tests.tables.helpers import settle

ALICE = Person(1, "Alice")
BOB = Person(2, "Bob")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    svc = TableService(store, bot_delay=0, seed_source=lambda: 11)
    yield svc
    await svc.shutdown()


async def act(svc: TableService, table: Table, user: Person, action: str) -> None:
    seat = table.seat_of(user.user_id)
    assert seat is not None
    await svc.act(table.id, user.user_id, seat, table.decisions[seat], action)


async def alice_declares(svc: TableService, table: Table) -> None:
    """Single Dummy: Alice (South) wins the auction with 7NT, takes the revealed dummy and
    plays until it is her turn in the play."""
    game = table.game
    for _ in range(200):
        await settle(table)
        if game.phase == "play" and 0 in game.to_act():
            return
        legal = game.legal(0)
        assert legal, "the computer player stopped while Alice was not to act"
        choice = next((a for a in ("bid:7NT", "redouble", "dummy:revealed") if a in legal),
                      "pass" if "pass" in legal else legal[0])
        await act(svc, table, ALICE, choice)
    raise AssertionError("Alice never came to play")


async def single_dummy_with_a_bot(svc: TableService,
                                  settings: TableSettings | None = None) -> Table:
    table = await svc.lobby.create("single_dummy", {}, guild_id=9, channel_id=100,
                                   creator=ALICE, settings=settings or TableSettings())
    await svc.lobby.add_bot(table.id, ALICE.user_id)
    await svc.lobby.start(table.id, ALICE.user_id)
    await alice_declares(svc, table)
    return table


async def test_claim_that_holds_double_dummy_is_applied_at_once(service, store):
    table = await single_dummy_with_a_bot(service)
    deal = table.game.deal_no
    sure = tricks_for(table.game.claim_position(), 0)
    await act(service, table, ALICE, f"claim:{sure}")
    assert table.game.deal_no == deal + 1
    assert table.game.previous.tricks[0] == sure
    logged = [(a.seat, a.action, a.actor) for a in await store.actions(table.id)]
    assert (0, f"claim:{sure}:proven", "user") in logged
    # The deal is random: 0 or 13 sure tricks read "concedes" / "claims all of".
    assert table.game.previous.claim == (f"{claim_text('South', sure, 13)}: accepted "
                                         "(it holds against any defence).")


async def test_claim_that_does_not_hold_goes_to_the_computer_which_rejects(service, store):
    table = await single_dummy_with_a_bot(service)
    sure = tricks_for(table.game.claim_position(), 0)
    if sure == table.game.tricks_left():
        pytest.skip("this deal makes every trick double dummy")
    await act(service, table, ALICE, f"claim:{sure + 1}")
    await settle(table)
    logged = [(a.seat, a.action, a.actor) for a in await store.actions(table.id)]
    assert logged[-2:] == [(0, f"claim:{sure + 1}", "user"), (1, "reject", "bot")]
    assert table.game.request is None and table.game.phase == "play"
    assert any("rejected by West" in line for line in table.recent)


async def test_claim_refused_for_more_tricks_than_remain(service, store):
    table = await single_dummy_with_a_bot(service)
    logged = len(await store.actions(table.id))
    with pytest.raises(TableError, match="Only 13 tricks remain: you cannot claim 14"):
        await act(service, table, ALICE, "claim:14")
    with pytest.raises(TableError, match="does not hold a move"):
        await act(service, table, ALICE, "claim:3:proven")  # only the table proves
    assert len(await store.actions(table.id)) == logged


async def test_undo_of_a_card_mid_trick_the_computer_consents(service, store):
    table = await single_dummy_with_a_bot(service)
    game = table.game
    for _ in range(40):  # a moment when Alice's card is in an incomplete trick
        before = game.view(0)
        await act(service, table, ALICE, game.legal(0)[0])
        await settle(table)
        if game.trick and any(hand % 2 == 0 for hand, _ in game.trick):
            break
    await act(service, table, ALICE, "undo")
    await settle(table)
    logged = [(a.seat, a.action, a.actor) for a in await store.actions(table.id)]
    assert logged[-2:] == [(0, "undo", "user"), (1, "accept", "bot")]
    after = game.view(0)
    assert (after.hands, after.trick, after.turn) == (before.hands, before.trick, before.turn)
    assert game.request is None and 0 in game.to_act()


async def test_undo_refused_when_the_option_is_off(service):
    table = await service.lobby.create("single_dummy", {"undo": False}, guild_id=9,
                                       channel_id=100, creator=ALICE)
    await service.lobby.add_bot(table.id, ALICE.user_id)
    await service.lobby.start(table.id, ALICE.user_id)
    await alice_declares(service, table)
    with pytest.raises(TableError, match="Undo is off"):
        await act(service, table, ALICE, "undo")


async def test_claim_a_person_who_does_not_answer_in_time_rejects(store):
    clock = Clock()
    svc = TableService(store, bot_delay=0, seed_source=lambda: 11, clock=clock)
    try:
        table = await svc.lobby.create("single_dummy", {}, guild_id=9, channel_id=100,
                                       creator=ALICE,
                                       settings=TableSettings(turn_timeout=600))
        await svc.lobby.join(table.id, BOB)
        await svc.lobby.start(table.id, ALICE.user_id)
        game = table.game
        for _ in range(200):  # Alice bids 7NT and takes the revealed dummy; Bob passes
            if game.phase == "play" and 0 in game.to_act():
                break
            (seat,) = game.to_act()
            legal = game.legal(seat)
            choice = next((a for a in ("bid:7NT", "dummy:revealed") if a in legal and
                           seat == 0), "pass" if "pass" in legal else legal[0])
            await act(svc, table, ALICE if seat == 0 else BOB, choice)
        sure = tricks_for(game.claim_position(), 0)
        await act(svc, table, ALICE, f"claim:{min(sure + 1, 13)}")
        if game.request is None:
            pytest.skip("this deal makes every trick double dummy")
        clock.advance(601)
        # The request ends when the timer's reject is applied, before its write commits;
        # the "rejected by" line is added once it has, so that is what to wait for.
        for _ in range(400):
            await asyncio.sleep(0.005)
            if game.request is None and any("rejected by" in line for line in table.recent):
                break
        logged = [(a.seat, a.action, a.actor) for a in await store.actions(table.id)]
        assert logged[-1] == (1, "reject", "timer")
    finally:
        await svc.shutdown()


async def test_claims_replay_after_a_restart(store, database):
    first = TableService(store, bot_delay=0, seed_source=lambda: 11)
    table = await first.lobby.create("single_dummy", {}, guild_id=9, channel_id=100,
                                     creator=ALICE)
    await first.lobby.add_bot(table.id, ALICE.user_id)
    await first.lobby.start(table.id, ALICE.user_id)
    await alice_declares(first, table)
    sure = tricks_for(table.game.claim_position(), 0)
    await act(first, table, ALICE, f"claim:{sure}")
    await settle(table)
    history, scores = list(table.game.history), table.game.scores()
    await first.shutdown()
    await store.close()
    reopened = await Store.open(database)
    try:
        second = TableService(reopened, bot_delay=0)
        (again,) = await second.restore()
        assert again.game.history == history and again.game.scores() == scores
        assert again.decisions == table.decisions
        await second.shutdown()
    finally:
        await reopened.close()


async def alice_calls_bob_answers(service: TableService) -> Table:
    """Single Dummy between two people: Alice (South) has made a call Bob may be asked to
    take back."""
    table = await service.lobby.create("single_dummy", {}, guild_id=9, channel_id=100,
                                       creator=ALICE, settings=TableSettings())
    await service.lobby.join(table.id, BOB)
    await service.lobby.start(table.id, ALICE.user_id)
    game = table.game
    for _ in range(4):  # Alice makes a call (Bob passes if he is first)
        if 0 in game.to_act():
            await act(service, table, ALICE, next(a for a in map(str, game.legal(0))
                                                  if a.startswith("bid:")))
            break
        await act(service, table, BOB, "pass")
    return table


class Redraws:
    """The service's observer: counts the redraws it asks for."""

    def __init__(self) -> None:
        self.changes = 0

    def table_changed(self, table: Table, events: object) -> None:
        self.changes += 1

    def table_closed(self, table: Table) -> None:
        pass


async def test_a_withdrawn_request_waits_like_a_rejected_one_then_the_table_is_redrawn(
        store):
    """Asking and withdrawing at once, over and over, would redraw the table each time: a
    withdrawal starts the same wait as a rejection. Asking again within it is refused and
    stores nothing; when it ends, the asker may ask again and the table is redrawn (the
    hand's Undo, disabled meanwhile, comes back)."""
    clock, redraws = Clock(), Redraws()
    svc = TableService(store, bot_delay=0, seed_source=lambda: 11, clock=clock,
                       observer=redraws)
    try:
        table = await alice_calls_bob_answers(svc)
        await act(svc, table, ALICE, "undo")
        await act(svc, table, ALICE, "withdraw")
        assert table.game.request is None
        assert table.ask_again_at[0] == pytest.approx(clock.now() + 20, abs=1)
        logged = len(await store.actions(table.id))
        with pytest.raises(TableError, match="you may ask again in 20 seconds"):
            await act(svc, table, ALICE, "undo")
        assert len(await store.actions(table.id)) == logged and table.game.request is None
        before = redraws.changes
        clock.advance(20)
        for _ in range(200):
            await asyncio.sleep(0.005)
            if not table.ask_again_at:
                break
        assert table.ask_again_at == {} and redraws.changes == before + 1
        await act(svc, table, ALICE, "undo")
        assert table.game.request is not None
    finally:
        await svc.shutdown()


async def test_an_answer_to_a_request_that_is_over_changes_nothing(store):
    """Bob's Accept names the request it answers: once Alice withdraws it and asks again
    (Bob has not acted, so his decision number is the same), the old Accept is refused as
    stale and the new request still waits; the new Accept is taken."""
    clock = Clock()
    service = TableService(store, bot_delay=0, seed_source=lambda: 11, clock=clock)
    try:
        await _answers_to_old_requests(service, clock)
    finally:
        await service.shutdown()


async def _answers_to_old_requests(service: TableService, clock: Clock) -> None:
    table = await alice_calls_bob_answers(service)
    game = table.game
    await act(service, table, ALICE, "undo")
    first = game.request
    assert first is not None and first.waiting == {1}
    await act(service, table, ALICE, "withdraw")
    clock.advance(20)  # a withdrawal's wait
    await act(service, table, ALICE, "undo")
    second = game.request
    assert second is not None and second.number != first.number
    history = list(game.history)
    for old in (f"accept:{first.number}", f"reject:{first.number}"):
        with pytest.raises(StaleAction, match="is over"):
            await act(service, table, BOB, old)
    assert game.request == second and game.history == history, "nothing changed"
    await act(service, table, BOB, f"accept:{second.number}")
    assert game.request is None and game.history[-1] == (1, "accept"), "stored as before"
    with pytest.raises(StaleAction, match="is over"):  # answered: over too
        await act(service, table, BOB, f"accept:{second.number}")
