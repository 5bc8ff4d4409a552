"""The life of every table: playing, the end, restart (lobby: lobby.py; turns: turns.py).

Rules of the house, enforced here for every game alike:
- an action is checked by the engine, written to the store, and only then shown (the
  observer is told after the store has committed it);
- one lock per table, so concurrent or double clicks apply once and in order;
- a click carries the seat's decision number, so a button from a moment that has passed
  is recognised as stale instead of being applied to a new situation.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.games import Event, Game, IllegalAction, create, game_class, replayed
from bot.games.events import Acted, DealEnded, RequestEnded
from bot.games.requests import NO_UNDO_LIMIT, UNDO_LIMIT
from bot.store import (
    Actor,
    MatchBundle,
    PlayerResult,
    Rater,
    ServerSettingsRow,
    Shards,
    Status,
    Store,
)

from . import requests
from .begun import Begun
from .clock import Clock
from .lobby import Lobby
from .model import (
    ABANDONED,
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    SeatInfo,
    StaleAction,
    Table,
    TableError,
    TableSettings,
)
from .servers import ServerRules
from .thinking import THINK_SECONDS, Setup
from .turns import TurnFlow

log = logging.getLogger(__name__)
T = TypeVar("T")

# Why a table that is not open here refused a click, by its status in the store.
GONE = {
    FINISHED: "That table has finished; start a new one with /play.",
    ABANDONED: "That match was abandoned; start a new one with /play.",
    CANCELLED: "That table was cancelled; start a new one with /play.",
}
NOT_A_MOVE = "That button does not hold a move you can make now."

FinishHook = Callable[[Table], Rater]
"""Called as a table finishes: the Rater whose changes the store writes in the same
transaction as the result (ratings use it)."""


class TableObserver(Protocol):
    """Told about every change after it is stored. Must not block: schedule, don't await."""

    def table_changed(self, table: Table, events: Sequence[Event]) -> None: ...

    def table_closed(self, table: Table) -> None: ...


class _NullObserver:
    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        pass

    def table_closed(self, table: Table) -> None:
        pass


@dataclass(slots=True)
class _Applying:
    """An action applied to its table's game whose write has begun (see `_begin`)."""

    seat: int
    stored: str  # the action as logged
    actor: Actor
    now: float  # when it was made (the clock's)
    events: list[Event]
    write: Begun[None]


