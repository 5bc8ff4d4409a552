"""The Store: TrickTable's persistence, one async API over SQLite or PostgreSQL.

Every write is committed before the call returns (the bot shows an action only after it
is stored). The parts live in their own modules, written once for both databases:
matches.py (tables and seats), actions.py (the action log, bulk loading), results.py
(deal scores, match results), ratings.py (ratings and the reads behind the boards),
hands.py (the tokens of people's private hands), leases.py (which process serves which
shard), emojis.py (the ids of the card-face emojis), daily.py (daily deals), pings.py (people's
settings, turn pings), announcements.py (rating posts still owed), teams.py (team
matches), challenges.py (challenges), privacy.py (forgetting a person), servers.py (each
server's settings). sqlite.py and postgres.py are the backends.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from types import TracebackType

from . import ratings
from .actions import ActionsMixin
from .announcements import AnnouncementsMixin
from .challenges import ChallengesMixin
from .daily import DailyMixin
from .db import MEMORY, open_database
from .emojis import EmojisMixin
from .hands import HandTokensMixin
from .leases import LeasesMixin
from .matches import MatchesMixin
from .pings import PingsMixin
from .postgres import PostgresBackend, is_postgres_url, open_pool
from .privacy import PrivacyMixin
from .results import ResultsMixin
from .servers import ServersMixin
from .sqlite import SqliteBackend
from .teams import TeamMatchesMixin

DEFAULT_PATH = "tricktable.db"


class Store(MatchesMixin, ActionsMixin, ResultsMixin, HandTokensMixin, LeasesMixin,
            EmojisMixin, DailyMixin, PingsMixin, AnnouncementsMixin, TeamMatchesMixin,
            ChallengesMixin, PrivacyMixin, ServersMixin):
    """Open with `store = await Store.open(target)` (or `async with await Store.open(...)`):
    a file path for SQLite, a `postgresql://` URL for PostgreSQL."""

    applied_migrations: tuple[int, ...] = ()

    @classmethod
    async def open(cls, target: str | os.PathLike[str] = DEFAULT_PATH) -> Store:
        """Open (creating and migrating if needed) the database; ":memory:" for a private
        SQLite one that is gone when closed. Raises StoreError with one readable line if
        it is unusable."""
        text = os.fspath(target)
        if is_postgres_url(text):
            return await PostgresStore.connect(text)
        return await SqliteStore.connect(text)

    async def rebuild_ratings(self, rater: ratings.Rater, *, with_history: bool = True) -> int:
        """Recompute every rating, change and figure from the stored results with
        `rater`, replaying the finished matches in the order they finished (each with
        its action log when with_history); returns how many. One transaction: on any
        error nothing changes."""
        return await self._writing(
            "rebuilding the ratings", lambda tx: ratings.rebuild(tx, rater, with_history))

    async def ping(self) -> None:
        """One trivial read (the health check): StoreError if the database does not answer."""
        await self._fetchone("answering a health check", "SELECT 1")

    async def close(self) -> None:
        """Close the connections (idempotent); committed writes are already safe."""
        await self._close_connections()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


class SqliteStore(Store, SqliteBackend):
    _scratch: str | None = None  # the private folder standing in for ":memory:"

    @classmethod
    async def connect(cls, path: str) -> SqliteStore:
        scratch = None
        file = path
        if path == MEMORY:
            # The reader and the writer cannot share an in-memory database, so a file in
            # a private folder stands in, removed on close.
            scratch = tempfile.mkdtemp(prefix="tricktable-")
            file = os.path.join(scratch, "memory.db")
        try:
            conn, writer, applied = await open_database(file)
        except BaseException:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            raise
        store = cls(conn, writer, path)
        store.applied_migrations = applied
        store._scratch = scratch
        return store

    @property
    def closed(self) -> bool:
        return self._conn is None

    async def close(self) -> None:
        await self._close_connections()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None


class PostgresStore(Store, PostgresBackend):
    @classmethod
    async def connect(cls, url: str) -> PostgresStore:
        pool, applied = await open_pool(url)
        store = cls(pool, url)
        store.applied_migrations = applied
        return store

    @property
    def closed(self) -> bool:
        return self._pool is None
