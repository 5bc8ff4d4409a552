"""What every backend gives the Store's parts: transactions on a `Tx`, one SQL dialect.

The parts (matches.py, actions.py, results.py, ratings.py, leases.py) are written once,
against `Tx`, in SQL that both SQLite and PostgreSQL run: `?` placeholders (the PostgreSQL
backend numbers them), `RETURNING`, `ON CONFLICT`, table-qualified columns in upserts.
The few places where the two differ are named in `Dialect`. Driver errors never leave a
backend: they become one-line StoreErrors, and the two that callers act on get their own
classes (MissingParent, DuplicateKey).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import StoreError

Params = Sequence[Any]
Row = Sequence[Any]
T = TypeVar("T")


class MissingParent(StoreError):
    """A write referred to a match that does not exist (a foreign key)."""


class DuplicateKey(StoreError):
    """A write would have duplicated a primary key (a row already there)."""


class Tx(abc.ABC):
    """Statements inside one transaction (a write) or one snapshot (a read)."""

    @abc.abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    @abc.abstractmethod
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None


@dataclass(frozen=True, slots=True)
class Dialect:
    """The SQL fragments the two databases spell differently."""

    name: str
    # Counts, per match, the log rows whose seat is an integer and whose action is a text
    # (SQLite stores any type in any column; PostgreSQL's types make every row sound).
    sound_actions: str
    # The table a leaderboard count reads (SQLite needs to be told which index to walk).
    board_count_source: str


Work = Callable[[Tx], Coroutine[Any, Any, T]]


class StoreBase(abc.ABC):
    """The plumbing a backend implements; the Store's parts use only this."""

    path: str  # the database, as the operator named it (a file, or a URL without password)
    dialect: Dialect

    @abc.abstractmethod
    async def _writing(self, doing: str, work: Work[T]) -> T:
        """Run work(tx) as ONE transaction, committed on return; return its result.

        Any exception rolls it back: a driver error becomes a one-line StoreError (its
        cause kept), any other (StoreConflict, say) is raised as it is. The work may be
        run again (another process held the lock), so it must only read and write
        through the Tx it is given, and await nothing else.
        """

    @abc.abstractmethod
    def _reading(self, doing: str) -> AbstractAsyncContextManager[Tx]:
        """A read snapshot: its statements see one consistent state."""

    @abc.abstractmethod
    async def _close_connections(self) -> None: ...

    @property
    @abc.abstractmethod
    def closed(self) -> bool: ...

    @abc.abstractmethod
    def trace_statements(self, callback: Callable[[str], None] | None) -> None:
        """Call callback(sql) as each write statement starts (bench/tables counts them)."""

    @abc.abstractmethod
    async def _drop_old_copies(self) -> None:
        """After an erasure (forgetting a person): drop what the backend still keeps of
        the erased rows besides the rows themselves, where it can."""

    async def _write(self, doing: str, sql: str, params: Params = ()) -> int:
        """Run one write statement (committed on return); return the rows it changed."""
        return await self._writing(doing, lambda tx: tx.execute(sql, params))

    async def _fetchall(self, doing: str, sql: str, params: Params = ()) -> list[Row]:
        async with self._reading(doing) as tx:
            return await tx.fetch(sql, params)

    async def _fetchone(self, doing: str, sql: str, params: Params = ()) -> Row | None:
        async with self._reading(doing) as tx:
            return await tx.fetchrow(sql, params)


def placeholders(values: Iterable[object]) -> str:
    """'?, ?, ?' for an IN list; the values themselves are always passed as parameters."""
    return ", ".join("?" for _ in values)


def missing_match(match_id: int) -> StoreError:
    return StoreError(f"Match {match_id} does not exist.")


def is_missing_parent(error: StoreError) -> bool:
    """Whether a write failed because its match does not exist (a foreign key)."""
    return isinstance(error, MissingParent)
