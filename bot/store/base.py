"""The connection, its lock and the two ways to use it: one statement, or one transaction."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from .errors import StoreError

Params = Sequence[Any] | dict[str, Any]


class StoreBase:
    """Shared plumbing for the Store's parts.

    One connection in autocommit mode, and one asyncio lock around every use of it: a
    transaction spans several awaits, and without the lock another task's statement
    could run inside it (and be rolled back with it, or see it half done).
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        self.path = path

    @property
    def connection(self) -> aiosqlite.Connection:
        """The raw connection, for other bot/store modules (leaderboards, ratings) only."""
        if self._conn is None:
            raise StoreError(f"The store for '{self.path}' is closed.")
        return self._conn

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
    async def _transaction(
        self, doing: str, *, write: bool = True,
    ) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN ... COMMIT, rolled back on any exception. Writers take the write lock at
        BEGIN (IMMEDIATE) so a second process waits instead of failing halfway."""
        async with self._using(doing) as conn:
            try:
                await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                # Shielded: a cancelled task must still leave the connection out of any
                # transaction, or every later write would silently join it.
                await asyncio.shield(rollback_if_open(conn))
                raise

    async def _fetchall(self, doing: str, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._using(doing) as conn, conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _fetchone(self, doing: str, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._using(doing) as conn, conn.execute(sql, params) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def _write(self, doing: str, sql: str, params: Params = ()) -> int:
        """Run one statement (committed on return, autocommit); return the rows changed."""
        async with self._using(doing) as conn, conn.execute(sql, params) as cursor:
            return cursor.rowcount


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
