"""bot/store opening: migrations, pragmas, refusing unusable or newer databases."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, SCHEMA_VERSION, Migration, Store, StoreError
from bot.store.db import check_migrations, open_database, split_statements

TABLES = {"matches", "seats", "actions", "deal_results", "match_results", "match_players"}


def _user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


async def test_migrations_from_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        assert store.applied_migrations == tuple(range(1, len(MIGRATIONS) + 1))
    assert _user_version(path) == len(MIGRATIONS) == SCHEMA_VERSION
    assert _tables(path) >= TABLES


async def test_reopening_an_up_to_date_file_runs_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    async with await Store.open(path) as store:
        assert store.applied_migrations == ()
    assert _user_version(path) == SCHEMA_VERSION


async def test_connection_pragmas(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "t.db") as store:
        values = {}
        for name in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout"):
            async with store.connection.execute(f"PRAGMA {name}") as cursor:
                row = await cursor.fetchone()
                assert row is not None
                values[name] = row[0]
    assert values == {"journal_mode": "wal", "foreign_keys": 1, "synchronous": 1,
                      "busy_timeout": 5000}


async def test_memory_database_is_migrated_and_usable() -> None:
    async with await Store.open(":memory:") as store:
        assert store.applied_migrations == tuple(range(1, SCHEMA_VERSION + 1))
        match_id = await store.create_match("spades", {}, 1, 2, 3, 4, {})
        assert (await store.get_match(match_id)) is not None


async def test_newer_schema_is_refused_with_the_message(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    newer = SCHEMA_VERSION + 3
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    assert str(caught.value) == (
        f"This database was written by a newer version of TrickTable (schema {newer}; "
        f"this version knows up to {SCHEMA_VERSION}). Upgrade the bot or use another "
        "DATABASE_PATH.")
    assert _user_version(path) == newer  # untouched


def _not_a_database(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 200)
    return path


@pytest.mark.parametrize(("make_path", "reason"), [
    (lambda tmp: tmp / "no" / "such" / "folder" / "t.db", "does not exist"),
    (lambda tmp: tmp, "is a directory"),
    (_not_a_database, "not a SQLite database file"),
], ids=["missing-folder", "directory", "not-a-database"])
async def test_unusable_path_is_refused_with_one_line(tmp_path: Path, make_path, reason) -> None:
    path = make_path(tmp_path)
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    message = str(caught.value)
    assert str(path) in message and reason in message
    assert "\n" not in message


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root ignores file permissions")
async def test_unreadable_file_is_refused_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    path.chmod(0)
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    assert str(path) in str(caught.value) and "permission" in str(caught.value)
    assert "\n" not in str(caught.value)


async def test_a_second_migration_is_applied_alone(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    table = "CREATE TABLE ratings (user_id INTEGER PRIMARY KEY, rating REAL);"
    second = Migration(SCHEMA_VERSION + 1, "ratings", table, table)
    conn, writer, applied = await open_database(path, (*MIGRATIONS, second))
    writer.close()
    await conn.close()
    assert applied == (SCHEMA_VERSION + 1,)
    assert _user_version(path) == SCHEMA_VERSION + 1
    assert "ratings" in _tables(path)


async def test_a_failing_migration_is_rolled_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    script = "CREATE TABLE half_done (x INTEGER);\nINSERT INTO nowhere VALUES (1);"
    broken = Migration(SCHEMA_VERSION + 1, "broken", script, script)
    with pytest.raises(StoreError, match=r"Migration \d+ \(broken\) failed .* rolled back"):
        await open_database(path, (*MIGRATIONS, broken))
    assert _user_version(path) == SCHEMA_VERSION
    assert "half_done" not in _tables(path)


def test_split_statements_keeps_a_trigger_whole() -> None:
    script = ("CREATE TABLE a (x);\n-- a comment; with a semicolon\n"
              "CREATE TRIGGER t BEFORE UPDATE ON a\nBEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\n"
              "-- trailing comment\n")
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("END;") and "SELECT 2;" in statements[1]
    assert len(split_statements(MIGRATIONS[0].sql)) > len(TABLES)


def test_migrations_must_be_numbered_in_order() -> None:
    check_migrations(MIGRATIONS)
    with pytest.raises(ValueError, match="numbered"):
        check_migrations((*MIGRATIONS, Migration(SCHEMA_VERSION + 2, "gap", "SELECT 1;",
                                                        "SELECT 1;")))


async def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.db")
    await store.close()
    await store.close()  # idempotent
    assert store.closed
    with pytest.raises(StoreError, match="closed"):
        await store.get_match(1)
