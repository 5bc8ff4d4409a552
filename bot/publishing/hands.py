"""People's private hands, kept live: each seated person's last hand message is edited
after every change through the interaction token that showed it (ephemeral messages can
only be edited that way, and only for 15 minutes). The tokens are stored, so a restarted
bot takes the hands back and keeps editing them without a press.

An old hand never lies: when a newer hand message replaces a person's live one, the old
one becomes a line saying so, with no buttons (it would no longer be edited, and its
buttons, such as Withdraw my request, would offer what may be over)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.render import messages as render
from bot.tables import Table, TableService

from .edits import edit_original_response, fingerprint
from .messages import decision_of, hand_message, snapshot
from .refusals import Refusal, classify

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60  # seconds we trust an interaction token (Discord: 15 minutes)
# A hand keeps the token it was reached through while younger than this, rather than take
# each click's: discord.py keeps a rate-limit bucket per token for five minutes, so a new
# token per click had cost about a kilobyte per click for five minutes.
TOKEN_KEPT = 10 * 60


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


class LiveHands:
    """Every table's live hands. `paused` is the channel writer's (a paused table says so
    under each hand); `mark` asks for another round of the table's update; `rate_limited`
    is told of a 429 (the round is tried again after Discord's wait)."""

    def __init__(self, client: discord.Client, service: TableService, paused: dict[int, str],
                 mark: Callable[[Table], None], cards_refused: Callable[[], Awaitable[None]],
                 rate_limited: Callable[[Table, discord.HTTPException], None]) -> None:
        self.client = client
        self.service = service
        self.paused = paused
        self.mark = mark
        self.cards_refused = cards_refused
        self.rate_limited = rate_limited
        # table id -> user id -> their hand session (by table: a round touches one table)
        self.sessions: dict[int, dict[int, HandSession]] = {}
        self._retiring: set[asyncio.Task[None]] = set()  # replaced hands being edited

    def busy(self) -> bool:
        return bool(self._retiring)

    def stop(self) -> None:
        for task in self._retiring:
            task.cancel()

    def message(self, table: Table, seat: int, group: str | None = None,
                note: str = "") -> render.Message:
        """The hand of the person at `seat` as it should look now."""
        note = note or self.paused.get(table.id, "")  # a paused table says so here too
        return hand_message(table, seat, group, note)

    async def refresh(self, table: Table) -> None:
        """Edit every live hand of the table that no longer shows the table as it is."""
        now = time.monotonic()
        sessions = self.sessions.get(table.id, {})

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
                              self.message(table, session.seat, session.group)))
            return fresh

        # A move landing during these edits marks the table: its next round edits again.
        for user_id, session, message in await snapshot(table, build):
            body = message.body()
            shown = fingerprint(body)
            if shown == session.shown:
                continue  # the same hand as on screen: no need to send it again
            try:
                await edit_original_response(self.client.http, session.application_id,
                                             session.token, body)
                session.shown = shown
            except discord.HTTPException as error:
                refusal = classify(error)
                if refusal is Refusal.CARDS:  # drawn again, as text, in the next round
                    await self.cards_refused()
                    self.mark(table)
                    continue
                if refusal is Refusal.RATE_LIMITED:  # the hand stays live; edited later
                    self.rate_limited(table, error)
                    continue
                # Expired or deleted: the person asks for a fresh one with My hand.
                sessions.pop(user_id, None)
                await self.forget_stored(table.id, user_id)

    def _retire(self, table: Table, old: HandSession) -> None:
        """Edit a replaced hand message into its one line (through its own token), in the
        background: the click that replaced it is answered already."""
        body = render.replaced_hand(table.id, table.game.TITLE).body()
        task = asyncio.create_task(self._edit_replaced(table, old, body),
                                   name=f"table-{table.id}-hand-replaced")
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    async def _edit_replaced(self, table: Table, old: HandSession,
                             body: dict[str, Any]) -> None:
        try:
            await edit_original_response(self.client.http, old.application_id, old.token,
                                         body)
        except discord.HTTPException as error:  # deleted or expired: nothing left to say
            log.info("table %s: could not mark a replaced hand (%s %s)", table.id,
                     error.status, error.code)

    def forget(self, table_id: int) -> None:
        self.sessions.pop(table_id, None)

    async def forget_stored(self, table_id: int, user_id: int | None = None) -> None:
        try:
            await self.service.store.forget_hand_tokens(table_id, user_id)
        except Exception:  # a stale token left behind only costs one failed edit later
            log.warning("table %s: could not forget its hand tokens", table_id, exc_info=True)

    async def restore(self, tables: Iterable[Table]) -> int:
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
            self.sessions.setdefault(table.id, {})[row.user_id] = HandSession(
                application_id=row.application_id, token=row.token, seat=row.seat,
                created=now - age, message_id=row.message_id)
            taken += 1
        return taken

    async def shown(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                    message_id: int | None, group: str | None, message: render.Message,
                    seq: int, pending: bool) -> None:
        """A click's answer has just shown this hand, as the table was at `seq`: keep it
        live from now on (a new token is also stored, so a restarted bot keeps editing
        it). `pending`: a round of the table's update is already waiting to build."""
        sessions = self.sessions.setdefault(table.id, {})
        kept = sessions.get(interaction.user.id)
        now = time.monotonic()
        fresh = kept is None or kept.seat != seat or message_id is None or \
            kept.message_id != message_id or now - kept.created > TOKEN_KEPT
        if fresh:
            if kept is not None and kept.message_id is not None and message_id is not None \
                    and kept.message_id != message_id and \
                    now - kept.created <= TOKEN_LIFETIME:
                self._retire(table, kept)
            kept = sessions[interaction.user.id] = HandSession(
                application_id=interaction.application_id, token=interaction.token,
                seat=seat, created=now, message_id=message_id)
        assert kept is not None
        kept.group, kept.decision = group, decision_of(table, seat)
        kept.shown = fingerprint(message.body())
        if table.seq != seq and not pending:
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
