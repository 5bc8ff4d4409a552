"""Opening a SQLite database: path checks, connection pragmas and the migrations runner."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import aiosqlite

from .errors import StoreError
from .migrations import MIGRATIONS, Migration
from .sqlite import SECURE_DELETE, rollback_if_open

log = logging.getLogger(__name__)

MEMORY = ":memory:"
BUSY_TIMEOUT_MS = 5000

# sqlite's own wording, turned into a reason an operator can act on.
_REASONS = (
    ("file is not a database", "it is not a SQLite database file"),
    ("unable to open database file", "the file cannot be opened or created (check permissions)"),
    ("readonly database", "the file or its folder is read-only"),
    ("database is locked", "another program holds a lock on it"),
    ("disk i/o error", "the disk reported an I/O error"),
)


def _unusable(path: str, reason: str) -> StoreError:
    line = f"Cannot use '{path}' as the TrickTable database: {reason}."
    return StoreError(" ".join(line.split()))  # always one line


def _reason(error: sqlite3.Error) -> str:
    text = str(error)
    lowered = text.lower()
    for needle, reason in _REASONS:
        if needle in lowered:
            return reason
    return text


def newer_schema_error(found: int, known: int, setting: str = "DATABASE_PATH") -> StoreError:
    return StoreError(
        f"This database was written by a newer version of TrickTable (schema {found}; "
        f"this version knows up to {known}). Upgrade the bot or use another {setting}.")


def _running_as() -> tuple[str, str]:
    """Who this process runs as, for a message about permissions: (words, chown's owner)."""
    if not hasattr(os, "geteuid"):
        return "this process's user", "USER"
    uid = os.geteuid()
    try:
        import pwd
        return f"the user {pwd.getpwuid(uid).pw_name} (uid {uid})", str(uid)
    except (ImportError, KeyError):
        return f"the user with uid {uid}", str(uid)


def folder_problem(path: str | os.PathLike[str]) -> str | None:
    """Why no file can be created at `path` (its folder is missing, or this process may
    not write in it), naming the folder and the fix; None when one can."""
    folder = Path(path).absolute().parent
    if not folder.is_dir():
        return f"the folder '{folder}' does not exist (create it first)"
    if not os.access(folder, os.W_OK | os.X_OK):
        who, owner = _running_as()
        return (f"{who} cannot write in the folder '{folder}': make it writable by that "
                f"user (chown {owner} '{folder}'; for a bind mount, on the host's folder)")
    return None


def _check_path(path: str) -> None:
    """Catch the common mistakes before sqlite turns them into a vague message. The
    folder must be writable even when the file exists: SQLite keeps its -wal and -shm
    files beside the database."""
    target = Path(path)
    if target.is_dir():
        raise _unusable(path, "it is a directory; DATABASE_PATH must name a file")
    problem = folder_problem(target)
    if problem is not None:
        raise _unusable(path, problem)
    if target.exists() and not os.access(target, os.R_OK | os.W_OK):
        who, owner = _running_as()
        raise _unusable(path, f"{who} has no permission to read and write the file: "
                              f"chown {owner} '{target.absolute()}'")


async def _pragma_int(conn: aiosqlite.Connection, name: str) -> int:
    async with conn.execute(f"PRAGMA {name}") as cursor:  # names are ours, never input
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def _configure(conn: aiosqlite.Connection, path: str) -> None:
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute(SECURE_DELETE)
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
    await _pragma_int(conn, "user_version")  # the first real read: "not a database" shows here
    async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
        row = await cursor.fetchone()
    if row is None or str(row[0]).lower() != "wal":
        log.warning("Database %s stays in journal mode %s (WAL not available)", path, row)
    # NORMAL with WAL: a commit survives a crash of the bot; only power loss can undo
    # the last few commits, and never corrupts the file.
    await conn.execute("PRAGMA synchronous = NORMAL")


def split_statements(script: str) -> list[str]:
    """Split an SQL script into complete statements (triggers' inner ';' included)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = [ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise ValueError(f"Incomplete SQL statement at the end of a migration: {leftover[0]!r}")
    return statements


def check_migrations(migrations: Sequence[Migration]) -> None:
    for index, migration in enumerate(migrations, start=1):
        if migration.version != index:
            raise ValueError(
                f"Migrations must be numbered 1, 2, 3, ... in order; "
                f"found {migration.version} at position {index}")


async def migrate(
    conn: aiosqlite.Connection, path: str, migrations: Sequence[Migration] = MIGRATIONS,
) -> tuple[int, ...]:
    """Apply the pending migrations, one transaction each; return the versions applied."""
    check_migrations(migrations)
    known = len(migrations)
    found = await _pragma_int(conn, "user_version")
    if found > known:
        raise newer_schema_error(found, known)
    applied: list[int] = []
    for migration in migrations[found:]:
        try:
            await conn.execute("BEGIN IMMEDIATE")
            # Another process may have migrated while we waited for the write lock.
            current = await _pragma_int(conn, "user_version")
            if current > known:
                raise newer_schema_error(current, known)
            if current >= migration.version:
                await conn.execute("ROLLBACK")
                continue
            for statement in split_statements(migration.sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {migration.version:d}")
            await conn.execute("COMMIT")
        except BaseException as error:
            await asyncio.shield(rollback_if_open(conn))
            if isinstance(error, sqlite3.Error):
                raise StoreError(
                    f"Migration {migration.version} ({migration.name}) failed on '{path}' and "
                    f"was rolled back: {error}") from error
            raise
        log.info("Database %s: applied migration %d (%s)", path, migration.version,
                 migration.name)
        applied.append(migration.version)
    return tuple(applied)


def open_writer(path: str) -> sqlite3.Connection:
    """The writing connection (see base.py): used on the event loop, so it never waits
    for a lock inside sqlite (timeout 0: the Store retries a busy write after a sleep)
    and never checkpoints by itself (the Store has the reader do it in its thread)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(SECURE_DELETE)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        conn.close()
        raise
    return conn


async def open_database(
    path: str | os.PathLike[str], migrations: Sequence[Migration] = MIGRATIONS,
) -> tuple[aiosqlite.Connection, sqlite3.Connection, tuple[int, ...]]:
    """Open (creating if needed) and migrate the database; return its reader, its writer
    and the migrations applied; raise StoreError if it is unusable.

    Both connections are in autocommit mode: every statement outside an explicit
    BEGIN ... COMMIT is committed when it returns.
    """
    text = os.fspath(path)
    if text == MEMORY:
        raise ValueError("open_database needs a file: two connections cannot share "
                         "one in-memory database (Store.open gives ':memory:' a temp file)")
    _check_path(text)
    try:
        conn = await aiosqlite.connect(
            text, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as error:
        raise _unusable(text, _reason(error)) from error
    try:
        try:
            await _configure(conn, text)
        except sqlite3.Error as error:
            raise _unusable(text, _reason(error)) from error
        applied = await migrate(conn, text, migrations)
        try:
            writer = open_writer(text)
        except sqlite3.Error as error:
            raise _unusable(text, _reason(error)) from error
    except BaseException:
        await conn.close()
        raise
    return conn, writer, applied
