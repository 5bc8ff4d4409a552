"""Turn flow: computer players act, people kept waiting are reminded, and turn timers act
for people who are away.

Whatever acts goes through the service's own apply (checked, stored, then shown), under
the table's lock, exactly like a person's click. A computer player thinks without the lock
(in the thinking pool, off the event loop): its view and legal actions are taken under the
lock, and its choice is applied only if that seat's decision is still the same one.

A person's wait is watched from the moment it began (`table.since`, stored with the
action that began it), on the tables' clock: after `ping_after` seconds the notifier is
asked to ping them (a new message; an edit notifies nobody), and when the turn timer runs
out a computer player moves for them. A restarted bot counts from the same moment.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.ai import Player, SeatedWith, make_player, player_kinds
from bot.games import Event
from bot.store import Actor

from . import requests
from .clock import Clock
from .model import PLAYING, Table
from .thinking import NOT_PICKLED, THINK_SECONDS, Setup, ThinkingPool

log = logging.getLogger(__name__)

ApplyAction = Callable[[Table, int, str, Actor], Awaitable[list[Event]]]
# Told of each computer player's decision that failed (its kind and the cause: the
# exception's class, or `NOT_PICKLED`): the metrics count them.
DecisionErrorHook = Callable[[str, str], None]


class TurnNotifier(Protocol):
    """Told when a person has kept a table waiting, and after every change (to take back
    reminders that are no longer current). Must not block: schedule, don't await."""

    def remind(self, table: Table, seat: int, decision: int) -> None: ...

    def moved_on(self, table: Table) -> None: ...


class _NoNotifier:
    def remind(self, table: Table, seat: int, decision: int) -> None:
        pass

    def moved_on(self, table: Table) -> None:
        pass


