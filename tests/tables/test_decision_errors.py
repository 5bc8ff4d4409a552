"""A computer player's decision that fails, through the turn flow: a player that raises is
answered with the game's rule-based player's choice (the first legal action where that
fails too), one that does not pickle back from its worker keeps
its choice, and a claim's answer whose double-dummy check fails rejects; every failure
goes to the error hook (the metrics), and each table logs one error per player kind and
cause, not one per card. Claims are judged and answered in worker processes too."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Sequence

import pytest

import bot.tables.requests
import bot.tables.turns
from bot.ai import Budget, make_player, player_kinds
from bot.ai.core.claims import tricks_for
from bot.games.requests import PlayPosition
from bot.store import Store
from bot.tables import Clock, Person, Table, TableService
from bot.tables.requests import COOL_DOWN
from bot.tables.thinking import NOT_PICKLED, ThinkingPool
from tests.databases import sqlite_only
from tests.tables.helpers import play_until, settle
from tests.tables.test_claims_table import act, alice_declares

ALICE = Person(1, "Alice")
TURNS_LOG = "bot.tables.turns"


class Raises:
    """A computer player broken at every decision: KeyError the first time, RuntimeError
    after that (two causes)."""

    kind = "broken"

    def __init__(self) -> None:
        self.asked: list[list[str]] = []
        self.views: list[object] = []

    def choose(self, view: object, legal: Sequence[str], budget: Budget | None = None) -> str:
        self.asked.append(list(legal))
        self.views.append(view)
        if len(self.asked) == 1:
            raise KeyError("no such card")
        raise RuntimeError("the search fell over")


class StaysBehind:
    """Chooses its last legal action, and keeps a closure afterwards, as a cache might:
    it cannot be pickled back from a worker process."""

    kind = "stays-behind"

    def choose(self, view: object, legal: Sequence[str], budget: Budget | None = None) -> str:
        self.cache = lambda: legal
        return legal[-1]


async def _tennis_against(svc: TableService, channel_id: int) -> Table:
    table = await svc.lobby.create("tennis", {}, guild_id=9, channel_id=channel_id,
                                   creator=ALICE)
    await svc.lobby.add_bot(table.id, ALICE.user_id)
    await svc.lobby.start(table.id, ALICE.user_id)
    return table


async def _bot_actions(store: Store, table: Table) -> list[str]:
    return [a.action for a in await store.actions(table.id) if a.actor == "bot"]


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == TURNS_LOG and r.levelno >= logging.ERROR]


@pytest.fixture
def failures() -> list[tuple[str, str]]:
    return []


@pytest.fixture
async def threads(store: Store, failures: list[tuple[str, str]]
                  ) -> AsyncIterator[TableService]:
    svc = TableService(store, bot_delay=0, seed_source=lambda: 5)
    svc.turns.on_error = lambda kind, cause: failures.append((kind, cause))
    yield svc
    await svc.shutdown()


@pytest.fixture
async def processes(store: Store, failures: list[tuple[str, str]]
                    ) -> AsyncIterator[TableService]:
    svc = TableService(store, bot_delay=0, seed_source=lambda: 5, think_processes=1)
    svc.turns.on_error = lambda kind, cause: failures.append((kind, cause))
    yield svc
    await svc.shutdown()


def _broken_but_the_rules(game: str, seed: int, kind: str | None = None) -> object:
    """Every player raises but the rule-based one (the weakest kind)."""
    return (make_player(game, seed, kind) if kind == player_kinds(game)[-1] else Raises())


@sqlite_only
async def test_a_player_that_raises_plays_the_rule_based_choice_and_is_logged_once_per_cause(
        threads, store, failures, caplog, monkeypatch):
    monkeypatch.setattr(bot.tables.turns, "make_player", _broken_but_the_rules)
    caplog.set_level(logging.ERROR, logger=TURNS_LOG)
    tables = [await _tennis_against(threads, channel) for channel in (100, 101)]
    made = [threads.turns.player(table, 1) for table in tables]
    for table, player in zip(tables, made, strict=True):
        await play_until(threads, table, ALICE.user_id, lambda p=player: len(p.asked) >= 12)

    for table, player in zip(tables, made, strict=True):
        rules = [make_player("tennis", table.seed * 7 + 1, "tennis-basic").choose(
            view, legal, None) for view, legal in zip(player.views, player.asked, strict=True)]
        assert await _bot_actions(store, table) == rules
        # Not merely the first legal action each time.
        assert rules != [legal[0] for legal in player.asked]
    decisions = sum(len(player.asked) for player in made)
    assert Counter(failures) == {("broken", "KeyError"): 2,
                                 ("broken", "RuntimeError"): decisions - 2}
    causes = ("KeyError", "RuntimeError")
    logged = _errors(caplog)
    assert len(logged) == 4, logged
    assert Counter((table.id, cause) for line in logged for table in tables
                   for cause in causes
                   if line.startswith(f"table {table.id}:") and cause in line) == {
        (table.id, cause): 1 for table in tables for cause in causes}
    assert all(r.exc_info for r in caplog.records if r.name == TURNS_LOG), "no traceback"


@sqlite_only
async def test_where_the_rule_based_player_fails_too_the_first_legal_action_is_played(
        threads, store, failures, caplog, monkeypatch):
    monkeypatch.setattr(bot.tables.turns, "make_player",
                        lambda game, seed, kind=None: Raises())
    caplog.set_level(logging.ERROR, logger=TURNS_LOG)
    table = await _tennis_against(threads, 100)
    player = threads.turns.player(table, 1)
    await play_until(threads, table, ALICE.user_id, lambda: len(player.asked) >= 6)

    assert await _bot_actions(store, table) == [legal[0] for legal in player.asked]
    in_place = [line for line in _errors(caplog) if "failed too in place of another" in line]
    assert len(in_place) == 1  # once per table


@sqlite_only
async def test_a_player_that_does_not_pickle_back_keeps_its_choice_and_is_logged_once(
        processes, store, failures, caplog, monkeypatch):
    monkeypatch.setattr(bot.tables.turns, "make_player",
                        lambda game, seed, kind=None: StaysBehind())
    thought: list[tuple[list[str], str, bool]] = []
    choose = ThinkingPool.choose

    async def spied(pool, player, view, legal):
        choice, after = await choose(pool, player, view, legal)
        thought.append((list(legal), choice, after is None))
        return choice, after

    monkeypatch.setattr(ThinkingPool, "choose", spied)
    caplog.set_level(logging.ERROR, logger=TURNS_LOG)
    table = await _tennis_against(processes, 100)
    first = processes.turns.player(table, 1)
    await play_until(processes, table, ALICE.user_id, lambda: len(thought) >= 8)

    assert all(stayed for *_, stayed in thought), "the player came back pickled"
    choices = [choice for _, choice, _ in thought]
    assert choices == [legal[-1] for legal, _, _ in thought]
    assert any(legal[0] != legal[-1] for legal, _, _ in thought)
    assert await _bot_actions(store, table) == choices  # its choices stood
    assert processes.turns.player(table, 1) is first  # the table kept the one it sent
    assert failures == [("stays-behind", NOT_PICKLED)] * len(thought)
    (logged,) = _errors(caplog)
    assert logged.startswith(f"table {table.id}:") and NOT_PICKLED in logged


def _unsolvable(position: PlayPosition, side: int, tricks: int) -> bool:
    raise RuntimeError("the solver fell over")


async def _single_dummy_declared(svc: TableService) -> Table:
    """Alice declares a Single Dummy deal against a computer player and is to play."""
    table = await svc.lobby.create("single_dummy", {}, guild_id=9, channel_id=100,
                                   creator=ALICE)
    await svc.lobby.add_bot(table.id, ALICE.user_id)
    await svc.lobby.start(table.id, ALICE.user_id)
    await alice_declares(svc, table)
    return table


async def _last_two(store: Store, table: Table) -> list[tuple[int, str, str]]:
    return [(a.seat, a.action, a.actor) for a in await store.actions(table.id)][-2:]


@sqlite_only
async def test_a_claim_s_check_that_fails_for_the_computer_rejects_counted_and_logged_once(
        store, failures, caplog, monkeypatch):
    """The double-dummy check fails each time: Alice's claim is not proven, so it goes to
    the computer player, whose answer fails too: it rejects, each failure is counted, and
    the table logs it once."""
    monkeypatch.setattr(bot.tables.requests, "claim_holds", _unsolvable)
    clock = Clock()
    svc = TableService(store, bot_delay=0, seed_source=lambda: 11, clock=clock,
                       think_seconds=0.1)
    svc.turns.on_error = lambda kind, cause: failures.append((kind, cause))
    caplog.set_level(logging.ERROR, logger=TURNS_LOG)
    try:
        table = await _single_dummy_declared(svc)
        kind = svc.turns.player(table, 1).kind
        for _ in range(2):  # two claims in one trick, the second after the cool-down
            claim = f"claim:{table.game.tricks_left()}"
            await act(svc, table, ALICE, claim)
            await settle(table)
            assert await _last_two(store, table) == [(0, claim, "user"), (1, "reject", "bot")]
            clock.advance(COOL_DOWN + 1)
    finally:
        await svc.shutdown()
    assert failures == [(kind, "RuntimeError")] * 2
    (logged,) = _errors(caplog)
    assert logged.startswith(f"table {table.id}:") and "'reject'" in logged


@sqlite_only
async def test_claims_are_judged_and_answered_in_a_worker_process(store, failures, caplog):
    """As the bot runs by default: the claim's position crosses to a worker and its
    verdict comes back, for a claim the computer player answers and one that stands."""
    clock = Clock()
    svc = TableService(store, bot_delay=0, seed_source=lambda: 11, clock=clock,
                       think_seconds=0.1, think_processes=1)
    svc.turns.on_error = lambda kind, cause: failures.append((kind, cause))
    caplog.set_level(logging.ERROR)
    try:
        table = await _single_dummy_declared(svc)
        sure = tricks_for(table.game.claim_position(), 0)
        if sure == table.game.tricks_left():
            pytest.skip("this deal makes every trick double dummy")
        await act(svc, table, ALICE, f"claim:{sure + 1}")
        await settle(table)
        assert await _last_two(store, table) == [(0, f"claim:{sure + 1}", "user"),
                                                 (1, "reject", "bot")]
        clock.advance(COOL_DOWN + 1)
        deal = table.game.deal_no
        await act(svc, table, ALICE, f"claim:{sure}")
        assert table.game.deal_no == deal + 1
        assert (0, f"claim:{sure}:proven", "user") in await _last_two(store, table)
    finally:
        await svc.shutdown()
    assert failures == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
