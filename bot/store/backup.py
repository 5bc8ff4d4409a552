"""Backups of the SQLite database, and restoring one.

`backup` uses SQLite's online backup API on its own read connection: in WAL mode a reader
never blocks the bot's writes, and the copy is one consistent snapshot (every write
committed before it began, none after), so it is safe while the bot runs. `restore`
checks that the file is a TrickTable database this version can open, then copies it over
the target with the same API. PostgreSQL has its own tools (pg_dump, pg_restore): asked to
back one up, these say so.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .db import folder_problem
from .errors import StoreError
from .migrations import SCHEMA_VERSION
from .postgres import is_postgres_url, shown
from .sqlite import SECURE_DELETE

PG_DUMP_HINT = ("PostgreSQL databases are backed up with PostgreSQL's own tools: "
                "pg_dump --format=custom --file=tricktable.dump '{url}', restored with "
                "pg_restore --clean --if-exists --dbname='{url}' tricktable.dump.")


def _refuse_postgres(database: str) -> None:
    if is_postgres_url(database):
        raise StoreError(PG_DUMP_HINT.format(url=shown(database)))


def _connect(target: str | Path, *, uri: bool = False, timeout: float = 5.0,
             ) -> sqlite3.Connection:
    """A connection of these tools: like the store's own, it zeroes what it deletes."""
    conn = sqlite3.connect(target, uri=uri, timeout=timeout)
    try:
        conn.execute(SECURE_DELETE)
    except BaseException:
        conn.close()
        raise
    return conn


def _check_backup(path: Path) -> int:
    """The schema version of a TrickTable database file; StoreError if it is not one."""
    if not path.is_file():
        raise StoreError(f"There is no file '{path}'.")
    try:
        conn = _connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
            tables = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise StoreError(f"'{path}' is not a usable SQLite database: {error}.") from error
    if ok != "ok":
        raise StoreError(f"'{path}' is damaged (SQLite's check says: {ok}).")
    if version < 1 or "matches" not in tables:
        raise StoreError(f"'{path}' is not a TrickTable database.")
    if version > SCHEMA_VERSION:
        raise StoreError(f"'{path}' was written by a newer TrickTable (schema {version}; "
                         f"this version knows up to {SCHEMA_VERSION}).")
    return version


def backup(database: str, destination: str, *, force: bool = False) -> int:
    """Copy the live database to `destination` (a new file unless `force`); the number of
    bytes written. Safe while the bot runs."""
    _refuse_postgres(database)
    source, target = Path(database), Path(destination)
    if not source.is_file():
        raise StoreError(f"There is no database file '{database}' to back up.")
    if target.exists() and not force:
        raise StoreError(f"'{destination}' already exists; choose a new name (or --force).")
    if target.resolve() == source.resolve():
        raise StoreError("The backup must go to another file than the database itself.")
    problem = folder_problem(target)
    if problem is not None:
        raise StoreError(f"Cannot back up to '{destination}': {problem}.")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        src = _connect(source, timeout=30)  # reads only (WAL needs it writable)
        dst = _connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one snapshot of the database
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            dst.close()
            src.close()
        _check_backup(partial)
        os.replace(partial, target)  # a backup appears whole or not at all
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise StoreError(f"Could not back up '{database}': {error}.") from error
    except StoreError:
        partial.unlink(missing_ok=True)
        raise
    return target.stat().st_size


def restore(backup_path: str, database: str, *, force: bool = False) -> int:
    """Replace `database` by the backup (refused if it exists, unless `force`: stop the
    bot first); the backup's schema version (the bot migrates it further when it opens)."""
    _refuse_postgres(database)
    source, target = Path(backup_path), Path(database)
    version = _check_backup(source)
    if target.exists() and not force:
        raise StoreError(f"'{database}' already exists. Stop the bot, then restore with "
                         "--force to replace it (or restore into a new DATABASE_PATH).")
    for stale in (Path(f"{target}-wal"), Path(f"{target}-shm")):
        if stale.exists() and not force:
            raise StoreError(f"'{stale}' exists: is the bot still running?")
    problem = folder_problem(target)
    if problem is not None:
        raise StoreError(f"Cannot restore into '{database}': {problem}.")
    try:
        src = _connect(f"file:{source}?mode=ro", uri=True)
        dst = _connect(target, timeout=30)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
    except sqlite3.Error as error:
        raise StoreError(f"Could not restore into '{database}': {error}.") from error
    return version
