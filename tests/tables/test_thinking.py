"""Computer players think in worker processes: the same decisions as in process, with
their memory carried across decisions, at a lower CPU priority, and a dead worker replaced."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.ai import Budget, make_player
from bot.games import create
from bot.tables.thinking import WORKER_NICE, ThinkingPool


class Witness:
    """Remembers, in its own state, where and how it thought (pickled back and forth)."""

    kind = "witness"

    def __init__(self) -> None:
        self.decisions = 0
        self.pids: list[int] = []
        self.nice = 0
        self.budget: Budget | None = None

    def choose(self, view: object, legal: list[str], budget: Budget | None = None) -> str:
        self.decisions += 1
        self.pids.append(os.getpid())
        self.nice = os.nice(0)
        self.budget = budget
        return legal[self.decisions % len(legal)]


@pytest.fixture(scope="module")
def workers():
    """Two worker processes, started once for this module's tests (each start imports
    every computer player)."""
    pool = ThinkingPool(0.25, processes=2)
    yield pool
    pool.close()


class DiesOnce(Witness):
    """Kills the worker process it runs in, the first time only (a marker file says)."""

    def __init__(self, marker: Path) -> None:
        super().__init__()
        self.marker = marker

    def choose(self, view: object, legal: list[str], budget: Budget | None = None) -> str:
        if not self.marker.exists():
            self.marker.write_text("died")
            os._exit(1)
        return super().choose(view, legal, budget)


async def test_a_worker_process_thinks_at_a_lower_priority_and_hands_its_memory_back(
        workers):
    player = Witness()
    choice, after = await workers.choose(player, None, ["a", "b", "c"])
    choice2, after2 = await workers.choose(after, None, ["a", "b", "c"])
    assert (choice, choice2) == ("b", "c")  # the second decision saw the first's memory
    assert isinstance(after2, Witness) and after2.decisions == 2
    assert player.decisions == 0  # the worker thought with a copy
    assert after2.pids[0] != os.getpid()
    assert after2.nice >= min(19, os.nice(0) + WORKER_NICE)
    assert after2.budget is not None and after2.budget.seconds == 0.25
    assert after2.budget.thinkers == 1


@pytest.mark.parametrize("game", ["tennis", "spades"])
async def test_a_deal_thought_in_worker_processes_is_the_deal_thought_in_process(game,
                                                                                  workers):
    """The rule-based players keep memory (Tennis: the cards seen; Spades: a random
    generator): with the copies handed back, every decision is the same as in process."""
    kind = {"tennis": "tennis-basic", "spades": "spades-basic"}[game]
    played = []
    for thinking in (False, True):
        g = create(game, seed=11)
        seats = [make_player(game, 100 + s, kind) for s in range(g.SEATS)]
        actions = []
        while not g.finished and len(actions) < 60:
            seat = min(g.to_act())
            view, legal = g.view(seat), g.legal(seat)
            if thinking:
                choice, seats[seat] = await workers.choose(seats[seat], view, legal)
            else:
                choice = seats[seat].choose(view, legal, None)
            g.apply(seat, choice)
            actions.append((seat, choice))
        played.append(actions)
    assert len(played[0]) == 60 and played[0] == played[1]


async def test_a_worker_that_dies_is_replaced_and_the_decision_thought_again(tmp_path):
    pool = ThinkingPool(0.25, processes=1)
    try:
        choice, after = await pool.choose(DiesOnce(tmp_path / "died"), None, ["a", "b"])
        assert (tmp_path / "died").exists() and choice == "b"
        # The new workers go on serving.
        _, later = await pool.choose(after, None, ["a", "b"])
        assert isinstance(later, Witness) and later.decisions == 2
    finally:
        pool.close()


def _dies_once(marker: Path) -> str:
    if not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return "done"


async def test_other_work_is_done_again_when_its_worker_dies(tmp_path):
    pool = ThinkingPool(0.25, processes=1)
    try:
        assert await pool.run(_dies_once, tmp_path / "died") == "done"
    finally:
        pool.close()


async def test_concurrent_decisions_count_as_thinkers(workers):
    results = await asyncio.gather(*(workers.choose(Witness(), None, ["a", "b"])
                                     for _ in range(4)))
    budgets = sorted(after.budget.thinkers for _, after in results if after.budget)
    assert budgets == [1, 2, 3, 4]
    assert workers.thinking == 0


async def test_threads_still_think_in_process_when_asked():
    pool = ThinkingPool(0.25)  # processes=0
    try:
        player = Witness()
        _, after = await pool.choose(player, None, ["a", "b"])
    finally:
        pool.close()
    assert after is player and player.pids == [os.getpid()]



async def test_a_deal_s_picture_and_verdict_come_the_same_from_a_worker_process(workers):
    """What the publisher hands to the workers (TableService.off_loop) pickles there and
    back, and is what the bot process would have made itself."""
    from functools import partial

    from bot.handrecord import deal_verdict
    from bot.render.pictures.deals import DealPicture
    from tests.handrecord.helpers import play_randomly
    from tests.render.pictures_helpers import NAMES, finished_deal

    picture = DealPicture("bridge", "Bridge", 7, NAMES["bridge"], finished_deal("bridge", 1))
    assert await workers.run(picture.render) == picture.render()
    game, truth = play_randomly("bridge", 3, deals=1)
    verdict = partial(deal_verdict, "bridge", dict(game.options), 3, list(game.history),
                      truth[0]["start"].deal_no)
    line = verdict()
    assert line and await workers.run(verdict) == line


def _every_kind() -> list[tuple[str, str]]:
    from bot.ai import player_kinds
    from bot.games import GAMES
    return [(game, kind) for game in GAMES for kind in player_kinds(game)]


@pytest.mark.parametrize(("game", "kind"), _every_kind())
async def test_every_player_kind_plays_a_whole_deal_through_worker_processes(
        game, kind, workers):
    """As the bot runs by default: each decision is thought in a worker process and the
    player comes back pickled. A decision that raises, a player that does not come back
    (None: it did not pickle) or a choice that is not legal fails here (the default bridge
    player once cached a closure and came back from no card decision)."""
    g = create(game, seed=5)
    seats = [make_player(game, 40 + s, kind) for s in range(g.SEATS)]
    first_deal = g.view(None).deal_no
    decisions = 0
    while not g.finished and g.view(None).deal_no == first_deal:
        seat = min(g.to_act())
        view, legal = g.view(seat), g.legal(seat)
        choice, thought = await workers.choose(seats[seat], view, legal)
        assert thought is not None, f"{kind} did not come back from its worker"
        assert type(thought) is type(seats[seat]) and choice in legal
        seats[seat] = thought
        g.apply(seat, choice)
        decisions += 1
    assert decisions >= 8


class Unpicklable(Witness):
    """Keeps a closure, as a cache might: it cannot cross back from a worker."""

    def choose(self, view: object, legal: list[str], budget: Budget | None = None) -> str:
        self.cache = lambda: None
        return super().choose(view, legal, budget)


async def test_a_player_that_does_not_pickle_back_keeps_its_choice(workers):
    choice, thought = await workers.choose(Unpicklable(), None, ["a", "b", "c"])
    assert (choice, thought) == ("b", None)


def test_benchmarks_decide_through_the_same_round_trip_and_stop_on_a_player_that_fails_it():
    from bot.tables.thinking import RoundTripError, think_as_served

    player = Witness()
    choice, back = think_as_served(player, None, ["a", "b", "c"], None)
    assert choice == "b" and back is not player and back.decisions == 1
    assert player.decisions == 0  # it thought with a copy, as a worker does
    with pytest.raises(RoundTripError):
        think_as_served(Unpicklable(), None, ["a", "b"], None)


def _learned_models_loaded() -> list[str]:
    from bot.ai.bridge.learning import defence, leads, reading, values
    return [path.name for shelf in (values.SHELF, reading.SHELF, leads.SHELF, defence.SHELF)
            for path, model in shelf.loaded.items() if model is not None]


async def test_a_worker_loads_the_learned_model_at_its_start_not_at_its_first_call():
    pool = ThinkingPool(0.1, processes=1)
    try:
        # The shipped rounds (on boards and at a rubber) and the rounds they are stacked
        # on, loaded with them; the hand reading, the opening and the defence's leads.
        assert sorted(await pool.run(_learned_models_loaded)) == [
            "call_values-round2.npz", "call_values-round3.npz", "call_values-round4.npz",
            "call_values-round5.npz", "call_values-round6.npz", "call_values-round7.npz",
            "call_values-round8.npz", "call_values.npz",
            "call_values_rubber-round1.npz", "call_values_rubber-round2.npz",
            "call_values_rubber-round3.npz", "call_values_rubber.npz", "defence_leads.npz",
            "hand_reading.npz",
            "opening_leads.npz"]
    finally:
        pool.close()


set_ups = 0  # how often `_count_set_up` ran in this process


def _count_set_up() -> None:
    global set_ups
    set_ups += 1


def _set_up_here() -> int:
    return set_ups


def _small_cards_cached() -> int:
    from bot.render.pictures.board import small_card
    return small_card.cache_info().currsize


async def test_a_worker_process_does_the_callers_setup_once_as_it_starts():
    from bot.render.pictures.board import CARD_SIZES, warm
    pool = ThinkingPool(0.25, processes=1, setup=(_count_set_up, warm))
    try:
        assert await pool.run(_set_up_here) == 1
        assert await pool.run(_set_up_here) == 1  # not again for later work
        # The deal pictures' small cards are drawn there, every size of every card kept.
        assert await pool.run(_small_cards_cached) == len(CARD_SIZES) * 53
    finally:
        pool.close()
    assert set_ups == 0  # nothing of it in this process


async def test_threads_do_the_callers_setup_once_in_a_thread():
    before = set_ups
    pool = ThinkingPool(0.25, threads=3, setup=(_count_set_up,))
    try:
        for _ in range(200):
            if set_ups > before:
                break
            await asyncio.sleep(0.01)
        await asyncio.gather(*(pool.run(_set_up_here) for _ in range(6)))
    finally:
        pool.close()
    assert set_ups == before + 1


def _fails() -> None:
    raise RuntimeError("no pictures here")


async def test_a_set_up_step_that_fails_leaves_the_workers_thinking():
    for pool in (ThinkingPool(0.25, processes=1, setup=(_fails, _count_set_up)),
                 ThinkingPool(0.25, threads=1, setup=(_fails,))):
        try:
            choice, after = await pool.choose(Witness(), None, ["a", "b"])
            assert choice == "b" and isinstance(after, Witness)
            if pool.processes:  # the steps after the failed one still ran
                assert await pool.run(_set_up_here) == 1
        finally:
            pool.close()
