"""What the bot sends on its own: the public table message, end-of-deal and end-of-match
posts, and people's private hands kept live.

The table service tells the publisher about every stored change (`table_changed`). It
then edits the public table message (coalesced to about one edit a second per table,
always showing the latest state), posts end-of-deal and end-of-match messages in order,
and refreshes each seated person's private hand through the interaction token that
showed it (ephemeral messages can only be edited that way, and only for 15 minutes).
Answering clicks comes first: a table's update waits for a moment with no click being
answered (`answering`) before it begins and before it builds each message (at most
PUBLISH_DEFER in all), and few tables publish at once.

A table message never freezes: each deal, and before the message is an hour old (Discord
then takes only a few more edits), the table is posted afresh and the old message becomes
a line pointing to it. An edit Discord refuses is handled by its cause: a deleted or
frozen message is posted afresh; lost access or permission pauses the table's channel
messages (said once, no retries) until someone uses /table.

Discord's rate limits: every write to a channel is paced to its budget (pacing.py); what
is sent is built after the wait, so it is the latest state. A 429 that reaches us anyway
keeps what was to be sent and tries again after Discord's `retry_after`. The table
message is written by one writer at a time (`table_write`): the publisher's edit and a
click's redraw of it never cross, so it never shows an older state after a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.ai import level_label, player_kinds
from bot.games import Event
from bot.games.events import DealEnded, MatchEnded
from bot.handrecord import HAND_RECORD_GAMES, OutOfTime, deal_verdict
from bot.render import ids
from bot.render import messages as render
from bot.render.components import TableButton, button
from bot.render.rules import options_line
from bot.render.seating import Seating
from bot.tables import LOBBY, Table, TableService
from bot.tables.explain import call_notes

from .card_emojis import fall_back, refused
from .edits import edit_channel_message, edit_original_response, fingerprint
from .pacing import CHANNEL_WINDOW, ChannelPacer

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

T = TypeVar("T")
TOKEN_LIFETIME = 14 * 60  # seconds we trust an interaction token (Discord: 15 minutes)
# A hand keeps the token it was reached through while younger than this, rather than take
# each click's: discord.py keeps a rate-limit bucket per token for five minutes, so a new
# token per click had cost about a kilobyte per click for five minutes.
TOKEN_KEPT = 10 * 60
PUBLISHERS = 4  # tables whose messages are being updated at one time
PUBLISH_DEFER = 1.0  # longest a table's update waits for a moment without clicks (s)
# Discord allows only a few edits to a message older than an hour (then error 30046), so a
# table message this old is replaced by a fresh one while its retirement edit still works.
FRESH_AFTER = 50 * 60  # seconds
GONE = {10008, 30046}  # unknown message; too many edits of an old message: post afresh
# An end-of-deal post goes out at once; its double-dummy line is edited in when ready, if
# that takes at most this long (s) from the deal's end: later than that, the deal is far
# behind the table. The work itself stops then too (between two solves), so a slow
# analysis does not keep a worker and the solver busy after it is given up.
ANALYSIS_WAIT = 30.0
FORBIDDEN = {50001, 50013}  # missing access, missing permissions: pause, never retry
RATE_LIMITED = 429
UNKNOWN_CHANNEL = 10003  # the channel or thread was deleted: the table is abandoned
REDRAW_WAIT = 1.0  # longest a click's redraw waits for the publisher's edit in flight (s)


def retry_after(error: discord.HTTPException) -> float:
    """Seconds Discord asked us to wait after a 429 (its header; 1 s if unreadable)."""
    try:
        wait = float(error.response.headers.get("Retry-After", 1.0))
    except (AttributeError, TypeError, ValueError):
        wait = 1.0
    return min(max(wait, 0.0), 60.0)


@dataclass(slots=True)
class HandSession:
    """The last private hand message a person has for a table (edited in place through
    the interaction that showed it: its application id and token are all that needs)."""

    application_id: int
    token: str
    seat: int
    created: float  # when the token was issued (monotonic clock)
    message_id: int | None = None  # the hand message, when known
    group: str | None = None
    # The seat whose moves the hand shows (declarer's under human declares) and its
    # decision number: a move there closes an open group of buttons.
    decision: tuple[int, int] = (-1, -1)
    shown: int | None = None  # the fingerprint of what the message shows now


def seating_of(table: Table) -> Seating:
    return Seating(
        seat_names=tuple(table.game.SEAT_NAMES),
        names=tuple(info.name if info else None for info in table.seats),
        user_ids=tuple(info.user_id if info else None for info in table.seats),
        bots=tuple(bool(info and info.is_bot) for info in table.seats),
        away=any(info is not None and info.left_user_id for info in table.seats),
        call_notes=call_notes(table))


def options_text(table: Table) -> str:
    parts = [options_line(table.options)] if table.options else []
    settings = table.settings
    if settings.slow_pace:
        parts.append(f"slow play: {settings.turn_timeout / 3600:g} h per turn")
    elif settings.turn_timeout:
        parts.append(f"turn timer: {int(settings.turn_timeout)}s")
    return ("Options — " + ", ".join(parts) + ".") if parts else ""


def table_message(table: Table) -> render.Message:
    """The table's public message as it should look now."""
    game = table.game
    if table.status == LOBBY:
        return render.lobby(table.id, game.TITLE, [s.name if s else None for s in table.seats],
                            game.SEAT_NAMES, game.SIDES, game.SIDE_NAMES,
                            creator=_creator_name(table), options_text=options_text(table),
                            can_start=table.is_full(),
                            bot_levels=[(kind, level_label(kind))
                                        for kind in player_kinds(table.game_name)])
    closed = {"finished": "The match is over. Start another with /play.",
              "abandoned": "This match was abandoned.",
              "cancelled": "This table was cancelled."}.get(table.status, "")
    return render.public_table(table.id, table.game_name, game.TITLE, game.view(None),
                               seating_of(table), list(table.recent),
                               # whom it waits for: under human declares, the person
                               [table.decider(seat) for seat in table.waiting_on()],
                               closed_note=closed,
                               decisions=table.decisions)