class TableService:
    """Every live table of this bot, keyed by id and by channel (one table per channel).

    The lobby and seat operations are its `lobby` (a `Lobby`), computer players and
    timers its `turns` (a `TurnFlow`); this class holds the tables, checks clicks and
    applies actions."""

    def __init__(self, store: Store, *, bot_delay: float = 1.0,
                 think_seconds: float = THINK_SECONDS,
                 think_processes: int = 0, worker_setup: Setup = (),
                 observer: TableObserver | None = None,
                 seed_source: Callable[[], int] | None = None,
                 shards: Shards | None = None, clock: Clock | None = None) -> None:
        self.store = store
        self._stopped = False  # shutdown() has run: every table is stopped for good
        self.clock = clock or Clock()
        # The servers this process serves (None: all); other processes restore the rest.
        self.shards = shards
        self.observer: TableObserver = observer or _NullObserver()
        # Told after the observer, of changes and closes (a team match follows its tables).
        self.watchers: list[TableObserver] = []
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.finish_hooks: list[FinishHook] = []
        # worker_setup: what the off-loop work wants done once where it runs (the app's
        # deal pictures draw their cached pieces ahead there).
        self.turns = TurnFlow(self._apply_for, bot_delay, think_seconds, self.clock,
                              think_processes, worker_setup)
        self.new_seed: Callable[[], int] = (
            seed_source or (lambda: random.SystemRandom().getrandbits(48)))
        self.lobby = Lobby(self)
        self.servers = ServerRules(store, changed=self._server_changed)
        # The waits after a rejected or withdrawn request, each ending in a redraw.
        self._cool_downs: set[asyncio.Task[None]] = set()

    # -- looking tables up ----------------------------------------------------------

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise StaleAction("That table has finished; start a new one with /play.")
        return table

    async def fetch(self, table_id: int) -> Table:
        """`get`, with a refusal that says what became of a table that is not open here
        (finished, abandoned, cancelled, or never one of ours), as the store knows it."""
        table = self.tables.get(table_id)
        if table is not None and not table.closed:
            return table
        raise StaleAction(await self._gone(table_id))

    async def _gone(self, table_id: int) -> str:
        try:
            row = await self.store.get_match(table_id)
        except Exception:  # a refusal needs no exact reason: say what is always true
            log.warning("table %s: could not read it for a refusal", table_id, exc_info=True)
            return "That table is not open any more; start a new one with /play."
        if row is None:
            return f"There is no table #{table_id}: that button is not one of TrickTable's."
        return GONE.get(row.status, "That table is not open any more (it could not be "
                                    "restored); start a new one with /play.")

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id is not None else None

    # -- playing --------------------------------------------------------------------

    def current(self, table_id: int, user_id: int, seat: int, decision: int) -> Table:
        """The table of a click made for `seat` at its `decision`-th decision, if that
        click is still current: the person sits there and the seat has not moved on.
        Refusals raise TableError (StaleAction for a moment that has passed)."""
        table = self.get(table_id)
        if table.status != PLAYING:
            raise TableError("The match has not started yet.")
        table.check_seat(seat)
        info = table.seats[table.decider(seat)]  # human declares: the person opposite
        if info is None or info.user_id != user_id:
            if table.seat_of(user_id) is None:
                raise TableError("You are not playing at this table.")
            raise TableError("That is not your seat.")
        if decision != table.decisions[seat]:
            raise StaleAction("That has moved on.")
        return table

    async def act(self, table_id: int, user_id: int, seat: int, decision: int,
                  action: str) -> list[Event]:
        """A person's click: checked, stored, then shown. Refusals raise TableError."""
        table = self.get(table_id)
        judged = await self._judged(table, user_id, seat, decision, action)
        async with table.lock:
            action = await self._checked(table, user_id, seat, decision, action, judged)
            return await self._apply(table, seat, action, actor="user", user_id=user_id)

    async def act_and_show(self, table_id: int, user_id: int, seat: int, decision: int,
                           action: str, show: Callable[[Table], T]) -> T:
        """`act`, then `show(table)` before the table's lock is let go: what it builds (the
        click's answer) shows the table as this action left it, and waits for nothing
        queued for the lock meanwhile (a computer player's move and its write, a timer,
        a redraw), as building it under a second hold of the lock would.

        It is built while the action's write is on its way (a round trip on PostgreSQL),
        and returned only once the write has committed: on a failed write the TableError
        is raised and what was built is dropped. A move that ends the match is shown
        after its write, once the table is closed."""
        table = self.get(table_id)
        judged = await self._judged(table, user_id, seat, decision, action)
        async with table.lock:
            action = await self._checked(table, user_id, seat, decision, action, judged)
            applying = self._begin(table, seat, action, actor="user", user_id=user_id)
            built: tuple[T] | None = None
            try:
                if not applying.write.failed and not table.game.finished:
                    built = (show(table),)
            finally:
                await self._complete(table, applying)
            return built[0] if built is not None else show(table)

    async def _judged(self, table: Table, user_id: int, seat: int, decision: int,
                      action: str) -> requests.Judged | None:
        """A person's claim is checked double dummy before the table's lock is taken: the
        check may wait for a busy worker, and no other click at the table (nor a
        computer player) waits behind it. None for any other click."""
        if not requests.takes_long(action):
            return None
        async with table.lock:
            self.current(table.id, user_id, seat, decision)
            position, seq = requests.claim_to_judge(table.game, seat, action), table.seq
        return await requests.judge(self.turns.thinking, position, seat, action, seq)

    async def _checked(self, table: Table, user_id: int, seat: int, decision: int,
                       action: str, judged: requests.Judged | None = None) -> str:
        """A click's checks, under the table's lock: the action to apply for it."""
        self.current(table.id, user_id, seat, decision)
        action = requests.answered(table.game, action)  # of the request still asked?
        if requests.is_request(action):  # a claim or undo: asked out of turn
            recorded = await requests.to_record(table.game, seat, action, self.turns.thinking,
                                                table.seq, judged)
            wait = requests.cool_down_refusal(table.ask_again_at.get(seat),
                                              self.clock.now(), recorded)
            if wait is not None:
                raise TableError(wait)
            return recorded
        # A seat's buttons are exactly its legal actions: any other action while it
        # has some is not from our buttons (and the engine would name it in its own
        # terms). Whose turn it is, and why not, is the engine's to say ("Your
        # partner plays dummy's cards.").
        legal = table.game.legal(seat)
        if legal and action not in {str(move) for move in legal}:
            raise TableError(NOT_A_MOVE)
        return action

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
        loaded = await self.store.load_unfinished(self.shards)
        restored: list[Table] = []
        for match_id, bundle in sorted(loaded.items()):
            if isinstance(bundle, Exception):
                log.error("table %s: unreadable in the store (%s); skipped", match_id, bundle)
                continue
            try:
                table, last = self._rebuild(bundle)
            except Exception:
                log.exception("table %s: could not be rebuilt from its log; left as it is",
                              match_id)
                continue
            if self.in_channel(table.channel_id) is not None:
                log.warning("table %s: another table holds channel %s; not restored",
                            match_id, table.channel_id)
                continue
            self.register(table)
            if table.status == LOBBY:  # what its lobby offers
                table.server = await self.servers.get(table.guild_id)
            await self._catch_up(table, last)
            if not table.closed:
                restored.append(table)
        for table in restored:
            if table.status == PLAYING:
                self.turns.kick(table)
        return restored

    async def _catch_up(self, table: Table, last: Sequence[Event]) -> None:
        """Write what the log's last action led to, in case the process that made it died
        between its write and theirs: its deal's result (written again if it was) and the
        match's end (else a match over in its log would wait for a move forever). Only the
        last action can be behind: each action's follow-ups are written before the next
        action, under the table's lock."""
        for event in last:
            if isinstance(event, DealEnded):
                await self._record_deal(table, event)
        if table.game.finished:
            log.info("table %s: its log ends the match; finishing it now", table.id)
            await self._finish(table, last)

    def _rebuild(self, bundle: MatchBundle) -> tuple[Table, list[Event]]:
        """The table as its log leaves it, and the events of the log's last action."""
        row, last_action_at = bundle.match, bundle.last_action_at
        settings = TableSettings.from_dict(row.settings)
        options = options_as_stored(row.game, row.options)
        game = create(row.game, options=options, seed=settings.deal_source(row.seed))
        last, deal_began = _replay(game, bundle.log)
        seat_infos: list[SeatInfo | None] = [None] * game.SEATS
        for s in bundle.seats:
            seat_infos[s.seat] = SeatInfo(name=s.display_name, user_id=s.user_id,
                                          bot_kind=s.bot_kind, left_user_id=s.left_user_id)
        table = Table(id=row.id, game_name=row.game, options=options, seed=row.seed,
                      guild_id=row.guild_id, channel_id=row.thread_id or row.channel_id,
                      creator_id=row.creator_id,
                      settings=settings, game=game,
                      seats=seat_infos, status=row.status, message_id=row.message_id,
                      people_played=_played_since(deal_began, bundle.last_by_person))
        # The current wait began with the last stored action (or the start): timers and
        # pings count from there, whatever the restart cost.
        began = [at.timestamp() for at in (row.started_at, last_action_at) if at is not None]
        table.since = max(began) if began else self.clock.now()
        return table, last

    async def off_loop(self, work: Callable[..., T], *args: Any) -> T:
        """CPU-heavy work that is no click's (a deal's picture, its double-dummy verdict)
        in the computer players' worker processes: in a thread of the bot process its
        Python parts would hold the GIL against the event loop and every click. `work`
        and its arguments must pickle (module-level functions, plain data)."""
        return await self.turns.thinking.run(work, *args)

    async def set_message(self, table: Table, message_id: int) -> None:
        table.message_id = message_id
        await self.store.set_message(table.id, message_id)

    async def shutdown(self, grace: float = 3.0) -> None:
        """Stop every timer and computer player (the state is already stored). An action
        in flight (a click or a computer player applying its move, under the table's lock)
        first finishes its write: each table's lock is taken, for up to `grace` seconds in
        all, and kept, so nothing starts after."""
        if self._stopped:
            return
        self._stopped = True
        tables = list(self.tables.values())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_hold_locks(tables), grace)
        for table in tables:
            self.turns.stop(table)
        tasks = [t for table in self.tables.values() for t in
                 [table.driver, *(t for _, t in table.timers.values())] if t is not None]
        tasks += self._cool_downs
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.turns.thinking.close()

    # -- the heart: apply one action ------------------------------------------------

    async def _apply(self, table: Table, seat: int, action: str, *, actor: Actor,
                     user_id: int | None = None) -> list[Event]:
        return await self._complete(table, self._begin(table, seat, action, actor=actor,
                                                       user_id=user_id))

    def _begin(self, table: Table, seat: int, action: str, *, actor: Actor,
               user_id: int | None = None) -> _Applying:
        """Apply the action to the game and begin its write (sent, not yet committed);
        `_complete` must follow. The seat's decision number and the seats people played
        from this deal move on with the game (a failed write rebuilds all from the log)."""
        seq = table.seq
        try:
            events = table.game.apply(seat, action)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        stored = table.game.history[-1][1]
        now = self.clock.now()
        write = Begun(self.store.append_action(table.id, seq, seat, stored, actor, user_id,
                                               at=self.clock.moment(now)))
        table.decisions[seat] += 1
        if actor == "user":
            table.people_played.add(seat)
        if any(isinstance(event, DealEnded) for event in events):
            table.people_played.clear()
        return _Applying(seat, stored, actor, now, events, write)

    async def _complete(self, table: Table, applying: _Applying) -> list[Event]:
        """Once the action's write has committed, tell everything that follows it."""
        seat, actor, events = applying.seat, applying.actor, applying.events
        try:
            await applying.write
        except Exception:
            log.exception("table %s: could not store action %s; rebuilding from the log",
                          table.id, applying.stored)
            await self._reload(table)
            raise TableError("Your move could not be saved, so the table is unchanged. "
                             "Please try again.") from None
        table.since = applying.now
        for event in events:
            if isinstance(event, DealEnded):
                # The log shows the deal in progress; the finished one gets its own message.
                table.recent.clear()
            if isinstance(event, Acted):
                if event.text:
                    table.recent.append(self._with_name(table, seat, event.text, actor))
            elif event.text:
                table.recent.append(event.text)
            if isinstance(event, RequestEnded) and event.outcome in requests.COOLING_OUTCOMES:
                self._cool_down(table, event.asker, applying.now + requests.COOL_DOWN)
        for event in events:
            if isinstance(event, DealEnded):
                await self._record_deal(table, event)
        if table.game.finished:
            await self._finish(table, events)
        else:
            self._changed(table, events)
            self.turns.kick(table)
        return events

    def _cool_down(self, table: Table, seat: int, until: float) -> None:
        """`seat` may ask again (a claim to the opponents, an undo) only from `until`: its
        hand shows that meanwhile, and the table is redrawn when the moment comes."""
        table.ask_again_at[seat] = until
        task = asyncio.create_task(self._cooled(table, seat, until),
                                   name=f"table-{table.id}-cool-down-{seat}")
        self._cool_downs.add(task)
        task.add_done_callback(self._cool_downs.discard)

    async def _cooled(self, table: Table, seat: int, until: float) -> None:
        await self.clock.sleep_until(until)
        if table.ask_again_at.get(seat) != until:  # a later wait replaced this one
            return
        del table.ask_again_at[seat]
        if not table.closed:
            self._changed(table, ())

    async def _apply_for(self, table: Table, seat: int, action: str,
                         actor: Actor) -> list[Event]:
        """`_apply` for the turn flow: a computer player or a timer acting."""
        return await self._apply(table, seat, action, actor=actor)

    def _with_name(self, table: Table, seat: int, text: str, actor: Actor) -> str:
        info = table.seats[seat]
        name = info.name if info is not None else "?"
        seat_name = table.game.seat_name(seat)
        line = text.replace(seat_name, f"{seat_name} ({name})", 1) if seat_name in text else text
        return f"⏱ {line} (time ran out)" if actor == "timer" else line

    async def _record_deal(self, table: Table, event: DealEnded) -> None:
        lines = event.lines
        points = [sum(line.points[i] for line in lines) for i in range(len(table.game.SIDES))]
        detail = {"lines": [{"label": line.label, "points": list(line.points),
                             "note": line.note} for line in lines],
                  "hands": event.stored_hands()}
        try:
            await self.store.record_deal(table.id, event.deal_no, points, detail)
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

        await self.store.finish_match(table.id, status=FINISHED, result=summary,
                                      winner_side=result.winner, players=players,
                                      raters=[hook(table) for hook in self.finish_hooks])
        table.status = FINISHED
        self.turns.stop(table)
        self.unregister(table)
        self._changed(table, events)
        self._closed(table)

    async def close(self, table: Table, status: Status) -> None:
        await self.store.set_status(table.id, status)
        table.status = status
        self.turns.stop(table)
        self.unregister(table)
        self._closed(table)

    def tables_in(self, *, channel_id: int | None = None,
                  guild_id: int | None = None) -> list[Table]:
        """The open tables in a channel or thread, or in a server."""
        return [table for table in self.tables.values() if not table.closed and (
            table.channel_id == channel_id or table.guild_id == guild_id)]

    async def abandon_lost(self, tables: Sequence[Table]) -> None:
        """Close tables the bot can no longer reach (their channel or thread deleted, the
        bot removed from their server) as abandoned: stored so, so a restart leaves them
        closed; abandoned matches do not count."""
        for table in tables:
            async with table.lock:
                if not table.closed:
                    log.info("table %s: its channel %s is gone; abandoned", table.id,
                             table.channel_id)
                    await self.close(table, ABANDONED)

    async def _reload(self, table: Table) -> None:
        """Make the in-memory game equal to what the store holds (after a failed write)."""
        actions = await self.store.actions(table.id)
        game = create(table.game_name, options=table.options, seed=table.deal_source)
        _last, deal_began = _replay(game, [(action.seat, action.action) for action in actions])
        table.game = game
        table.decisions = [0] * game.SEATS
        for seat, _ in game.history:
            table.decisions[seat] += 1
        table.people_played = _played_since(
            deal_began, {action.seat: action.seq for action in actions if action.actor == "user"})

    # -- small helpers --------------------------------------------------------------

    def _changed(self, table: Table, events: Sequence[Event]) -> None:
        for observer in (self.observer, *self.watchers):
            observer.table_changed(table, events)

    def _closed(self, table: Table) -> None:
        for observer in (self.observer, *self.watchers):
            observer.table_closed(table)

    def _server_changed(self, row: ServerSettingsRow) -> None:
        """A server's admins changed its settings: its open lobbies offer what they allow."""
        for table in self.tables_in(guild_id=row.guild_id):
            table.server = row
            if table.status == LOBBY:
                self._changed(table, ())

    def register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def unregister(self, table: Table) -> None:
        # A closed table is forgotten: its old buttons then get "that table has finished".
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.turns.forget(table)


