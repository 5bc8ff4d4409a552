"""Where computer players think: worker processes (or threads), off the event loop.

A search player (sampling, double-dummy solving, rollouts) can think for most of a
second, mostly in pure Python. In a thread of the bot process it holds the GIL against
the event loop: every click then waits for the interpreter's switch interval at each
socket read, write and database call, and people's p99 went from 19 ms to 430 ms at 200
tables (docs/performance.md). So by default each decision runs in a worker process:

- the worker is given the player itself, the seat's view, the legal actions and the
  budget, and hands back its choice with the player as it is after the decision. The
  caller keeps that copy, so a player's memory across decisions (Tennis's cards seen,
  the random generator that makes the same seed give the same decisions) is exactly what
  it would be in process, whichever worker thinks next time;
- workers run at a lower CPU priority (nice), so on a busy machine the event loop and
  people's clicks come first and computer players think with the cores that are left;
- `thinkers` in each budget counts the decisions submitted and not yet answered, so a
  player sizes its work to its share of the machine (a queued decision's clock runs
  from its submission: a computer player never keeps a table waiting much longer).

`processes=0` thinks in threads of the bot process instead (tests, and where processes
cannot be started); the double-dummy solver releases the GIL, pure-Python search does not.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.ai import Budget, Player, prepare_players
from bot.games import GAMES

log = logging.getLogger(__name__)
T = TypeVar("T")

# How much lower than the bot's a worker's CPU priority is (nice 10: about a tenth of
# the CPU a normal process gets when both want the same core).
WORKER_NICE = 10
# A computer player's seconds to think over a decision (from its submission) where the
# settings name none (`THINK_SECONDS` in `.env`); the benchmarks that measure the players
# as served give them as much on the thinking thread's CPU clock.
THINK_SECONDS = 0.8
_PARENT_POLL = 1.0  # seconds between a worker's checks that the bot is still alive


NOT_PICKLED = "player-not-picklable"  # the cause of a decision whose player stayed behind


def think(player: Player, view: Any, legal: Sequence[str], budget: Budget,
          crossing: bool = False) -> tuple[str, Player | None, bool]:
    """One decision: the choice, the player after it (its memory included), and whether
    its budget ran out. `crossing`: the player goes back to another process, so it is
    pickled here first; one that does not pickle comes back as None with its choice (the
    choice still counts; the caller keeps the player it sent and says so) rather than
    failing the whole decision in the executor."""
    choice = player.choose(view, legal, budget)
    if crossing:
        try:
            pickle.dumps(player)
        except Exception:
            log.exception("a %s player does not pickle after its decision", player.kind)
            return choice, None, budget.ran_out
    return choice, player, budget.ran_out


class RoundTripError(RuntimeError):
    """A player that would not come back from a worker process (benchmarks stop on it)."""


def think_as_served(player: Player, view: Any, legal: Sequence[str], budget: Budget | None
                    ) -> tuple[str, Player]:
    """One decision exactly as a worker process makes it, in this process: the player and
    its view cross pickled, think, and the player crosses back pickled. Benchmarks decide
    through this, so what they measure is what the bot serves (a player whose caches do
    not survive the crossing is measured without them; one that cannot cross raises)."""
    sent_player, sent_view, sent_legal = pickle.loads(pickle.dumps((player, view, legal)))
    choice = sent_player.choose(sent_view, sent_legal, budget)
    try:
        back: Player = pickle.loads(pickle.dumps(sent_player))
    except Exception as error:
        raise RoundTripError(f"a {player.kind} player does not pickle after its decision"
                             ) from error
    return choice, back


# Told of each decision (the metrics): the player's kind, the seconds it took from its
# submission, its budget's seconds, and whether the budget ran out.
DecisionHook = Callable[[str, float, float, bool], None]


# Work a worker does once when it starts, beside the players' (the caller's: the deal
# pictures' cached pieces). Module-level callables, so that they pickle.
Setup = Sequence[Callable[[], None]]


def _start_worker(parent: int, setup: Setup = ()) -> None:
    """A worker's set-up: yield the CPU to the bot, die with it, import every player and
    load what they read (the bridge players' learned model), then the caller's `setup`."""
    os.nice(WORKER_NICE)
    threading.Thread(target=_follow_parent, args=(parent,), daemon=True,
                     name="follow-parent").start()
    for game in GAMES:  # paid once here, not by the first decision of each game
        prepare_players(game)
    _set_up(setup)


def _set_up(setup: Setup) -> None:
    """The caller's set-up, step by step. A step that fails is one log line and the
    worker still thinks: the players need none of it, and an initializer that raised
    would break the whole pool."""
    for work in setup:
        try:
            work()
        except Exception:
            log.exception("a worker's set-up step (%s) failed; the computer players think "
                          "without it", getattr(work, "__qualname__", work))


def _follow_parent(parent: int) -> None:
    """A worker outlives a killed bot only for a moment (nothing else would stop it)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL)
    os._exit(0)


class ThinkingPool:
    """Runs `player.choose` in worker processes (or threads) with a per-decision budget."""

    def __init__(self, seconds: float, processes: int = 0, threads: int | None = None,
                 setup: Setup = ()) -> None:
        self.seconds = seconds
        self.processes = processes
        self.workers = processes or threads or max(1, min(4, os.cpu_count() or 1))
        # Done where the work is done: in each worker process as it starts, or once in
        # a thread here (threads share the bot process's caches), never on the loop.
        self._setup = tuple(setup)
        self._pool: Executor = self._new_pool()
        if not self.processes and self._setup:
            self._pool.submit(_set_up, self._setup)
        self.thinking = 0  # decisions submitted and not yet answered
        self.on_decision: DecisionHook | None = None

    def _new_pool(self) -> Executor:
        if not self.processes:
            return ThreadPoolExecutor(max_workers=self.workers,
                                      thread_name_prefix="computer-player")
        # Spawned, not forked: the bot process runs threads (the event loop's helpers).
        return ProcessPoolExecutor(max_workers=self.processes,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker,
                                   initargs=(os.getpid(), self._setup))

    async def choose(self, player: Player, view: Any, legal: Sequence[str]
                     ) -> tuple[str, Player | None]:
        """The player's choice, and the player as it is after choosing (a copy of it
        when a worker process thought): keep that one for its next decision. None in its
        place: the worker's copy did not pickle (`NOT_PICKLED`), so the caller keeps the
        one it has, without this decision's memory."""
        self.thinking += 1
        started = time.monotonic()
        try:
            budget = Budget(self.seconds, thinkers=self.thinking)
            choice, thought, ran_out = await self.run(think, player, view, legal, budget,
                                                      bool(self.processes))
        finally:
            self.thinking -= 1
        if self.on_decision is not None:
            self.on_decision(player.kind, time.monotonic() - started, self.seconds, ran_out)
        return choice, thought

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Work off the event loop in the workers (a decision; a claim's double-dummy
        check): `work` and its arguments must pickle when the workers are processes."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start new ones (once, whichever
            # piece of work notices first) and do it again.
            if self._pool is pool:
                log.warning("a computer players' worker process died; starting new ones")
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