def deal_buttons(table: Table, event: DealEnded) -> list[TableButton]:
    """Buttons under an end-of-deal message: the bridge games' hand record (cogs/records)."""
    if table.game_name not in HAND_RECORD_GAMES:
        return []
    return [button(ids.make("rec", table.id, event.deal_no), "Hand record")]


def post_mortem(table: Table, event: DealEnded) -> Callable[[], str | None] | None:
    """The bridge games' double-dummy verdict on a deal that just ended (the cards that
    cost a trick), worked out off the event loop from the log as it stands now (plain
    data bound to a module-level function: it can be handed to a worker process). It
    stops ANALYSIS_WAIT seconds after the deal's end (wall clock: the same in a worker)."""
    if table.game_name not in HAND_RECORD_GAMES:
        return None
    return functools.partial(deal_verdict, table.game_name, dict(table.options),
                             table.deal_source, list(table.game.history), event.deal_no,
                             time.time() + ANALYSIS_WAIT)


def decision_of(table: Table, seat: int) -> tuple[int, int]:
    """The seat a person at `seat` acts for now, and its decision number."""
    acting = table.acting_seat(seat)
    return acting, table.decisions[acting]


async def snapshot(table: Table, build: Callable[[], T]) -> T:
    """Build a message from stored state only. The service changes a table (engine, then
    store) while holding its lock, so what is built under the lock never shows a move
    that is not yet committed."""
    async with table.lock:
        return build()


def _creator_name(table: Table) -> str:
    seat = table.seat_of(table.creator_id)
    info = table.seats[seat] if seat is not None else None
    return info.name if info else f"<@{table.creator_id}>"


