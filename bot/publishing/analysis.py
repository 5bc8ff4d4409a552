"""The after-deal analysis: the bridge games' double-dummy verdict (the cards that cost a
trick), worked out off the event loop once the end-of-deal post is out and edited into it.

An end-of-deal post goes out at once; its double-dummy line is edited in when ready, if
that takes at most ANALYSIS_WAIT from the deal's end: later than that, the deal is far
behind the table. The work itself stops then too (between two solves), so a slow
analysis does not keep a worker and the solver busy after it is given up.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable

import discord

from bot.games.events import DealEnded
from bot.handrecord import DEAL_VERDICT_NAME, HAND_RECORD_GAMES, OutOfTime, deal_verdict
from bot.render import messages as render
from bot.tables import Table

from .card_emojis import cards_as_text
from .edits import edit_channel_message
from .refusals import Refusal, classify, retry_after
from .writer import ChannelWriter

log = logging.getLogger(__name__)

ANALYSIS_WAIT = 30.0  # seconds from the deal's end


def post_mortem(table: Table, event: DealEnded) -> Callable[[], str | None] | None:
    """The bridge games' double-dummy verdict on a deal that just ended, from the log as
    it stands now (plain data bound to a module-level function: it can be handed to a
    worker process). It stops ANALYSIS_WAIT seconds after the deal's end (wall clock: the
    same in a worker)."""
    if table.game_name not in HAND_RECORD_GAMES:
        return None
    return functools.partial(deal_verdict, table.game_name, dict(table.options),
                             table.deal_source, list(table.game.history), event.deal_no,
                             time.time() + ANALYSIS_WAIT)


class Analyses:
    """Posts whose analysis is being worked out, to be edited in when ready."""

    def __init__(self, writer: ChannelWriter) -> None:
        self.writer = writer
        self._running: set[asyncio.Task[None]] = set()

    def busy(self) -> bool:
        return bool(self._running)

    def stop(self) -> None:
        for task in self._running:
            task.cancel()

    def attach(self, table: Table, message: render.Message, event: DealEnded) -> None:
        """Give an end-of-deal post its analysis, worked out once the post is out."""
        message.analysis = post_mortem(table, event)
        message.analysis_name = DEAL_VERDICT_NAME

    def posted(self, table: Table, message: render.Message, message_id: int) -> None:
        """A post is out: work out its analysis (if it has one) off the event loop and
        edit it in when ready. Nothing waits for it but the tests' settle (`busy`)."""
        if message.analysis is None:
            return
        task = asyncio.create_task(self._add(table, message, message_id),
                                   name=f"table-{table.id}-analysis")
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _add(self, table: Table, message: render.Message, message_id: int) -> None:
        """Edit a post's analysis line into it (paced like every write to the channel).
        An analysis that fails or takes too long is left out; a post deleted meanwhile,
        or a table whose channel is gone or paused, gets no edit."""
        assert message.analysis is not None
        writer = self.writer
        try:
            text = await asyncio.wait_for(writer.service.off_loop(message.analysis),
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
            if table.id in writer.lost or table.id in writer.paused:
                return
            try:
                async with writer.pacer.write(table.channel_id):
                    await edit_channel_message(writer.client.http, table.channel_id,
                                               message_id, body)
                return
            except discord.HTTPException as error:
                refusal = classify(error)
                if refusal is Refusal.RATE_LIMITED:
                    await asyncio.sleep(retry_after(error))
                    continue
                if refusal is Refusal.CARDS:  # the post again, its cards as text
                    await writer.cards_refused()
                    cards_as_text(message)
                    body = message.body()
                    continue
                if refusal is Refusal.CHANNEL_GONE:
                    await writer.tables_lost([table])
                elif refusal is Refusal.FORBIDDEN:
                    await writer.pause(table, error)
                elif refusal is Refusal.OTHER:
                    log.warning("table %s: could not add the analysis to post %s",
                                table.id, message_id, exc_info=True)
                return  # (MESSAGE_GONE: deleted meanwhile, or past its edits)
