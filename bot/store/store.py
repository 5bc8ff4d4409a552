"""The Store: TrickTable's persistence, one SQLite file behind an async API.

Every write is committed before the call returns (the bot shows an action only after it
is stored). The parts live in their own modules: matches.py (tables and seats),
actions.py (the action log, bulk loading), results.py (deal scores, match results).
"""

from __future__ import annotations

import os
from types import TracebackType

from .actions import ActionsMixin
from .db import open_database
from .matches import MatchesMixin
from .results import ResultsMixin

DEFAULT_PATH = "tricktable.db"


class Store(MatchesMixin, ActionsMixin, ResultsMixin):
    """Open with `store = await Store.open(path)` (or `async with await Store.open(path)`)."""

    applied_migrations: tuple[int, ...] = ()

    @classmethod
    async def open(cls, path: str | os.PathLike[str] = DEFAULT_PATH) -> Store:
        """Open (creating and migrating if needed) the database at path; ":memory:" for a
        private in-memory one. Raises StoreError with one readable line if it is unusable."""
        conn, applied = await open_database(path)
        store = cls(conn, os.fspath(path))
        store.applied_migrations = applied
        return store

    @property
    def closed(self) -> bool:
        return self._conn is None

    async def close(self) -> None:
        """Close the connection (idempotent); committed writes are already safe."""
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