class Publisher:
    """The service's observer: keeps every table's messages and hands up to date."""

    def __init__(self, bot: TrickTableBot, service: TableService, edit_interval: float,
                 channel_write_window: float = CHANNEL_WINDOW) -> None:
        self.bot = bot
        self.service = service
        self.edit_interval = edit_interval
        self._dirty: set[int] = set()
        self._flushers: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._publishing = asyncio.Semaphore(PUBLISHERS)
        self._answering = 0  # clicks being answered now
        self._quiet = asyncio.Event()  # set while no click is being answered
        self._quiet.set()
        self._outbox: dict[int, list[render.Message]] = {}
        # table id -> user id -> their hand session (by table: a flush touches one table)
        self.hands: dict[int, dict[int, HandSession]] = {}
        # table id -> (message id, fingerprint) of what its message shows, when we know
        self._shown: dict[int, Any] = {}
        self._closed: dict[int, Table] = {}
        self._fresh: set[int] = set()  # tables whose next deal gets a fresh message
        # table id -> why its channel messages are paused (the bot lost access there)
        self.paused: dict[int, str] = {}
        # tables whose channel or thread is gone (or the bot left the server): closed as
        # abandoned, and nothing more is written for them anywhere
        self.lost: set[int] = set()
        self.clock: Callable[[], float] = time.time  # wall clock, for a message's age
        self.pacer = ChannelPacer(per=channel_write_window)  # every channel write, paced
        self._writing: dict[int, asyncio.Lock] = {}  # table id -> its message's writer
        self._retry: dict[int, asyncio.TimerHandle] = {}  # tables waiting out a 429
        self._retiring = 0  # old table messages being turned into pointer lines
        # posts whose analysis is being worked out, to be edited in (see _add_analysis)
        self._analysing: set[asyncio.Task[None]] = set()

    def stop(self) -> None:
        for task in self._flushers.values():
            task.cancel()
        for handle in self._retry.values():
            handle.cancel()
        for analysis in self._analysing:
            analysis.cancel()

    @contextlib.asynccontextmanager
    async def table_write(self, table: Table,
                          wait: float | None = None) -> AsyncIterator[None]:
        """Around building and writing the table message: one writer at a time, so the
        message never goes back to an older state. A click's redraw waits at most `wait`
        seconds (its answer is due within Discord's 3), then goes ahead."""
        lock = self._writing.setdefault(table.id, asyncio.Lock())
        try:
            async with asyncio.timeout(wait):  # a cancelled acquire leaves the lock free
                await lock.acquire()
        except TimeoutError:
            yield
            return
        try:
            yield
        finally:
            lock.release()

    def _retry_later(self, table: Table, error: discord.HTTPException) -> None:
        """Discord answered 429: publish this table again after its `retry_after` (what
        was to be sent is kept; the next round builds the latest state)."""
        wait = retry_after(error)
        log.info("table %s: rate limited in channel %s, trying again in %.2f s",
                 table.id, table.channel_id, wait)
        if table.id not in self._retry:
            def again() -> None:
                self._retry.pop(table.id, None)
                self.mark(table)
            self._retry[table.id] = asyncio.get_running_loop().call_later(wait, again)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around the answer to a click: table updates wait while any is being answered."""
        self._answering += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if not self._answering:
                self._quiet.set()

    def busy(self) -> bool:
        """Is any table's update under way (messages being drawn or sent)?"""
        return (bool(self._retry) or self._retiring > 0 or bool(self._analysing)
                or any(not task.done() for task in self._flushers.values()))

    async def settled(self, table_id: int, timeout: float) -> None:
        """Wait (at most `timeout` s) until the table's pending messages are out."""
        task = self._flushers.get(table_id)
        if task is not None and not task.done():
            await asyncio.wait([task], timeout=timeout)

    async def cards_refused(self) -> None:
        """Discord refused a card emoji: cards are text from now on."""
        await fall_back(self.bot)

    # -- told by the service ------------------------------------------------------------

    def table_changed(self, table: Table, events: Iterable[Event]) -> None:
        view = None
        for event in events:
            if isinstance(event, DealEnded):
                view = view or table.game.view(None)
                message = render.deal_end(table.id, table.game_name, table.game.TITLE, view,
                                          seating_of(table), deal_buttons(table, event))
                if message is not None:
                    message.analysis = post_mortem(table, event)
                    message.analysis_name = "Double dummy"
                    self._outbox.setdefault(table.id, []).append(message)
                self._fresh.add(table.id)
            elif isinstance(event, MatchEnded):
                result = table.game.result()
                if result is not None:
                    self._outbox.setdefault(table.id, []).append(render.match_end(
                        table.id, table.game.TITLE, result, table.game.scores(),
                        seating_of(table)))
        self.mark(table)

    def table_closed(self, table: Table) -> None:
        self._closed[table.id] = table
        self.mark(table)
        if table.status == "finished":
            self.bot.dispatch("table_finished", table)

    def mark(self, table: Table) -> None:
        self._dirty.add(table.id)
        task = self._flushers.get(table.id)
        if task is None or task.done():
            self._flushers[table.id] = asyncio.create_task(self._flush(table),
                                                           name=f"table-{table.id}-edits")

    async def _flush(self, table: Table) -> None:
        """Apply pending changes to Discord, at most one table edit per interval."""
        try:
            while table.id in self._dirty:
                wait = self._last_edit.get(table.id, 0) + self.edit_interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                # Answering clicks (Discord's 3 s) comes first: a flush waits for a moment
                # with no click being answered (at most PUBLISH_DEFER), and few tables
                # publish at once. A table published later shows its latest state anyway.
                until = time.monotonic() + PUBLISH_DEFER
                await self._clicks_first(until)
                async with self._publishing:
                    self._dirty.discard(table.id)
                    self._last_edit[table.id] = time.monotonic()
                    await self._publish(table, until)
        except Exception:
            log.exception("table %s: could not update its messages", table.id)
        finally:
            self._flushers.pop(table.id, None)
            if table.closed and table.id not in self._dirty:
                self._closed.pop(table.id, None)
                self._last_edit.pop(table.id, None)
                self._fresh.discard(table.id)
                self.paused.pop(table.id, None)
                self.lost.discard(table.id)
                self._writing.pop(table.id, None)
                self.forget_hands(table.id)
                await self._forget_stored_hands(table.id)

    async def _clicks_first(self, until: float) -> None:
        """Wait for a moment with no click being answered (until the monotonic time
        `until` at most). A table's update builds its messages then: work already queued
        on the loop when a click's write comes back is work that click waits behind."""
        if not self._answering:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, until - time.monotonic())):
                await self._quiet.wait()

    async def _publish(self, table: Table, until: float = 0.0) -> None:
        if table.id in self.lost:
            self._outbox.pop(table.id, None)
            return
        if table.id not in self.paused:
            await self._publish_channel(table, until)
        await self._refresh_hands(table, until)

    async def tables_lost(self, tables: Iterable[Table]) -> None:
        """These tables' channel or thread is gone, or the bot left their server: close
        them as abandoned without writing another thing for them (no retries, no
        errors logged), and a restart does not bring them back."""
        tables = [table for table in tables if table.id not in self.lost]
        self.lost.update(table.id for table in tables)
        await self.service.abandon_lost(tables)

    async def _lost_if_gone(self, table: Table, error: discord.HTTPException) -> bool:
        """Whether Discord's refusal says the table's channel is gone (then it is closed)."""
        if error.code != UNKNOWN_CHANNEL:
            return False
        await self.tables_lost([table])
        return True

    async def _publish_channel(self, table: Table, until: float = 0.0) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id)
        outbox = self._outbox.pop(table.id, [])
        while outbox:
            try:
                await self._draw(table, outbox[0])
                async with self.pacer.write(table.channel_id):
                    sent = await channel.send(**outbox[0].send_kwargs())
                self._analyse_later(table, outbox[0], sent.id)
            except discord.HTTPException as error:
                if error.code in FORBIDDEN or error.status == RATE_LIMITED:
                    # kept, and posted once the table resumes or Discord's wait is over
                    self._outbox[table.id] = outbox + self._outbox.get(table.id, [])
                    if error.status == RATE_LIMITED:
                        self._retry_later(table, error)
                    else:
                        await self._pause(table, error)
                    return
                if await self._lost_if_gone(table, error):
                    return
                log.exception("table %s: could not post a message", table.id)
            outbox.pop(0)
        if table.message_id is None:
            return
        await self.pacer.ready(table.channel_id)  # then build: the latest state goes out
        async with self.table_write(table):
            await self._write_table(table, until)

    async def _write_table(self, table: Table, until: float = 0.0) -> None:
        await self._clicks_first(until)
        current = await snapshot(table, lambda: table_message(table))
        body = current.body()
        shown = (table.message_id, fingerprint(body))
        if table.message_id is None:
            return
        if self._outbox.get(table.id):
            # A post (the end of a deal) arrived while this round waited to write: it goes
            # out first in the flush's next round, and the table after it, below it.
            return
        fresh = table.id in self._fresh or self._aged(table.message_id)
        self._fresh.discard(table.id)
        if fresh and not table.closed:
            # The next deal's table goes below the end-of-deal post, in view; and a message
            # nearing an hour old is replaced before Discord stops taking its edits.
            await self._move_below(table, current, body)
        elif shown != self._shown.get(table.id):
            try:
                async with self.pacer.write(table.channel_id):
                    await edit_channel_message(self.bot.http, table.channel_id,
                                               table.message_id, body)
                self._shown[table.id] = shown
            except discord.HTTPException as error:
                if refused(error):  # drawn again, as text, in this flush's next round
                    await self.cards_refused()
                    self._dirty.add(table.id)
                elif error.status == RATE_LIMITED:
                    self._retry_later(table, error)
                elif await self._lost_if_gone(table, error):
                    return
                elif error.code in GONE or isinstance(error, discord.NotFound):
                    await self._move_below(table, current, body)
                elif error.code in FORBIDDEN:
                    await self._pause(table, error)
                else:
                    log.exception("table %s: could not edit the table message", table.id)

    def _analyse_later(self, table: Table, message: render.Message, message_id: int) -> None:
        """A post is out: work out its analysis (if it has one) off the event loop and
        edit it in when ready. Nothing waits for it but the tests' settle (`busy`)."""
        if message.analysis is None:
            return
        task = asyncio.create_task(self._add_analysis(table, message, message_id),
                                   name=f"table-{table.id}-analysis")
        self._analysing.add(task)
        task.add_done_callback(self._analysing.discard)

    async def _add_analysis(self, table: Table, message: render.Message,
                            message_id: int) -> None:
        """Edit a post's analysis line into it (paced like every write to the channel).
        An analysis that fails or takes too long is left out; a post deleted meanwhile,
        or a table whose channel is gone or paused, gets no edit."""
        assert message.analysis is not None
        try:
            text = await asyncio.wait_for(self.service.off_loop(message.analysis),
                                          ANALYSIS_WAIT)
        except (TimeoutError, OutOfTime):  # a busy machine, not a fault: no line then
            log.warning("table %s: the double-dummy analysis took over %s s; the post "
                        "stays without it", table.id, ANALYSIS_WAIT)
            return
        except Exception:
            log.exception("table %s: no double-dummy analysis for a post", table.id)
            return
        if not text:
            return
        message.add_analysis(text)
        body = message.body()  # no `attachments`: Discord keeps the picture
        for _attempt in range(3):
            if table.id in self.lost or table.id in self.paused:
                return
            try:
                async with self.pacer.write(table.channel_id):
                    await edit_channel_message(self.bot.http, table.channel_id, message_id,
                                               body)
                return
            except discord.NotFound:
                return  # deleted meanwhile: nothing to add the line to
            except discord.HTTPException as error:
                if error.status == RATE_LIMITED:
                    await asyncio.sleep(retry_after(error))
                    continue
                if error.code in GONE or await self._lost_if_gone(table, error):
                    return
                if error.code in FORBIDDEN:
                    await self._pause(table, error)
                    return
                log.warning("table %s: could not add the analysis to post %s", table.id,
                            message_id, exc_info=True)
                return

    async def _draw(self, table: Table, message: render.Message) -> None:
        """Draw a post's picture off the event loop and attach it; without it the post
        goes out anyway (its text has everything)."""
        if message.picture is None:
            return
        try:
            message.attach(await self.service.off_loop(message.picture.render))
        except Exception:
            log.exception("table %s: could not draw the picture of deal %s", table.id,
                          message.picture.summary.deal_no)

    def _aged(self, message_id: int) -> bool:
        created = discord.utils.snowflake_time(message_id).timestamp()
        return self.clock() - created > FRESH_AFTER

    async def _move_below(self, table: Table, current: render.Message,
                          body: dict[str, Any]) -> None:
        """Post the table afresh at the bottom; the old message (if it can still be
        edited) becomes a line pointing to it. Its old buttons keep working: a click
        finds its table by the id in the button."""
        if table.closed:
            return
        old = table.message_id
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            async with self.pacer.write(table.channel_id):
                message = await channel.send(**current.send_kwargs())
        except discord.HTTPException as error:
            if refused(error):  # drawn again, as text, in this flush's next round
                await self.cards_refused()
                self._dirty.add(table.id)
                self._fresh.add(table.id)
            elif error.status == RATE_LIMITED:
                self._fresh.add(table.id)
                self._retry_later(table, error)
            elif await self._lost_if_gone(table, error):
                return
            elif error.code in FORBIDDEN:
                await self._pause(table, error)
            else:
                log.exception("table %s: could not post the table afresh", table.id)
            return
        await self.service.set_message(table, message.id)
        self._shown[table.id] = (message.id, fingerprint(body))
        if old is not None and old != message.id:
            await self._point(table, old, message.jump_url)  # within this flush's write

    async def _pause(self, table: Table, error: discord.HTTPException) -> None:
        """The bot may no longer post or edit in the table's channel: stop writing there
        (no retries), say so once where it can still be said (a plain line in the channel
        if that is still allowed, and under each live private hand), until /table."""
        if table.id in self.paused:
            return
        line = render.paused_line(table.id, table.game.TITLE, error.code)
        self.paused[table.id] = line
        log.warning("table %s: paused, Discord refused a write in channel %s (%s %s)",
                    table.id, table.channel_id, error.status, error.code)
        with contextlib.suppress(discord.HTTPException):
            async with self.pacer.write(table.channel_id):
                await self.bot.get_partial_messageable(table.channel_id).send(content=line)

    def resume(self, table: Table) -> None:
        """A person asked for the table again (/table): write to its channel again."""
        self._fresh.discard(table.id)  # /table has just posted it afresh
        if self.paused.pop(table.id, None) is not None:
            self.mark(table)

    async def retire(self, table: Table, old_message_id: int, new_url: str) -> None:
        """A table message replaced by a new one (/table) becomes a short line pointing
        to it: after any edit of the old message already under way, never before it (that
        edit would put the table and its buttons back over the pointer line)."""
        self._retiring += 1
        try:
            async with self.table_write(table):
                await self._point(table, old_message_id, new_url)
        finally:
            self._retiring -= 1

    async def _point(self, table: Table, old_message_id: int, new_url: str) -> None:
        """Turn the old table message into the pointer line (the caller is the writer)."""
        body = render.moved(table.id, table.game.TITLE, new_url).body()
        try:
            async with self.pacer.write(table.channel_id):
                await edit_channel_message(self.bot.http, table.channel_id, old_message_id,
                                           body)
        except discord.NotFound:
            pass  # deleted already: nothing left to point from
        except discord.HTTPException as error:
            if error.code in GONE:  # past its edits: it stays as it was, buttons working
                log.info("table %s: old message %s can no longer be edited", table.id,
                         old_message_id)
                return
            log.warning("table %s: could not retire its old message %s", table.id,
                        old_message_id, exc_info=True)

    async def _refresh_hands(self, table: Table, until: float = 0.0) -> None:
        await self._clicks_first(until)
        now = time.monotonic()
        sessions = self.hands.get(table.id, {})

        def build() -> list[tuple[int, HandSession, render.Message]]:
            fresh = []
            for user_id, session in list(sessions.items()):
                if now - session.created > TOKEN_LIFETIME or \
                        table.seat_of(user_id) != session.seat:
                    del sessions[user_id]
                    continue
                if session.decision != decision_of(table, session.seat):
                    session.group = None
                session.decision = decision_of(table, session.seat)
                fresh.append((user_id, session,
                              self.hand_message(table, session.seat, session.group)))
            return fresh

        # A move landing during these edits marks the table: its next round edits again.
        for user_id, session, message in await snapshot(table, build):
            body = message.body()
            shown = fingerprint(body)
            if shown == session.shown:
                continue  # the same hand as on screen: no need to send it again
            try:
                await edit_original_response(self.bot.http, session.application_id,
                                             session.token, body)
                session.shown = shown
            except discord.HTTPException as error:
                if refused(error):  # drawn again, as text, in this flush's next round
                    await self.cards_refused()
                    self._dirty.add(table.id)
                    continue
                if error.status == RATE_LIMITED:  # the hand stays live; edited again later
                    self._retry_later(table, error)
                    continue
                # Expired or deleted: the person asks for a fresh one with My hand.
                sessions.pop(user_id, None)
                await self._forget_stored_hands(table.id, user_id)

    def forget_hands(self, table_id: int) -> None:
        self.hands.pop(table_id, None)
        self._shown.pop(table_id, None)

    async def _forget_stored_hands(self, table_id: int, user_id: int | None = None) -> None:
        try:
            await self.service.store.forget_hand_tokens(table_id, user_id)
        except Exception:  # a stale token left behind only costs one failed edit later
            log.warning("table %s: could not forget its hand tokens", table_id, exc_info=True)

    async def restore_hands(self, tables: Iterable[Table]) -> int:
        """After a restart: take back the hands people still have open (tokens younger
        than Discord's 15 minutes) so they are edited again without a press. Returns how
        many were taken back."""
        by_id = {table.id: table for table in tables}
        now_wall, now = datetime.now(UTC), time.monotonic()
        since = now_wall - timedelta(seconds=TOKEN_LIFETIME)
        try:
            rows = await self.service.store.hand_tokens(since)
            await self.service.store.prune_hand_tokens(since)
        except Exception:
            log.exception("could not read the kept hand tokens; hands update on a press")
            return 0
        taken = 0
        for row in rows:
            table = by_id.get(row.match_id)
            if table is None or table.seat_of(row.user_id) != row.seat:
                continue
            age = (now_wall - row.issued_at).total_seconds()
            self.hands.setdefault(table.id, {})[row.user_id] = HandSession(
                application_id=row.application_id, token=row.token, seat=row.seat,
                created=now - age, message_id=row.message_id)
            taken += 1
        return taken

    def redrawing(self, table: Table) -> None:
        """A click's answer is about to redraw the table message itself: that is this
        interval's edit, and what the message shows is unknown until it is done."""
        self._dirty.discard(table.id)
        self._last_edit[table.id] = time.monotonic()
        self._shown.pop(table.id, None)

    def redrawn(self, table: Table, current: render.Message) -> None:
        """The click's answer has redrawn the table message as `current`."""
        self._shown[table.id] = (table.message_id, fingerprint(current.body()))

    # -- private hands --------------------------------------------------------------------

    def hand_message(self, table: Table, seat: int, group: str | None = None,
                      note: str = "") -> render.Message:
        """The private hand of the person at `seat`: under human declares, declarer's
        hand (the computer partner's), whose cards and dummy's they play."""
        game = table.game
        acting = table.acting_seat(seat)
        legal = game.legal(acting) if table.status == "playing" else []
        note = note or self.paused.get(table.id, "")  # a paused table says so here too
        return render.hand(table.id, table.game_name, game.TITLE, acting, game.view(acting),
                           legal, table.decisions[acting], seating_of(table), note=note,
                           group=group, you=seat)

    async def hand_shown(self, interaction: discord.Interaction[Any], table: Table,
                         seat: int, message_id: int | None, group: str | None,
                         message: render.Message, seq: int) -> None:
        """A click's answer has just shown this hand, as the table was at `seq`: keep it
        live from now on (a new token is also stored, so a restarted bot keeps editing
        it)."""
        sessions = self.hands.setdefault(table.id, {})
        kept = sessions.get(interaction.user.id)
        now = time.monotonic()
        fresh = kept is None or kept.seat != seat or message_id is None or \
            kept.message_id != message_id or now - kept.created > TOKEN_KEPT
        if fresh:
            kept = sessions[interaction.user.id] = HandSession(
                application_id=interaction.application_id, token=interaction.token,
                seat=seat, created=now, message_id=message_id)
        assert kept is not None
        kept.group, kept.decision = group, decision_of(table, seat)
        kept.shown = fingerprint(message.body())
        if table.seq != seq and table.id not in self._dirty:
            # A move landed while the answer was on its way, and the hands' round for it
            # has begun (a round still waiting builds after this and edits what differs):
            # its edit may have gone out before this answer arrived, leaving it one move
            # old. Another round edits it again (only if what it shows differs).
            self.mark(table)
        if fresh:
            try:
                await self.service.store.save_hand_token(
                    table.id, interaction.user.id, seat=seat,
                    application_id=interaction.application_id, token=interaction.token,
                    message_id=message_id, issued_at=datetime.now(UTC))
            except Exception:  # the hand is shown and live; only a restart would lose it
                log.warning("table %s: could not keep a hand token", table.id, exc_info=True)
