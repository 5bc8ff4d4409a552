"""The PostgreSQL backend (asyncpg): a pool of connections shared by several bot processes.

Every statement is a network round trip, so a write that is one statement (most of them:
an action appended, a seat taken) runs on its own, committed by PostgreSQL as it ends; a
write of several statements runs in one transaction on one connection. A read of one
statement goes to any connection; a read of several runs in one REPEATABLE READ
read-only transaction, which sees one snapshot as SQLite's read transaction does.
Connections are held between statements (HeldConnections), so a statement costs its
caller one turn of the event loop, its answer, and no second one to give it back.
Migrations run under an advisory lock, so processes starting together apply each once.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .base import Dialect, DuplicateKey, MissingParent, Params, Row, StoreBase, T, Tx, Work
from .db import check_migrations, newer_schema_error
from .errors import StoreError
from .migrations import MIGRATIONS, Migration

log = logging.getLogger(__name__)

POSTGRES = Dialect(
    name="postgresql",
    sound_actions="COUNT(*)",  # the columns' types already hold every row to this
    board_count_source="skill_ratings",
)

POOL_SIZE = 10  # connections per process: concurrent writes of one process
# As SQLite's synchronous=NORMAL: a commit is answered once it is in PostgreSQL's log,
# without waiting for the disk (a flush per click costs milliseconds). It survives any
# crash of the bot; a crash of the database server or the machine can undo the last
# fraction of a second of commits, never corrupt anything (PostgreSQL's asynchronous
# commit). Set per session, so the server's own default stays for everything else.
SESSION = {"synchronous_commit": "off"}
RETRIES = 5  # a transaction that lost a serialization race or a deadlock is run again
_MIGRATION_LOCK = 0x7472_6963_6B74  # pg_advisory_lock key: "trickt" in ASCII
URL_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.startswith(URL_SCHEMES)


def shown(url: str) -> str:
    """The URL without its password, fit for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


@lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """The store's SQL with `?` placeholders as PostgreSQL's $1, $2, ... (our statements
    never hold a question mark in a literal)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def _changed(status: str) -> int:
    """Rows changed, from a command tag ('INSERT 0 1', 'UPDATE 3', 'DELETE 0')."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def driver_error(doing: str, error: BaseException) -> StoreError:
    text = " ".join(f"Database error while {doing}: {error}".split())
    if isinstance(error, asyncpg.ForeignKeyViolationError):
        return MissingParent(text)
    if isinstance(error, asyncpg.UniqueViolationError):
        return DuplicateKey(text)
    return StoreError(text)


_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
_RETRYABLE = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)


Trace = Callable[[str], None] | None


