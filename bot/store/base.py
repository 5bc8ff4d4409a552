"""The two connections and the ways to use them: writes on the writer, reads on the reader.

Writes run on a plain sqlite3 connection, synchronously on the event loop, each as one
short transaction with no await inside. Reads run on an aiosqlite connection in its worker
thread. Why the split: a write here is one or a few indexed statements, and in WAL mode
with synchronous=NORMAL its commit costs tens of microseconds; a trip to a worker thread
costs far more under load (the thread waits for the GIL, and the result waits for a turn
of the event loop), and every click waits for its action's commit. Reads can be long (a
leaderboard, a restart's bulk load), so they stay off the loop. In WAL mode readers never
block the writer, and every read sees every write committed before it began.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

from .errors import StoreError

log = logging.getLogger(__name__)

Params = Sequence[Any] | dict[str, Any]
T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

BUSY_TIMEOUT = 5.0  # seconds a write waits for another process's write lock
CHECKPOINT_EVERY = 1000  # writes between WAL checkpoints (run off the loop, see _wrote)


class StoreBase:
    """Shared plumbing for the Store's parts.

    The reader is used under one asyncio lock: a read transaction spans several awaits, and
    without the lock another task's statement could run inside it. The writer needs no
    lock: each write is a whole transaction run without awaiting, so two writes of this
    process can never interleave.
    """

    def __init__(self, conn: aiosqlite.Connection, writer: sqlite3.Connection,
                 path: str) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._writer: sqlite3.Connection | None = writer
        self._lock = asyncio.Lock()
        self._writes = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self.path = path

    @property
    def connection(self) -> aiosqlite.Connection:
        """The reading connection, for other bot/store modules (leaderboards) and tests."""
        if self._conn is None:
            raise StoreError(f"The store for '{self.path}' is closed.")
        return self._conn

    @property
    def writer(self) -> sqlite3.Connection:
        """The writing connection (used only through `_writing`)."""
        if self._writer is None:
            raise StoreError(f"The store for '{self.path}' is closed.")
        return self._writer

    async def _writing(self, doing: str, work: Work[T]) -> T:
        """Run work(writer) as ONE transaction, committed on return; return its result.

        Any exception rolls it back: a sqlite error becomes a one-line StoreError (its
        cause kept), any other (StoreConflict, say) is raised as it is. When another
        process holds the write lock, the whole transaction is tried again after a short
        sleep (never blocking the loop), for up to BUSY_TIMEOUT; so `work` must only read
        and write through the connection it is given.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_TIMEOUT
        pause = 0.002
        while True:
            conn = self.writer
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = work(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as error:
                if _is_busy(error) and loop.time() < deadline:
                    await asyncio.sleep(pause)
                    pause = min(2 * pause, 0.1)
                    continue
                raise StoreError(f"Database error while {doing}: {error}") from error
            except sqlite3.Error as error:
                raise StoreError(f"Database error while {doing}: {error}") from error
            self._wrote()
            return result

    async def _write(self, doing: str, sql: str, params: Params = ()) -> int:
        """Run one write statement (committed on return); return the rows it changed."""
        return await self._writing(doing, lambda conn: conn.execute(sql, params).rowcount)

    def _wrote(self) -> None:
        """Count a commit; now and then fold the WAL back into the database file. The
        writer never checkpoints itself (that copies pages and syncs, on the loop): the
        reader does it, in its thread."""
        self._writes += 1
        if self._writes % CHECKPOINT_EVERY:
            return
        if self._checkpoint is None or self._checkpoint.done():
            self._checkpoint = asyncio.get_running_loop().create_task(
                self._fold_wal(), name="store-checkpoint")

    async def _fold_wal(self) -> None:
        """PASSIVE copies the log into the file while writes go on; RESTART then copies
        what came meanwhile (little) and lets the next write start the log from the top,
        holding writes off only for that (they wait without blocking the loop)."""
        try:
            async with self._using("checkpointing the WAL") as conn:
                await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                await conn.execute("PRAGMA wal_checkpoint(RESTART)")
        except StoreError:
            log.warning("Database %s: could not checkpoint its WAL", self.path, exc_info=True)

    @asynccontextmanager
    async def _using(self, doing: str) -> AsyncIterator[aiosqlite.Connection]:
        """Exclusive use of the connection; sqlite errors become one-line StoreErrors."""
        async with self._lock:
            conn = self.connection
            try:
                yield conn
            except sqlite3.Error as error:
                raise StoreError(f"Database error while {doing}: {error}") from error

    @asynccontextmanager
    async def _snapshot(self, doing: str) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction on the reader: its statements see one consistent state."""
        async with self._using(doing) as conn:
            try:
                await conn.execute("BEGIN")
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                # Shielded: a cancelled task must still leave the connection out of the
                # transaction, or every later read would see the same old snapshot.
                await asyncio.shield(rollback_if_open(conn))
                raise

    async def _fetchall(self, doing: str, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._using(doing) as conn, conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _fetchone(self, doing: str, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._using(doing) as conn, conn.execute(sql, params) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row


async def rollback_if_open(conn: aiosqlite.Connection) -> None:
    """Roll back the open transaction, if any, after everything already queued has run.

    A cancelled await does not stop its statement in aiosqlite's worker thread (a BEGIN
    may still be on its way), so ask sqlite itself rather than trusting in_transaction.
    """
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        if "no transaction is active" not in str(error):
            raise


def placeholders(values: Iterable[object]) -> str:
    """'?, ?, ?' for an IN list; the values themselves are always passed as parameters."""
    return ", ".join("?" for _ in values)


def missing_match(match_id: int) -> StoreError:
    return StoreError(f"Match {match_id} does not exist.")


def is_missing_parent(error: StoreError) -> bool:
    """Whether a write failed because its match does not exist (a foreign key)."""
    cause = error.__cause__
    return isinstance(cause, sqlite3.IntegrityError) and "FOREIGN KEY" in str(cause)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """Another connection holds the lock (SQLITE_BUSY or SQLITE_LOCKED, extended codes
    included): the write may be tried again."""
    return (error.sqlite_errorcode & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
