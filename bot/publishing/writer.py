"""Writing a table's channel messages: its posts (ends of deals and matches) in order,
then the table message, within Discord's budget and whatever Discord answers.

A table message never freezes: each deal, and before the message is an hour old (Discord
then takes only a few more edits), the table is posted afresh and the old message becomes
a line pointing to it. A write Discord refuses is handled by its cause (refusals.py says
which): a deleted or frozen message is posted afresh; lost access or permission pauses the
table's channel messages (said once, no retries) until someone uses /table; a deleted
channel closes the table as abandoned; a refused card emoji turns cards to text, and the
refused message (a post too) is sent again with them.

Discord's rate limits: every write to a channel is paced to its budget (pacing.py); what
is sent is built after the wait, so it is the latest state. A 429 that reaches us anyway
keeps what was to be sent and tries again after Discord's `retry_after`. The table
message is written by one writer at a time (`table_write`): the publisher's edit and a
click's redraw of it never cross, so it never shows an older state after a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import discord

from bot.render import emojis
from bot.render import messages as render
from bot.tables import Table, TableService

from .card_emojis import cards_as_text
from .edits import edit_channel_message, fingerprint
from .gate import ClickGate
from .messages import snapshot, table_message
from .pacing import ChannelPacer
from .refusals import Refusal, classify, retry_after

log = logging.getLogger(__name__)

# Discord allows only a few edits to a message older than an hour (then error 30046), so a
# table message this old is replaced by a fresh one while its retirement edit still works.
FRESH_AFTER = 50 * 60  # seconds
REDRAW_WAIT = 1.0  # longest a click's redraw waits for the publisher's edit in flight (s)

Posted = Callable[[Table, render.Message, int], None]


class ChannelWriter:
    """Every table's channel messages. `mark` asks for another round of the table's
    update; `posted` is told of each post that went out (its analysis follows)."""

    def __init__(self, client: discord.Client, service: TableService, pacer: ChannelPacer,
                 gate: ClickGate, mark: Callable[[Table], None],
                 cards_refused: Callable[[], Awaitable[None]], posted: Posted) -> None:
        self.client = client
        self.service = service
        self.pacer = pacer  # every channel write, paced (the turn pings' too)
        self.gate = gate
        self.mark = mark
        self.cards_refused = cards_refused
        self.posted = posted
        self.clock: Callable[[], float] = service.clock.now  # wall clock: a message's age
        self._outbox: dict[int, list[render.Message]] = {}
        # table id -> (message id, fingerprint) of what its message shows, when we know
        self._shown: dict[int, Any] = {}
        self._fresh: set[int] = set()  # tables whose next deal gets a fresh message
        # table id -> why its channel messages are paused (the bot lost access there)
        self.paused: dict[int, str] = {}
        # tables whose channel or thread is gone (or the bot left the server): closed as
        # abandoned, and nothing more is written for them anywhere
        self.lost: set[int] = set()
        self._writing: dict[int, asyncio.Lock] = {}  # table id -> its message's writer
        self._retry: dict[int, asyncio.TimerHandle] = {}  # tables waiting out a 429
        self._retiring = 0  # old table messages being turned into pointer lines

    def stop(self) -> None:
        for handle in self._retry.values():
            handle.cancel()

    def busy(self) -> bool:
        return bool(self._retry) or self._retiring > 0

    def forget(self, table_id: int) -> None:
        """A closed table's last round is over: nothing of it is kept."""
        self._fresh.discard(table_id)
        self.paused.pop(table_id, None)
        self.lost.discard(table_id)
        self._writing.pop(table_id, None)
        self._shown.pop(table_id, None)

    def post(self, table: Table, message: render.Message) -> None:
        """A post to send before the table's next edit (in the order given)."""
        self._outbox.setdefault(table.id, []).append(message)

    def move_below(self, table: Table) -> None:
        """The table's next write posts it afresh, below what was just posted."""
        self._fresh.add(table.id)

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

    def retry_later(self, table: Table, error: discord.HTTPException) -> None:
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

    def redrawing(self, table: Table) -> None:
        """A click's answer is redrawing the table message: what it shows is unknown."""
        self._shown.pop(table.id, None)

    def redrawn(self, table: Table, current: render.Message) -> None:
        """The click's answer has redrawn the table message as `current`."""
        self._shown[table.id] = (table.message_id, fingerprint(current.body()))

    # -- one round of a table's update --------------------------------------------------

    async def publish(self, table: Table, until: float = 0.0) -> None:
        """Send the table's posts, then write its message (unless it is paused)."""
        if table.id in self.paused:
            return
        channel = self.client.get_partial_messageable(table.channel_id)
        outbox = self._outbox.pop(table.id, [])
        while outbox:
            post = outbox[0]
            if not emojis.current().enabled:  # built before Discord refused the emojis
                cards_as_text(post)
            try:
                await self._draw(table, post)
                async with self.pacer.write(table.channel_id):
                    sent = await channel.send(**post.send_kwargs())
                self.posted(table, post, sent.id)
            except discord.HTTPException as error:
                refusal = await self._refused(table, error, "post a message")
                if refusal in (Refusal.CARDS, Refusal.RATE_LIMITED, Refusal.FORBIDDEN):
                    # kept, and posted in the next round (with text cards), once Discord's
                    # wait is over, or once the table resumes
                    self._outbox[table.id] = outbox + self._outbox.get(table.id, [])
                    return
                if refusal is Refusal.CHANNEL_GONE:
                    return
            outbox.pop(0)
        if table.message_id is None:
            return
        await self.pacer.ready(table.channel_id)  # then build: the latest state goes out
        async with self.table_write(table):
            await self._write_table(table, until)

    def drop(self, table: Table) -> None:
        """The table is lost: what was still to be posted never will be."""
        self._outbox.pop(table.id, None)

    async def _write_table(self, table: Table, until: float = 0.0) -> None:
        await self.gate.quiet(until)
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
                    await edit_channel_message(self.client.http, table.channel_id,
                                               table.message_id, body)
                self._shown[table.id] = shown
            except discord.HTTPException as error:
                refusal = await self._refused(table, error, "edit the table message",
                                              editing=True)
                if refusal is Refusal.MESSAGE_GONE:
                    await self._move_below(table, current, body)

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
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            async with self.pacer.write(table.channel_id):
                message = await channel.send(**current.send_kwargs())
        except discord.HTTPException as error:
            refusal = await self._refused(table, error, "post the table afresh")
            if refusal in (Refusal.CARDS, Refusal.RATE_LIMITED):
                self._fresh.add(table.id)  # posted afresh in the next round
            return
        await self.service.set_message(table, message.id)
        self._shown[table.id] = (message.id, fingerprint(body))
        if old is not None and old != message.id:
            await self._point(table, old, message.jump_url)  # within this flush's write

    # -- refused writes, lost access, lost channels ----------------------------------------

    async def _refused(self, table: Table, error: discord.HTTPException, what: str,
                       editing: bool = False) -> Refusal:
        """Do what Discord's refusal of one of the table's channel writes asks of the
        table as a whole (refusals.py); its kind, for what the caller does with the write
        itself. `editing`: a message that is gone is the caller's to post afresh."""
        refusal = classify(error)
        if refusal is Refusal.CARDS:  # drawn again, as text, in this flush's next round
            await self.cards_refused()
            self.mark(table)
        elif refusal is Refusal.RATE_LIMITED:
            self.retry_later(table, error)
        elif refusal is Refusal.CHANNEL_GONE:
            await self.tables_lost([table])
        elif refusal is Refusal.FORBIDDEN:
            await self.pause(table, error)
        elif refusal is Refusal.OTHER or not editing:
            log.error("table %s: could not %s", table.id, what, exc_info=error)
        return refusal

    async def pause(self, table: Table, error: discord.HTTPException) -> None:
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
                await self.client.get_partial_messageable(table.channel_id).send(content=line)

    def resume(self, table: Table) -> None:
        """A person asked for the table again (/table): write to its channel again."""
        self._fresh.discard(table.id)  # /table has just posted it afresh
        if self.paused.pop(table.id, None) is not None:
            self.mark(table)

    async def tables_lost(self, tables: Iterable[Table]) -> None:
        """These tables' channel or thread is gone, or the bot left their server: close
        them as abandoned without writing another thing for them (no retries, no
        errors logged), and a restart does not bring them back."""
        tables = [table for table in tables if table.id not in self.lost]
        self.lost.update(table.id for table in tables)
        await self.service.abandon_lost(tables)

    # -- retiring old table messages ------------------------------------------------------

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
                await edit_channel_message(self.client.http, table.channel_id,
                                           old_message_id, body)
        except discord.HTTPException as error:
            if classify(error) in (Refusal.MESSAGE_GONE, Refusal.CHANNEL_GONE):
                # deleted, or past its edits (it stays as it was, its buttons working)
                log.info("table %s: old message %s is gone or can no longer be edited",
                         table.id, old_message_id)
                return
            log.warning("table %s: could not retire its old message %s", table.id,
                        old_message_id, exc_info=True)
