"""The SQLite backend: writes on a writer connection, reads on a reader.

Writes run on a plain sqlite3 connection, synchronously on the event loop, each as one
short transaction with no await inside. Reads run on an aiosqlite connection in its worker
thread. Why the split: a write here is one or a few indexed statements, and in WAL mode
with synchronous=NORMAL its commit costs tens of microseconds; a trip to a worker thread
costs far more under load (the thread waits for the GIL, and the result waits for a turn
of the event loop), and every click waits for its action's commit. Reads can be long (a
leaderboard, a restart's bulk load), so they stay off the loop. In WAL mode readers never
block the writer, and every read sees every write committed before it began.

The Store's parts write `async def` work against a Tx (so PostgreSQL can run the same
code); on the writer that work never really waits, so it is driven to its end in one
step, synchronously, and a write stays one uninterrupted transaction.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from .base import Dialect, DuplicateKey, MissingParent, Params, Row, StoreBase, T, Tx, Work
from .errors import StoreError

log = logging.getLogger(__name__)

BUSY_TIMEOUT = 5.0  # seconds a write waits for another process's write lock
CHECKPOINT_EVERY = 1000  # writes between WAL checkpoints (run off the loop, see _wrote)

# Every connection the store opens zeroes what it deletes or overwrites (in the page and in
# the free pages), whatever the SQLite build's default: a forgotten person's id and name
# must not stay readable in the file (privacy.py).
SECURE_DELETE = "PRAGMA secure_delete = ON"

SQLITE = Dialect(
    name="sqlite",
    sound_actions="SUM(typeof(seat) = 'integer' AND typeof(action) = 'text')",
    board_count_source="skill_ratings INDEXED BY ratings_board",  # else it walks the guild
)


class WriterTx(Tx):
    """The writer connection inside its transaction; every call completes at once."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        return self.conn.execute(sql, params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self.conn.executemany(sql, rows)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return self.conn.execute(sql, params).fetchall()


class ReaderTx(Tx):
    """The reader connection (aiosqlite) inside a read transaction."""

    __slots__ = ("conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self.conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.conn.executemany(sql, rows)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        async with self.conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())


def run_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """Drive a coroutine that never suspends to its end; its result."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coroutine.close()
    raise RuntimeError("a write on the SQLite writer awaited something other than the "
                       "database: writes must not wait inside their transaction")


def driver_error(doing: str, error: sqlite3.Error) -> StoreError:
    """sqlite's error as a one-line StoreError; foreign keys and duplicates by class."""
    text = f"Database error while {doing}: {error}"
    if isinstance(error, sqlite3.IntegrityError):
        code = error.sqlite_errorcode
        if code == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
            return MissingParent(text)
        if code in (sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_UNIQUE):
            return DuplicateKey(text)
    return StoreError(text)


class SqliteBackend(StoreBase):
    """Shared plumbing for the Store's parts.

    The reader is used under one asyncio lock: a read transaction spans several awaits, and
    without the lock another task's statement could run inside it. The writer needs no
    lock: each write is a whole transaction run without awaiting, so two writes of this
    process can never interleave.
    """

    dialect = SQLITE

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
        """The reading connection (tests look at the file through it)."""
        if self._conn is None:
            raise StoreError(f"The store for '{self.path}' is closed.")
        return self._conn

    @property
    def writer(self) -> sqlite3.Connection:
        """The writing connection (used only through `_writing`)."""
        if self._writer is None:
            raise StoreError(f"The store for '{self.path}' is closed.")
        return self._writer

    def trace_statements(self, callback: Callable[[str], None] | None) -> None:
        self.writer.set_trace_callback(callback)

    async def _writing(self, doing: str, work: Work[T]) -> T:
        return await self._transaction(doing, lambda conn: run_now(work(WriterTx(conn))))

    async def _write(self, doing: str, sql: str, params: Params = ()) -> int:
        """One statement, straight on the writer: the click path's write (an action
        appended) skips the Tx and its coroutine."""
        return await self._transaction(doing, lambda conn: conn.execute(sql, params).rowcount)

    async def _transaction(self, doing: str, run: Callable[[sqlite3.Connection], T]) -> T:
        """run(writer) as one transaction (see StoreBase._writing). When another process
        holds the write lock, the whole transaction is tried again after a short sleep
        (never blocking the loop), for up to BUSY_TIMEOUT."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_TIMEOUT
        pause = 0.002
        while True:
            conn = self.writer
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = run(conn)
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
                raise driver_error(doing, error) from error
            except sqlite3.Error as error:
                raise driver_error(doing, error) from error
            self._wrote()
            return result

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

    async def _drop_old_copies(self) -> None:
        """The WAL still holds the pages as they were before the erasure: fold it into the
        database file (whose pages now hold zeros there) and cut it to nothing."""
        try:
            async with self._using("folding the WAL after an erasure") as conn, \
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cursor:
                row = await cursor.fetchone()
        except StoreError:
            log.warning("Database %s: could not fold its WAL after an erasure", self.path,
                        exc_info=True)
            return
        if row is not None and row[0]:
            log.warning("Database %s: another connection kept its WAL from being folded "
                        "after an erasure; the old pages go at a later checkpoint", self.path)

    @asynccontextmanager
    async def _using(self, doing: str) -> AsyncIterator[aiosqlite.Connection]:
        """Exclusive use of the reader; sqlite errors become one-line StoreErrors."""
        async with self._lock:
            conn = self.connection
            try:
                yield conn
            except sqlite3.Error as error:
                raise driver_error(doing, error) from error

    @asynccontextmanager
    async def _reading(self, doing: str) -> AsyncIterator[Tx]:
        """A read transaction on the reader: its statements see one consistent state."""
        async with self._using(doing) as conn:
            try:
                await conn.execute("BEGIN")
                yield ReaderTx(conn)
                await conn.execute("COMMIT")
            except BaseException:
                # Shielded: a cancelled task must still leave the connection out of the
                # transaction, or every later read would see the same old snapshot.
                await asyncio.shield(rollback_if_open(conn))
                raise

    async def _close_connections(self) -> None:
        if self._checkpoint is not None:
            self._checkpoint.cancel()
        async with self._lock:
            writer, self._writer = self._writer, None
            if writer is not None:
                writer.close()
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()  # the last connection out folds the WAL into the file


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


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """Another connection holds the lock (SQLITE_BUSY or SQLITE_LOCKED, extended codes
    included): the write may be tried again."""
    return (error.sqlite_errorcode & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
