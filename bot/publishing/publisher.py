"""The publisher: the table service's observer, and what the cogs ask of the bot's
messages. It schedules each table's update and hands the work to its parts:

- messages.py builds a table's messages from the table (bot/render makes the text);
- writer.py writes the channel messages (Discord's budget, 429s, lost access, retiring
  old table messages);
- hands.py keeps people's private hands live;
- analysis.py edits the after-deal analysis into an end-of-deal post;
- pings.py pings the person a table waits for (the service's turn notifier).

The table service tells the publisher about every stored change (`table_changed`). A
table's update is coalesced to about one round a second (`edit_interval`), always
showing the latest state: a round sends the table's posts in order, edits its message,
then refreshes its live hands. Answering clicks comes first: a round waits for a moment
with no click being answered (`answering`, gate.py) before it begins and before it builds
each message (at most PUBLISH_DEFER in all), and few tables publish at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Any

import discord

from bot.games import Event
from bot.games.events import DealEnded, MatchEnded
from bot.render import messages as render
from bot.tables import Table, TableService

from .analysis import Analyses
from .card_emojis import fall_back
from .gate import ClickGate
from .hands import LiveHands
from .messages import deal_end_message, match_end_message, snapshot, table_message
from .pacing import CHANNEL_WINDOW, ChannelPacer
from .pings import Pinger
from .writer import REDRAW_WAIT, ChannelWriter

log = logging.getLogger(__name__)

PUBLISHERS = 4  # tables whose messages are being updated at one time
PUBLISH_DEFER = 1.0  # longest a table's update waits for a moment without clicks (s)


class Publisher:
    """Keeps every table's messages and hands up to date (owned by the bot)."""

    def __init__(self, client: discord.Client, service: TableService, edit_interval: float,
                 channel_write_window: float = CHANNEL_WINDOW) -> None:
        self.client = client
        self.service = service
        self.edit_interval = edit_interval
        self.gate = ClickGate()
        self.pacer = ChannelPacer(per=channel_write_window)  # every channel write, paced
        self.writer = ChannelWriter(client, service, self.pacer, self.gate, self.mark,
                                    self.cards_refused, self._posted)
        self.hands = LiveHands(client, service, self.writer.paused, self.mark,
                               self.cards_refused, self.writer.retry_later)
        self.analyses = Analyses(self.writer)
        # pings share each channel's write budget, and stay out of a paused channel
        self.pinger = Pinger(client, service, self.writer.paused, self.pacer)
        self._dirty: set[int] = set()
        self._flushers: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._publishing = asyncio.Semaphore(PUBLISHERS)

    def start(self) -> None:
        """Be the service's observer and turn notifier from now on."""
        self.service.observer = self
        self.service.turns.notifier = self.pinger

    async def restore(self, tables: Iterable[Table]) -> None:
        """After a restart: take back the live hands and pings of the restored tables,
        and bring each one's messages up to date."""
        tables = list(tables)
        await self.hands.restore(tables)
        await self.pinger.restore(tables)
        for table in tables:
            self.table_changed(table, ())

    def stop(self) -> None:
        for task in self._flushers.values():
            task.cancel()
        self.writer.stop()
        self.hands.stop()
        self.analyses.stop()

    def busy(self) -> bool:
        """Is any table's update under way (messages being drawn or sent)?"""
        return (self.writer.busy() or self.hands.busy() or self.analyses.busy()
                or any(not task.done() for task in self._flushers.values()))

    async def settled(self, table_id: int, timeout: float) -> None:
        """Wait (at most `timeout` s) until the table's pending messages are out."""
        task = self._flushers.get(table_id)
        if task is not None and not task.done():
            await asyncio.wait([task], timeout=timeout)

    async def cards_refused(self) -> None:
        """Discord refused a card emoji: cards are text from now on."""
        await fall_back(self.client, self.service.store)

    # -- asked by the cogs ----------------------------------------------------------------

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around the answer to a click: table updates wait while any is being answered."""
        with self.gate.answering():
            yield

    def answered(self) -> None:
        """The click being answered (in this task) has been deferred: updates go on."""
        self.gate.answered()

    def hand_message(self, table: Table, seat: int, group: str | None = None,
                     note: str = "") -> render.Message:
        """The private hand of the person at `seat` as it should look now."""
        return self.hands.message(table, seat, group, note)

    async def hand_shown(self, interaction: discord.Interaction[Any], table: Table,
                         seat: int, message_id: int | None, group: str | None,
                         message: render.Message, seq: int) -> None:
        """A click's answer has just shown this hand, as the table was at `seq`: it is
        kept live from now on."""
        await self.hands.shown(interaction, table, seat, message_id, group, message, seq,
                               pending=table.id in self._dirty)

    async def redraw(self, table: Table,
                     answer: Callable[[render.Message], Awaitable[None]]) -> None:
        """A click on the table message is answered by redrawing it (`answer` sends the
        message built): that is this interval's edit, and never crosses the publisher's."""
        async with self.writer.table_write(table, wait=REDRAW_WAIT):
            self._dirty.discard(table.id)
            self._last_edit[table.id] = time.monotonic()
            self.writer.redrawing(table)
            current = await snapshot(table, lambda: table_message(table))
            await answer(current)
            self.writer.redrawn(table, current)

    def resume(self, table: Table) -> None:
        """A person asked for the table again (/table): write to its channel again."""
        self.writer.resume(table)

    async def retire(self, table: Table, old_message_id: int, new_url: str) -> None:
        """The table was posted afresh (/table): its old message points to the new one."""
        await self.writer.retire(table, old_message_id, new_url)

    async def tables_lost(self, tables: Iterable[Table]) -> None:
        """These tables' channel, thread or server is gone: they are closed, silently."""
        await self.writer.tables_lost(tables)

    # -- told by the service ------------------------------------------------------------

    def table_changed(self, table: Table, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, DealEnded):
                message = deal_end_message(table, event)
                if message is not None:
                    self.analyses.attach(table, message, event)
                    self.writer.post(table, message)
                self.writer.move_below(table)
            elif isinstance(event, MatchEnded):
                ended = match_end_message(table)
                if ended is not None:
                    self.writer.post(table, ended)
        self.mark(table)

    def table_closed(self, table: Table) -> None:
        self.mark(table)
        if table.status == "finished":
            self.client.dispatch("table_finished", table)

    def mark(self, table: Table) -> None:
        """Bring the table's messages and hands up to date soon (coalesced)."""
        self._dirty.add(table.id)
        task = self._flushers.get(table.id)
        if task is None or task.done():
            self._flushers[table.id] = asyncio.create_task(self._flush(table),
                                                           name=f"table-{table.id}-edits")

    # -- a table's update ---------------------------------------------------------------

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
                await self.gate.quiet(until)
                async with self._publishing:
                    self._dirty.discard(table.id)
                    self._last_edit[table.id] = time.monotonic()
                    await self._publish(table, until)
        except Exception:
            log.exception("table %s: could not update its messages", table.id)
        finally:
            self._flushers.pop(table.id, None)
            if table.closed and table.id not in self._dirty:
                self._last_edit.pop(table.id, None)
                self.writer.forget(table.id)
                self.hands.forget(table.id)
                await self.hands.forget_stored(table.id)

    async def _publish(self, table: Table, until: float) -> None:
        if table.id in self.writer.lost:
            self.writer.drop(table)
            return
        await self.writer.publish(table, until)
        await self.gate.quiet(until)
        await self.hands.refresh(table)

    def _posted(self, table: Table, message: render.Message, message_id: int) -> None:
        self.analyses.posted(table, message, message_id)