class TurnFlow:
    """The computer players of every table, and the watches over people's turns."""

    def __init__(self, apply: ApplyAction, bot_delay: float,
                 think_seconds: float = THINK_SECONDS, clock: Clock | None = None,
                 think_processes: int = 0, worker_setup: Setup = ()) -> None:
        self._apply = apply
        self.bot_delay = bot_delay
        self.thinking = ThinkingPool(think_seconds, processes=think_processes,
                                     setup=worker_setup)
        self.clock = clock or Clock()
        self.notifier: TurnNotifier = _NoNotifier()
        self._players: dict[tuple[int, int, str | None], Player] = {}
        self.on_error: DecisionErrorHook | None = None
        self._told: set[tuple[int, str, str]] = set()  # (table, kind, cause) logged

    def player(self, table: Table, seat: int) -> Player:
        """The computer player of a seat: the seat's own kind when a bot sits there and that
        kind still exists, else the game's default (a turn timer acting for a person)."""
        key = self._key(table, seat)
        player = self._players.get(key)
        if player is None:
            player = make_player(table.game_name, table.seed * 7 + seat, key[2])
            self._players[key] = player
        return player

    def _key(self, table: Table, seat: int) -> tuple[int, int, str | None]:
        info = table.seats[seat]
        kind = info.bot_kind if info is not None and info.is_bot else None
        if kind is not None and kind not in player_kinds(table.game_name):
            kind = None
        return (table.id, seat, kind)

    def _same_kind(self, table: Table, kind: str) -> frozenset[int]:
        """The seats of computer players of `kind` at `table` (not people's, even where a
        turn timer plays for them): they share that kind's conventions. A seat a person
        played from this deal is left out until the deal ends: a robot that took it over
        mid-deal would be credited with the person's cards as its signals."""
        default = player_kinds(table.game_name)[0]
        return frozenset(s for s, info in enumerate(table.seats)
                         if info is not None and info.is_bot
                         and s not in table.people_played
                         and (self._key(table, s)[2] or default) == kind)

    def _bot_seats(self, table: Table) -> list[int]:
        if table.status != PLAYING or table.game.finished:
            return []
        return [s for s in sorted(table.game.to_act())
                if (info := table.seats[table.decider(s)]) is not None and info.is_bot]

    def kick(self, table: Table) -> None:
        """After any change: let computer players act, and (re)arm the watches."""
        self._arm_watches(table)
        self.notifier.moved_on(table)
        if self._bot_seats(table) and (table.driver is None or table.driver.done()):
            table.driver = asyncio.create_task(self._drive(table),
                                               name=f"table-{table.id}-bots")

    async def _drive(self, table: Table) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            async with table.lock:
                seats = self._bot_seats(table)
                if not seats or table.closed:
                    table.driver = None
                    return
                seat = seats[0]
            try:
                await self._bot_act(table, seat, actor="bot")
            except Exception:
                log.exception("table %s: computer player at seat %s failed", table.id, seat)
                table.driver = None
                return

    async def _bot_act(self, table: Table, seat: int, actor: Actor) -> None:
        """Think without the table's lock, then apply under it if still current."""
        async with table.lock:
            if table.status != PLAYING or table.closed or seat not in table.game.to_act():
                return
            legal = table.game.legal(seat)
            if not legal:
                return
            decision = table.decisions[seat]
            view = table.game.view(seat)
            asked = requests.pending(table.game)
            position = requests.position_to_judge(table.game)
        key = self._key(table, seat)
        player = self.player(table, seat)
        if isinstance(player, SeatedWith):
            player.seated_with(self._same_kind(table, player.kind))
        try:
            if asked is not None:  # a claim or undo waits on this seat's answer
                choice = await requests.answer(self.thinking, asked, position,
                                               timed_out=actor == "timer")
            else:
                choice, thought = await self.thinking.choose(player, view, legal)
                if thought is None:  # its choice stands; its memory stays behind
                    self._failed(table, player.kind, NOT_PICKLED, None)
                # A worker process thought with a copy: its memory after this decision is
                # the player's from now on (unless the table was forgotten meanwhile).
                elif self._players.get(key) is player:
                    self._players[key] = thought
        except Exception as error:
            choice = (await self._in_place_of(table, seat, view, legal) if asked is None
                      else "reject")
            self._failed(table, player.kind, type(error).__name__, error, choice)
        if choice not in legal:
            log.error("table %s: computer player chose %r, not legal; using %r", table.id,
                      choice, legal[0])
            choice = legal[0]
        async with table.lock:
            # A person (taking their seat back), a timer or a restart may have moved on.
            if (table.status != PLAYING or table.closed or table.decisions[seat] != decision
                    or seat not in table.game.to_act()
                    or not requests.same_question(asked, requests.pending(table.game))):
                return
            await self._apply(table, seat, choice, actor)

    async def _in_place_of(self, table: Table, seat: int, view: object,
                           legal: Sequence[str]) -> str:
        """What a computer decision that failed plays: the game's rule-based player's
        choice (its weakest kind, without a budget: a few milliseconds, in a thread so the
        event loop goes on), or the first legal action where that fails too (the caller
        checks the choice is legal)."""
        kind = player_kinds(table.game_name)[-1]
        try:
            rules = make_player(table.game_name, table.seed * 7 + seat, kind)
            choice: str = await asyncio.to_thread(rules.choose, view, legal, None)
        except Exception:
            if (table.id, kind, "in place") not in self._told:  # once per table
                self._told.add((table.id, kind, "in place"))
                log.exception("table %s: the %s player failed too in place of another; the "
                              "first legal action is played", table.id, kind)
            return legal[0]
        return choice

    def _failed(self, table: Table, kind: str, cause: str, error: BaseException | None,
                instead: str | None = None) -> None:
        """A decision that failed: counted every time, logged once per table, player kind
        and cause (a defect repeats at every card; one traceback says it). `instead`:
        what was played in its place (the rule-based player's choice; a claim's answer
        rejects)."""
        if self.on_error is not None:
            self.on_error(kind, cause)
        if (table.id, kind, cause) in self._told:
            return
        self._told.add((table.id, kind, cause))
        if error is None:
            log.error("table %s: the %s player's memory did not come back from its worker "
                      "(%s); its choices stand, this is logged once per table", table.id,
                      kind, cause)
        else:
            log.error("table %s: the %s player raised %s; %r was played in its place (a "
                      "card or call: the rule-based player's; a claim's answer: reject); "
                      "logged once per table and cause", table.id, kind, cause, instead,
                      exc_info=error)

    def _arm_watches(self, table: Table) -> None:
        """One watch per person the table waits for, over that seat's current decision."""
        settings = table.settings
        watching = settings.turn_timeout > 0 or settings.ping_after > 0
        waiting = set(table.waiting_on()) if watching else set()
        for seat, (decision, task) in list(table.timers.items()):
            if seat not in waiting or task.done() or decision != table.decisions[seat]:
                task.cancel()
                del table.timers[seat]
        for seat in waiting:
            info = table.seats[table.decider(seat)]  # human declares: the person opposite
            if info is None or info.is_bot or seat in table.timers:
                continue
            decision = table.decisions[seat]
            table.timers[seat] = (decision, asyncio.create_task(
                self._watch(table, seat, decision),
                name=f"table-{table.id}-watch-{seat}"))

    def _current(self, table: Table, seat: int, decision: int) -> bool:
        return (table.status == PLAYING and not table.closed
                and table.decisions[seat] == decision and seat in table.game.to_act())

    async def _watch(self, table: Table, seat: int, decision: int) -> None:
        settings, since = table.settings, table.since
        timeout, ping_after = settings.turn_timeout, settings.ping_after
        # A ping only when it comes before the timer would act anyway.
        if ping_after > 0 and (timeout <= 0 or ping_after < timeout):
            await self.clock.sleep_until(since + ping_after)
            if self._current(table, seat, decision):
                self.notifier.remind(table, seat, decision)
        if timeout <= 0:
            return
        await self.clock.sleep_until(since + timeout)
        async with table.lock:
            watch = table.timers.get(seat)
            if watch is not None and watch[1] is asyncio.current_task():
                del table.timers[seat]
            if not self._current(table, seat, decision):
                return
        try:
            await self._bot_act(table, seat, actor="timer")
        except Exception:
            log.exception("table %s: the turn timer could not act for seat %s", table.id, seat)

    def stop(self, table: Table) -> None:
        for _decision, task in table.timers.values():
            task.cancel()
        table.timers.clear()
        self.notifier.moved_on(table)
        current = asyncio.current_task()
        if table.driver is not None and table.driver is not current:
            table.driver.cancel()
        table.driver = None

    def forget(self, table: Table) -> None:
        """Drop a closed table's computer players."""
        for key in [key for key in self._players if key[0] == table.id]:
            del self._players[key]
        self._told = {told for told in self._told if told[0] != table.id}