class PgTx(Tx):
    __slots__ = ("conn", "trace")

    def __init__(self, conn: Any, trace: Trace = None) -> None:
        self.conn = conn  # an asyncpg connection
        self.trace = trace

    async def execute(self, sql: str, params: Params = ()) -> int:
        if self.trace is not None:
            self.trace(sql)
        return _changed(await self.conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        if self.trace is not None:
            self.trace(sql)
        batch = [tuple(row) for row in rows]
        if batch:
            await self.conn.executemany(numbered(sql), batch)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        # Plain tuples, as SQLite gives: rows are compared and sliced as tuples upstream.
        return list(map(tuple, await self.conn.fetch(numbered(sql), *params)))


class HeldConnections:
    """The pool's connections, held between statements instead of given back.

    asyncpg's Pool gives a connection back through a new task (`asyncio.shield`), so
    each pooled statement cost its caller a second turn of the event loop after the
    answer had come; under load a turn means waiting behind every table's queued work
    (bench/tables: a click's p99 on PostgreSQL was twice SQLite's). A connection whose
    work ended cleanly is kept here and handed to the next caller at once, without a
    turn; one whose work failed or was cancelled goes back to the pool, which rolls it
    back, resets or replaces it. At most `size` (the pool's) are taken, so the pool
    never runs dry while connections sit here.
    """

    def __init__(self, pool: Any, size: int) -> None:
        self.pool = pool
        self.size = size
        self._idle: list[Any] = []
        self._taken = 0  # taken from the pool: idle here or in use
        # Callers waiting for a connection: each gets one, or None (take one yourself).
        self._waiting: deque[asyncio.Future[Any]] = deque()

    @asynccontextmanager
    async def using(self) -> AsyncIterator[Any]:
        conn = await self._take()
        try:
            yield conn
        except BaseException:
            # Given back within the failed (or cancelled) caller's own task, as asyncpg's
            # pool does, so that nothing is left running when the bot stops.
            await self._give_back(conn)
            raise
        if conn.is_closed():
            await self._give_back(conn)
        else:
            self._hand_on(conn)

    async def _take(self) -> Any:
        if self._idle:
            return self._idle.pop()
        if self._taken >= self.size:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            try:
                handed = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():  # handed over, then cancelled
                    self._hand_on(waiter.result())
                raise
            if handed is not None:
                return handed
        else:
            self._taken += 1
        try:
            return await self.pool.acquire()
        except BaseException:
            self._hand_on(None)
            raise

    def _hand_on(self, conn: Any) -> None:
        """A connection (or, for None, a free place) to the first caller still waiting,
        else kept idle (or the place given up)."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        if conn is None:
            self._taken -= 1
        else:
            self._idle.append(conn)

    async def _give_back(self, conn: Any) -> None:
        """To the pool, which rolls back, resets or replaces it (a failed statement, a
        cancelled one); its place goes to a waiting caller."""
        try:
            await self.pool.release(conn)
        finally:
            self._hand_on(None)

    async def close(self) -> None:
        """Everything back to the pool, which is then closed."""
        idle, self._idle = self._idle, []
        for conn in idle:
            await self.pool.release(conn)
        await self.pool.close()


class PostgresBackend(StoreBase):
    dialect = POSTGRES

    def __init__(self, pool: Any, url: str) -> None:
        self._pool: HeldConnections | None = HeldConnections(pool, POOL_SIZE)
        self._trace: Trace = None
        self.path = shown(url)

    def trace_statements(self, callback: Callable[[str], None] | None) -> None:
        self._trace = callback

    async def _drop_old_copies(self) -> None:
        """Nothing to do online: the erased rows' old versions stay in the table's files
        until a VACUUM FULL rewrites them, which locks the tables; the operator runs it
        (docs/operations.md)."""

    @property
    def pool(self) -> HeldConnections:
        if self._pool is None:
            raise StoreError(f"The store for '{self.path}' is closed.")
        return self._pool

    async def _writing(self, doing: str, work: Work[T]) -> T:
        for attempt in range(RETRIES):
            try:
                async with self.pool.using() as conn, conn.transaction():
                    return await work(PgTx(conn, self._trace))
            except _RETRYABLE as error:
                if attempt == RETRIES - 1:
                    raise driver_error(doing, error) from error
                await asyncio.sleep(0.002 * 2 ** attempt)
            except _DRIVER_ERRORS as error:
                raise driver_error(doing, error) from error
        raise AssertionError("unreachable")  # pragma: no cover

    async def _write(self, doing: str, sql: str, params: Params = ()) -> int:
        """One statement is its own transaction: one round trip, not three."""
        try:
            async with self.pool.using() as conn:
                return await PgTx(conn, self._trace).execute(sql, params)
        except _DRIVER_ERRORS as error:
            raise driver_error(doing, error) from error

    async def _fetchall(self, doing: str, sql: str, params: Params = ()) -> list[Row]:
        try:
            async with self.pool.using() as conn:
                return await PgTx(conn).fetch(sql, params)
        except _DRIVER_ERRORS as error:
            raise driver_error(doing, error) from error

    async def _fetchone(self, doing: str, sql: str, params: Params = ()) -> Row | None:
        rows = await self._fetchall(doing, sql, params)
        return rows[0] if rows else None

    @asynccontextmanager
    async def _reading(self, doing: str) -> AsyncIterator[Tx]:
        try:
            async with self.pool.using() as conn, conn.transaction(
                    isolation="repeatable_read", readonly=True):
                yield PgTx(conn)
        except _DRIVER_ERRORS as error:
            raise driver_error(doing, error) from error

    async def _close_connections(self) -> None:
        held, self._pool = self._pool, None
        if held is not None:
            await held.close()


async def _keep_session(conn: Any) -> None:
    """Given back to the pool as it is: the store sets no session state (no LISTEN, no
    SET; the migration's advisory lock is released explicitly, and asyncpg itself rolls
    back a transaction left open), so asyncpg's default reset, a RESET ALL and friends,
    would only cost every pooled statement a second round trip."""


def _unusable(url: str, reason: object) -> StoreError:
    line = f"Cannot use PostgreSQL at '{shown(url)}' as the TrickTable database: {reason}."
    return StoreError(" ".join(line.split()))


async def open_pool(url: str, migrations: Sequence[Migration] = MIGRATIONS
                    ) -> tuple[Any, tuple[int, ...]]:
    """Connect (a pool) and migrate; raise StoreError with one line if it is unusable."""
    try:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE,
                                         command_timeout=60, reset=_keep_session,
                                         server_settings=SESSION)
    except (*_DRIVER_ERRORS, ValueError) as error:
        raise _unusable(url, error) from error
    try:
        async with pool.acquire() as conn:
            applied = await migrate(conn, url, migrations)
    except BaseException as error:
        await pool.close()
        if isinstance(error, _DRIVER_ERRORS):
            raise _unusable(url, error) from error
        raise
    return pool, applied


async def schema_version(conn: Any) -> int:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    found = await conn.fetchval("SELECT MAX(version) FROM schema_version")
    return int(found or 0)


async def migrate(conn: Any, url: str, migrations: Sequence[Migration] = MIGRATIONS
                  ) -> tuple[int, ...]:
    """Apply the pending migrations, one transaction each, holding an advisory lock so
    that another process starting at the same moment waits; return those applied."""
    check_migrations(migrations)
    known = len(migrations)
    applied: list[int] = []
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        found = await schema_version(conn)
        if found > known:
            raise newer_schema_error(found, known, setting="DATABASE_URL")
        for migration in migrations[found:]:
            try:
                async with conn.transaction():
                    await conn.execute(migration.postgres)
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version VALUES ($1)",
                                       migration.version)
            except asyncpg.PostgresError as error:
                raise StoreError(
                    f"Migration {migration.version} ({migration.name}) failed on "
                    f"'{shown(url)}' and was rolled back: {error}") from error
            log.info("Database %s: applied migration %d (%s)", shown(url),
                     migration.version, migration.name)
            applied.append(migration.version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
    return tuple(applied)
