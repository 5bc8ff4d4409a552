"""The life of every table: lobby, start, turns, computer players, timers, the end, restart.

Rules of the house, enforced here for every game alike:
- an action is checked by the engine, written to the store, and only then shown (the
  observer is told after the store has committed it);
- one lock per table, so concurrent or double clicks apply once and in order;
- a click carries the seat's decision number, so a button from a moment that has passed
  is recognised as stale instead of being applied to a new situation.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from bot.ai import Player, make_player
from bot.games import Event, IllegalAction, InvalidOptions, create
from bot.store import Actor, PlayerResult, Status, Store

from .model import (
    ABANDONED,
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    Person,
    SeatInfo,
    StaleAction,
    Table,
    TableError,
    TableSettings,
)

log = logging.getLogger(__name__)

FinishHook = Callable[[Any, Table], Awaitable[None]]
"""Runs inside the store transaction that records a finished match (ratings use it)."""


class TableObserver(Protocol):
    """Told about every change after it is stored. Must not block: schedule, don't await."""

    def table_changed(self, table: Table, events: Sequence[Event]) -> None: ...

    def table_closed(self, table: Table) -> None: ...


class _NullObserver:
    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        pass

    def table_closed(self, table: Table) -> None:
        pass


class TableService:
    """Every live table of this bot, keyed by id and by channel (one table per channel)."""

    def __init__(self, store: Store, *, bot_delay: float = 1.0,
                 observer: TableObserver | None = None,
                 seed_source: Callable[[], int] | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.observer: TableObserver = observer or _NullObserver()
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.finish_hooks: list[FinishHook] = []
        self._players: dict[tuple[int, int], Player] = {}
        self._new_seed = seed_source or (lambda: random.SystemRandom().getrandbits(48))

    # -- looking tables up ----------------------------------------------------------

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise StaleAction("That table has finished; start a new one with /play.")
        return table

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id is not None else None

    # -- the lobby ------------------------------------------------------------------

    async def create(self, game_name: str, options: dict[str, Any], *, guild_id: int,
                     channel_id: int, creator: Person,
                     settings: TableSettings | None = None) -> Table:
        """A new table in a channel, with its creator in the first seat."""
        busy = self.in_channel(channel_id)
        if busy is not None:
            raise TableError(
                f"A {busy.game.TITLE} table is already open in this channel. Finish it or "
                "/abandon it first, or start yours in a thread with `thread: True`.")
        settings = settings or TableSettings()
        seed = self._new_seed()
        try:
            game = create(game_name, options=options, seed=seed)
        except InvalidOptions as exc:
            raise TableError(str(exc)) from None
        match_id = await self.store.create_match(
            game_name, dict(game.options), seed, guild_id, channel_id, creator.user_id,
            settings.to_dict())
        table = Table(id=match_id, game_name=game_name, options=dict(game.options), seed=seed,
                      guild_id=guild_id, channel_id=channel_id, creator_id=creator.user_id,
                      settings=settings, game=game, seats=[None] * game.SEATS)
        self._register(table)
        await self._seat(table, 0, SeatInfo(name=creator.name, user_id=creator.user_id))
        return table

    async def join(self, table_id: int, person: Person, seat: int | None = None) -> int:
        """Take a seat (a chosen one, or the next free one); returns the seat."""
        table = self.get(table_id)
        async with table.lock:
            if table.status == PLAYING:
                return await self._take_back(table, person)
            current = table.seat_of(person.user_id)
            if seat is None:
                if current is not None:
                    raise TableError(f"You already sit at {table.game.seat_name(current)}.")
                free = table.free_seats() or [
                    s for s, info in enumerate(table.seats) if info is not None and info.is_bot]
                if not free:
                    raise TableError("The table is full.")
                seat = free[0]
            self._check_seat_number(table, seat)
            occupant = table.seats[seat]
            if occupant is not None and not occupant.is_bot:
                if occupant.user_id == person.user_id:
                    raise TableError(f"You already sit at {table.game.seat_name(seat)}.")
                raise TableError(f"{table.game.seat_name(seat)} is taken by {occupant.name}.")
            if current is not None:  # moving to another seat
                await self._unseat(table, current)
            await self._seat(table, seat, SeatInfo(name=person.name, user_id=person.user_id))
            self.observer.table_changed(table, ())
            return seat

    async def add_bot(self, table_id: int, user_id: int, seat: int | None = None) -> int:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user_id)
            free = table.free_seats()
            if seat is None:
                if not free:
                    raise TableError("Every seat is already filled.")
                seat = free[0]
            self._check_seat_number(table, seat)
            if table.seats[seat] is not None:
                raise TableError(f"{table.game.seat_name(seat)} is not empty.")
            kind = self._player(table, seat).kind
            await self._seat(table, seat, SeatInfo(name="Bot", bot_kind=kind))
            self.observer.table_changed(table, ())
            return seat

    async def leave(self, table_id: int, user_id: int) -> str:
        """Leave a seat: in the lobby it is freed; mid-match a computer player takes over."""
        table = self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You are not sitting at this table.")
            info = table.seats[seat]
            assert info is not None
            if table.status == LOBBY:
                await self._unseat(table, seat)
                if not table.people():
                    await self._close(table, CANCELLED)
                    return "You left; nobody is seated any more, so the table is closed."
                self.observer.table_changed(table, ())
                return f"You left {table.game.seat_name(seat)}."
            bot = SeatInfo(name=f"Bot for {info.name}", bot_kind=self._player(table, seat).kind,
                           left_user_id=user_id)
            await self._seat(table, seat, bot)
            line = (f"{info.name} left {table.game.seat_name(seat)}: a computer player "
                    "takes over until they come back.")
            table.recent.append(line)
            self.observer.table_changed(table, (Event("seat_change", line, seat),))
            self._kick(table)
            return ("You left; a computer player plays your seat. Press Join to take it "
                    "back while the match lasts.")

    async def start(self, table_id: int, user_id: int) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user_id)
            if not table.is_full():
                free = ", ".join(table.game.seat_name(s) for s in table.free_seats())
                raise TableError(f"Every seat must be filled first (empty: {free}). "
                                 "Invite people or press Add bot.")
            await self.store.set_status(table.id, PLAYING)
            table.status = PLAYING
            line = f"The {table.game.TITLE} match begins."
            table.recent.append(line)
            self.observer.table_changed(table, (Event("match_start", line),))
            self._kick(table)

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False) -> None:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.creator_id and not can_manage:
                raise TableError("Only the person who opened this table can cancel it.")
            await self._close(table, CANCELLED)

    async def abandon(self, table_id: int, user_id: int, can_manage: bool = False) -> str:
        """Stop a table: its creator, Manage Messages, or a majority of the seated people."""
        table = self.get(table_id)
        async with table.lock:
            if table.status == LOBBY:
                if user_id != table.creator_id and not can_manage:
                    raise TableError("Only the person who opened this table can cancel it.")
                await self._close(table, CANCELLED)
                return "The table is cancelled."
            people = table.people()
            if user_id == table.creator_id or can_manage:
                await self._close(table, ABANDONED)
                return "The match is abandoned; it does not count for the leaderboards."
            if user_id not in people:
                raise TableError("Only the table's creator, a majority of its players, or "
                                 "members who can manage messages can abandon it.")
            table.abandon_votes.add(user_id)
            votes = len(table.abandon_votes & set(people))
            if votes * 2 > len(people):
                await self._close(table, ABANDONED)
                return "A majority voted to stop: the match is abandoned."
            needed = len(people) // 2 + 1
            line = f"{votes} of {needed} votes needed to abandon this match."
            table.recent.append(line)
            self.observer.table_changed(table, (Event("abandon_vote", line),))
            return f"Your vote counts: {line}"

    # -- playing --------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, seat: int, decision: int,
                  action: str) -> list[Event]:
        """A person's click: checked, stored, then shown. Refusals raise TableError."""
        table = self.get(table_id)
        async with table.lock:
            if table.closed:
                raise StaleAction("That table has finished.")
            if table.status != PLAYING:
                raise TableError("The match has not started yet.")
            self._check_seat_number(table, seat)
            info = table.seats[seat]
            if info is None or info.user_id != user_id:
                if table.seat_of(user_id) is None:
                    raise TableError("You are not playing at this table.")
                raise TableError("That is not your seat.")
            if decision != table.decisions[seat]:
                raise StaleAction("That has moved on.")
            # Whose turn it is, and why not, is the engine's to say ("Your partner plays
            # dummy's cards.").
            return await self._apply(table, seat, action, actor="user", user_id=user_id)

    # -- restart --------------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Rebuild every unfinished table from its action log; skip (and log) broken ones."""
        # Loading and replaying make many objects and no garbage: cyclic collections
        # would only walk them again and again (a fifth of the time for 1000 tables).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return await self._restore()
        finally:
            if collecting:
                gc.enable()

    async def _restore(self) -> list[Table]:
        loaded = await self.store.load_unfinished()
        restored: list[Table] = []
        for match_id, bundle in sorted(loaded.items()):
            if isinstance(bundle, Exception):
                log.error("table %s: unreadable in the store (%s); skipped", match_id, bundle)
                continue
            try:
                table = self._rebuild(bundle.match, bundle.seats, bundle.actions)
            except Exception:
                log.exception("table %s: could not be rebuilt from its log; left as it is",
                              match_id)
                continue
            if self.in_channel(table.channel_id) is not None:
                log.warning("table %s: another table holds channel %s; not restored",
                            match_id, table.channel_id)
                continue
            self._register(table)
            restored.append(table)
        for table in restored:
            if table.status == PLAYING:
                self._kick(table)
        return restored

    def _rebuild(self, row: Any, seats: Sequence[Any], actions: Sequence[Any]) -> Table:
        game = create(row.game, options=row.options, seed=row.seed)
        for action in actions:
            game.apply(action.seat, action.action)
        seat_infos: list[SeatInfo | None] = [None] * game.SEATS
        for s in seats:
            seat_infos[s.seat] = SeatInfo(name=s.display_name, user_id=s.user_id,
                                          bot_kind=s.bot_kind, left_user_id=s.left_user_id)
        table = Table(id=row.id, game_name=row.game, options=dict(row.options), seed=row.seed,
                      guild_id=row.guild_id, channel_id=row.thread_id or row.channel_id,
                      creator_id=row.creator_id,
                      settings=TableSettings.from_dict(row.settings), game=game,
                      seats=seat_infos, status=row.status, message_id=row.message_id)
        return table

    async def set_message(self, table: Table, message_id: int) -> None:
        table.message_id = message_id
        await self.store.set_message(table.id, message_id)

    async def shutdown(self) -> None:
        """Stop every timer and computer player (the state is already stored)."""
        for table in self.tables.values():
            self._stop_tasks(table)
        tasks = [t for table in self.tables.values() for t in
                 [table.driver, *table.timers.values()] if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- the heart: apply one action ------------------------------------------------

    async def _apply(self, table: Table, seat: int, action: str, *, actor: Actor,
                     user_id: int | None = None) -> list[Event]:
        seq = table.seq
        try:
            events = table.game.apply(seat, action)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        stored = table.game.history[-1][1]
        try:
            await self.store.append_action(table.id, seq, seat, stored, actor, user_id)
        except Exception:
            log.exception("table %s: could not store action %s; rebuilding from the log",
                          table.id, stored)
            await self._reload(table)
            raise TableError("Your move could not be saved, so the table is unchanged. "
                             "Please try again.") from None
        table.decisions[seat] += 1
        for event in events:
            if event.kind == "deal_end":
                # The log shows the deal in progress; the finished one gets its own message.
                table.recent.clear()
            if event.text and event.kind != "action":
                table.recent.append(event.text)
            elif event.kind == "action" and event.text:
                table.recent.append(self._with_name(table, seat, event.text, actor))
        for event in events:
            if event.kind == "deal_end":
                await self._record_deal(table, event)
        if table.game.finished:
            await self._finish(table, events)
        else:
            self.observer.table_changed(table, events)
            self._kick(table)
        return events

    def _with_name(self, table: Table, seat: int, text: str, actor: Actor) -> str:
        info = table.seats[seat]
        name = info.name if info is not None else "?"
        seat_name = table.game.seat_name(seat)
        line = text.replace(seat_name, f"{seat_name} ({name})", 1) if seat_name in text else text
        return f"⏱ {line} (time ran out)" if actor == "timer" else line

    async def _record_deal(self, table: Table, event: Event) -> None:
        lines = event.data.get("lines") or ()
        points = [sum(line.points[i] for line in lines) for i in range(len(table.game.SIDES))]
        detail = {"lines": [{"label": line.label, "points": list(line.points),
                             "note": line.note} for line in lines],
                  "hands": event.data.get("hands")}
        try:
            await self.store.record_deal(table.id, int(event.data.get("deal_no", 0)),
                                         points, detail)
        except Exception:  # derived data: the action log still holds the truth
            log.exception("table %s: could not record a deal result", table.id)

    async def _finish(self, table: Table, events: Sequence[Event]) -> None:
        result = table.game.result()
        assert result is not None
        players = []
        for seat, info in enumerate(table.seats):
            side = table.game.side_of(seat)
            players.append(PlayerResult(
                seat=seat, side=side, user_id=info.user_id if info else None,
                bot_kind=info.bot_kind if info else None, rank=result.ranks[side],
                points=result.totals[side]))
        summary = {"sides": list(result.sides), "side_seats": [list(s) for s in
                                                               result.side_seats],
                   "totals": list(result.totals), "ranks": list(result.ranks),
                   "summary": result.summary}

        async def hooks(conn: Any) -> None:
            for hook in self.finish_hooks:
                await hook(conn, table)

        await self.store.finish_match(table.id, status=FINISHED, result=summary,
                                      winner_side=result.winner, players=players,
                                      extra=hooks if self.finish_hooks else None)
        table.status = FINISHED
        self._stop_tasks(table)
        self._unregister(table)
        self.observer.table_changed(table, events)
        self.observer.table_closed(table)

    async def _close(self, table: Table, status: Status) -> None:
        await self.store.set_status(table.id, status)
        table.status = status
        self._stop_tasks(table)
        self._unregister(table)
        self.observer.table_closed(table)

    async def _reload(self, table: Table) -> None:
        """Make the in-memory game equal to what the store holds (after a failed write)."""
        actions = await self.store.actions(table.id)
        game = create(table.game_name, options=table.options, seed=table.seed)
        for action in actions:
            game.apply(action.seat, action.action)
        table.game = game
        table.decisions = [0] * game.SEATS
        for seat, _ in game.history:
            table.decisions[seat] += 1

    # -- computer players and timers ------------------------------------------------

    def _player(self, table: Table, seat: int) -> Player:
        key = (table.id, seat)
        player = self._players.get(key)
        if player is None:
            player = make_player(table.game_name, table.seed * 7 + seat)
            self._players[key] = player
        return player

    def _bot_seats(self, table: Table) -> list[int]:
        if table.status != PLAYING or table.game.finished:
            return []
        return [s for s in sorted(table.game.to_act())
                if (info := table.seats[s]) is not None and info.is_bot]

    def _kick(self, table: Table) -> None:
        """After any change: let computer players act, and (re)arm turn timers."""
        self._arm_timers(table)
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
                    log.exception("table %s: computer player at seat %s failed", table.id,
                                  seat)
                    table.driver = None
                    return

    async def _bot_act(self, table: Table, seat: int, actor: Actor) -> None:
        legal = table.game.legal(seat)
        if not legal:
            return
        try:
            choice = self._player(table, seat).choose(table.game.view(seat), legal)
        except Exception:
            log.exception("table %s: computer player raised; playing its first legal action",
                          table.id)
            choice = legal[0]
        if choice not in legal:
            log.error("table %s: computer player chose %r, not legal; using %r", table.id,
                      choice, legal[0])
            choice = legal[0]
        await self._apply(table, seat, choice, actor=actor)

    def _arm_timers(self, table: Table) -> None:
        timeout = table.settings.turn_timeout
        waiting = set(table.waiting_on()) if timeout > 0 else set()
        for seat, task in list(table.timers.items()):
            if seat not in waiting or task.done():
                task.cancel()
                del table.timers[seat]
        for seat in waiting:
            info = table.seats[seat]
            if info is None or info.is_bot or seat in table.timers:
                continue
            table.timers[seat] = asyncio.create_task(
                self._timer(table, seat, table.decisions[seat], timeout),
                name=f"table-{table.id}-timer-{seat}")

    async def _timer(self, table: Table, seat: int, decision: int, timeout: float) -> None:
        await asyncio.sleep(timeout)
        async with table.lock:
            if table.timers.get(seat) is asyncio.current_task():
                del table.timers[seat]
            if (table.status != PLAYING or table.decisions[seat] != decision
                    or seat not in table.game.to_act()):
                return
            try:
                await self._bot_act(table, seat, actor="timer")
            except Exception:
                log.exception("table %s: the turn timer could not act for seat %s",
                              table.id, seat)

    def _stop_tasks(self, table: Table) -> None:
        for task in table.timers.values():
            task.cancel()
        table.timers.clear()
        current = asyncio.current_task()
        if table.driver is not None and table.driver is not current:
            table.driver.cancel()
        table.driver = None

    # -- small helpers --------------------------------------------------------------

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def _unregister(self, table: Table) -> None:
        # A closed table is forgotten: its old buttons then get "that table has finished".
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        for seat in range(table.game.SEATS):
            self._players.pop((table.id, seat), None)

    async def _seat(self, table: Table, seat: int, info: SeatInfo) -> None:
        await self.store.set_seat(table.id, seat, user_id=info.user_id,
                                  bot_kind=info.bot_kind, display_name=info.name,
                                  left_user_id=info.left_user_id)
        table.seats[seat] = info

    async def _unseat(self, table: Table, seat: int) -> None:
        await self.store.clear_seat(table.id, seat)
        table.seats[seat] = None

    async def _take_back(self, table: Table, person: Person) -> int:
        seat = table.left_seat_of(person.user_id)
        if seat is None:
            if table.seat_of(person.user_id) is not None:
                raise TableError("You are already playing at this table.")
            raise TableError("This match has started, so its seats are taken; you can "
                             "watch, and join the next table.")
        await self._seat(table, seat, SeatInfo(name=person.name, user_id=person.user_id))
        line = f"{person.name} is back at {table.game.seat_name(seat)}."
        table.recent.append(line)
        self.observer.table_changed(table, (Event("seat_change", line, seat),))
        self._kick(table)
        return seat

    @staticmethod
    def _check_seat_number(table: Table, seat: int) -> None:
        if not 0 <= seat < table.game.SEATS:
            raise TableError("There is no such seat at this table.")

    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.status != LOBBY:
            raise TableError("The match has already started.")

    @staticmethod
    def _require_member(table: Table, user_id: int) -> None:
        if user_id != table.creator_id and table.seat_of(user_id) is None:
            raise TableError("Only people sitting at this table can do that.")