def options_as_stored(game_name: str, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A stored table's options for its rebuild. A table stored before the undo limit
    existed was played without one, and its log may hold more requests than the default
    allows: it goes on with no limit rather than failing to replay."""
    options = dict(stored)
    if UNDO_LIMIT in game_class(game_name).OPTIONS and UNDO_LIMIT.name not in options:
        options[UNDO_LIMIT.name] = NO_UNDO_LIMIT
    return options


def _replay(game: Game[Any], log: Sequence[tuple[int, str]]) -> tuple[list[Event], int]:
    """Replay `log` into the fresh `game`: the events of its last action, and the number
    (seq) of the current deal's first action (0 while the first deal lasts)."""
    last: list[Event] = []
    deal_began = 0
    for seq, events in enumerate(replayed(game, log)):
        for event in events:
            if isinstance(event, DealEnded):
                deal_began = seq + 1
        last = events
    return last, deal_began


def _played_since(deal_began: int, last_by_person: Mapping[int, int]) -> set[int]:
    """`Table.people_played` of a rebuilt table: the seats whose last action a person made
    (its seq, by seat) is in the current deal."""
    return {seat for seat, seq in last_by_person.items() if seq >= deal_began}


async def _hold_locks(tables: Sequence[Table]) -> None:
    """Take every table's lock in turn (each held until the process ends)."""
    for table in tables:
        await table.lock.acquire()
