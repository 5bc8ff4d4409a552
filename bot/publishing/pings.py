"""Pings that notify: the table service's turn notifier.

An edited table message notifies nobody, so a person who keeps a table waiting (past the
table's `ping_after`; at half time in slow play) gets one new short message mentioning
them alone, with a link to the table. It is deleted once their seat has moved on (they
acted, a timer did, they left, the table closed), also after a restart: each posted ping
is kept in the store until it is deleted. People who turned pings off (/settings) are not
pinged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterable
from typing import Any

import discord

from bot.render import turns as render
from bot.store import PingRow
from bot.tables import Table, TableService

from .pacing import ChannelPacer

log = logging.getLogger(__name__)


class Pinger:
    """Posts and takes back turn pings (the publisher sets it as the turn notifier)."""

    def __init__(self, bot: discord.Client, service: TableService, paused: dict[int, str],
                 pacer: ChannelPacer | None = None) -> None:
        self.bot = bot
        self.service = service
        self.paused = paused  # the publisher's paused tables: nothing is posted there
        # the publisher's: pings share each channel's write budget with the table
        self.pacer = pacer or ChannelPacer()
        self.live: dict[int, dict[int, PingRow]] = {}  # table id -> user id -> ping
        self._tasks: set[asyncio.Task[None]] = set()
        # Set once the pings kept from before a restart are known (`restore`): a turn
        # that came due meanwhile must not be pinged twice.
        self.restored = asyncio.Event()

    def busy(self) -> bool:
        return any(not task.done() for task in self._tasks)

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def current(table: Table, ping: PingRow) -> bool:
        """Is the table still waiting for that person's decision?"""
        if table.closed or not 0 <= ping.seat < len(table.seats):
            return False
        info = table.seats[table.decider(ping.seat)]
        return (info is not None and info.user_id == ping.user_id
                and table.decisions[ping.seat] == ping.decision
                and ping.seat in table.waiting_on())

    # -- the turn notifier ------------------------------------------------------------

    def remind(self, table: Table, seat: int, decision: int) -> None:
        info = table.seats[table.decider(seat)]  # human declares: the person opposite
        if info is None or info.user_id is None or table.id in self.paused:
            return
        self._spawn(self._post(table, seat, decision, info.user_id),
                    f"table-{table.id}-ping-{seat}")

    def moved_on(self, table: Table) -> None:
        pings = self.live.get(table.id)
        if not pings:
            return
        for user_id, ping in list(pings.items()):
            if not self.current(table, ping):
                del pings[user_id]
                self._spawn(self._delete(ping), f"table-{table.id}-unping")
        if not pings:
            self.live.pop(table.id, None)

    # -- posting and deleting ---------------------------------------------------------

    async def _post(self, table: Table, seat: int, decision: int, user_id: int) -> None:
        await self.restored.wait()
        kept = self.live.get(table.id, {}).get(user_id)
        if kept is not None and (kept.seat, kept.decision) == (seat, decision):
            return  # pinged already (before a restart): once per turn
        try:
            if not await self.service.store.pings_enabled(user_id):
                return
        except Exception:  # a ping is a courtesy: without the setting, do not disturb
            log.warning("table %s: could not read user %s's ping setting", table.id,
                        user_id, exc_info=True)
            return
        settings = table.settings
        deadline = table.since + settings.turn_timeout if settings.turn_timeout else None
        message = render.ping(user_id, table.game.TITLE, table.game.seat_name(seat),
                              render.jump_url(table.guild_id, table.channel_id,
                                              table.message_id),
                              deadline, settings.slow_pace)
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            async with self.pacer.write(table.channel_id):
                posted = await channel.send(**message.send_kwargs())
        except discord.HTTPException:
            log.warning("table %s: could not post a ping", table.id, exc_info=True)
            return
        ping = PingRow(table.id, user_id, seat, decision, table.channel_id, posted.id)
        if not self.current(table, ping):  # they acted while it was being posted
            await self._delete(ping, stored=False)
            return
        earlier = self.live.setdefault(table.id, {}).get(user_id)
        self.live[table.id][user_id] = ping
        if earlier is not None:
            await self._delete(earlier, stored=False)
        try:
            await self.service.store.save_ping(ping)
        except Exception:  # deleted when they act; only a restart would leave it behind
            log.warning("table %s: could not keep a ping", table.id, exc_info=True)

    async def _delete(self, ping: PingRow, stored: bool = True) -> None:
        try:
            async with self.pacer.write(ping.channel_id):
                await self.bot.http.delete_message(ping.channel_id, ping.message_id)
        except discord.NotFound:
            pass  # deleted by someone already
        except discord.HTTPException:
            log.warning("table %s: could not delete a ping", ping.match_id, exc_info=True)
        if not stored:
            return
        try:
            await self.service.store.forget_ping(ping.match_id, ping.user_id)
        except Exception:  # a restart tries again
            log.warning("table %s: could not forget a ping", ping.match_id, exc_info=True)

    async def restore(self, tables: Iterable[Table]) -> None:
        """After a restart: keep the pings whose turn still waits, delete the others."""
        by_id = {table.id: table for table in tables}
        try:
            rows = await self.service.store.pings()
        except Exception:
            log.exception("could not read the kept turn pings")
            rows = []
        for ping in rows:
            table = by_id.get(ping.match_id)
            if table is not None and self.current(table, ping):
                self.live.setdefault(table.id, {})[ping.user_id] = ping
        self.restored.set()
        for ping in rows:
            if ping.user_id not in self.live.get(ping.match_id, {}):
                await self._delete(ping)
