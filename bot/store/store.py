"""The Store: TrickTable's persistence, one SQLite file behind an async API.

Every write is committed before the call returns (the bot shows an action only after it
is stored). The parts live in their own modules: matches.py (tables and seats),
actions.py (the action log, bulk loading), results.py (deal scores, match results),
hands.py (the tokens of people's private hands).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from types import TracebackType

from .actions import ActionsMixin
from .db import MEMORY, open_database
from .hands import HandTokensMixin
from .matches import MatchesMixin
from .results import ResultsMixin

DEFAULT_PATH = "tricktable.db"


class Store(MatchesMixin, ActionsMixin, ResultsMixin, HandTokensMixin):
    """Open with `store = await Store.open(path)` (or `async with await Store.open(path)`)."""

    applied_migrations: tuple[int, ...] = ()
    _scratch: str | None = None  # the private folder standing in for ":memory:"

    @classmethod
    async def open(cls, path: str | os.PathLike[str] = DEFAULT_PATH) -> Store:
        """Open (creating and migrating if needed) the database at path; ":memory:" for a
        private one that is gone when closed. Raises StoreError with one readable line if
        it is unusable."""
        text = os.fspath(path)
        scratch = None
        if text == MEMORY:
            # The reader and the writer cannot share an in-memory database, so a file in
            # a private folder stands in, removed on close.
            scratch = tempfile.mkdtemp(prefix="tricktable-")
            text = os.path.join(scratch, "memory.db")
        try:
            conn, writer, applied = await open_database(text)
        except BaseException:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            raise
        store = cls(conn, writer, os.fspath(path))
        store.applied_migrations = applied
        store._scratch = scratch
        return store

    @property
    def closed(self) -> bool:
        return self._conn is None

    async def close(self) -> None:
        """Close both connections (idempotent); committed writes are already safe."""
        if self._checkpoint is not None:
            self._checkpoint.cancel()
        async with self._lock:
            writer, self._writer = self._writer, None
            if writer is not None:
                writer.close()
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()  # the last connection out folds the WAL into the file
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
