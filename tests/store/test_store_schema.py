"""SQLite and PostgreSQL have the same schema after all the migrations.

Each migration is written twice (bot/store/migrations.py), so the two texts can drift.
Both databases are migrated here and each is read back from its own catalogue (SQLite's
pragmas and sqlite_master, PostgreSQL's pg_catalog) into one description: the tables;
each column's type in a common vocabulary (integer, text, real), whether it may be NULL,
its default; each table's primary key, unique constraints, foreign keys, CHECK
constraints, indexes and triggers. The descriptions must be equal. PostgreSQL's own
`schema_version` table is SQLite's `PRAGMA user_version` and is left out.

What one database spells its own way is put into one form before comparing:
PostgreSQL's `x = ANY (ARRAY[a, b])` is `x IN (a, b)`, its casts (`'{}'::text`) are
dropped, `BETWEEN` is two comparisons, and parentheses and case do not count.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import MIGRATIONS, Migration
from bot.store.db import open_database
from bot.store.postgres import open_pool
from tests.databases import empty_postgres

# The common vocabulary of column types: each database's spelling -> its meaning.
SQLITE_TYPES = {"INTEGER": "integer", "TEXT": "text", "REAL": "real"}
POSTGRES_TYPES = {"smallint": "integer", "integer": "integer", "bigint": "integer",
                  "text": "text", "real": "real", "double precision": "real"}
# PostgreSQL's foreign-key actions, as SQLite names them.
POSTGRES_ACTIONS = {b"a": "NO ACTION", b"r": "RESTRICT", b"c": "CASCADE", b"n": "SET NULL",
                    b"d": "SET DEFAULT"}
POSTGRES_ONLY_TABLES = {"schema_version"}


@dataclass(frozen=True)
class Column:
    type: str
    nullable: bool
    default: str | None


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    table: str
    references: tuple[str, ...]
    on_delete: str
    on_update: str


@dataclass(frozen=True)
class TableShape:
    columns: dict[str, Column]
    primary_key: tuple[str, ...]
    unique: frozenset[tuple[str, ...]]
    foreign_keys: frozenset[ForeignKey]
    checks: tuple[str, ...]  # sorted
    indexes: dict[str, str]  # name -> definition
    triggers: dict[str, str]  # name -> when it fires


Schema = dict[str, TableShape]


def _sql(text: str) -> str:
    """One spelling of an SQL fragment: no comments, casts or parentheses, IN for
    PostgreSQL's `= ANY (ARRAY[...])`, two comparisons for BETWEEN, lower case, single
    spaces."""
    text = re.sub(r"--[^\n]*", " ", text)
    text = re.sub(r"=\s*ANY\s*\(\s*ARRAY\s*\[(.*?)\]\s*\)", r"IN (\1)", text,
                  flags=re.IGNORECASE | re.DOTALL)
    text = re.sub(r"::\s*(?:double precision|character varying|[a-z_]+)(?:\[\])?", "",
                  text, flags=re.IGNORECASE)
    text = re.sub(r"\b(\w+)\s+BETWEEN\s+(\S+)\s+AND\s+(\S+)", r"\1 >= \2 AND \1 <= \3",
                  text, flags=re.IGNORECASE)
    text = re.sub(r"[()]", " ", text)
    text = re.sub(r"\s*,\s*", ", ", text)
    return " ".join(text.split()).lower()


def _default(text: str | None) -> str | None:
    return None if text is None else _sql(text)


def _checks_in(create_table: str) -> list[str]:
    """The CHECK constraints of a CREATE TABLE statement, each its parenthesised text."""
    text = re.sub(r"--[^\n]*", " ", create_table)
    found = []
    for match in re.finditer(r"\bCHECK\s*\(", text, flags=re.IGNORECASE):
        depth, quoted = 0, False
        for end in range(match.end() - 1, len(text)):
            char = text[end]
            if char == "'":
                quoted = not quoted
            elif not quoted and char == "(":
                depth += 1
            elif not quoted and char == ")":
                depth -= 1
                if depth == 0:
                    found.append(text[match.end() - 1:end + 1])
                    break
    return found


_TRIGGER = re.compile(
    r"\b(BEFORE|AFTER|INSTEAD\s+OF)\s+(INSERT|UPDATE|DELETE)(?:\s+OF\s+(.+?))?\s+ON\s",
    flags=re.IGNORECASE | re.DOTALL)


def _when(timing: str, event: str, columns: Sequence[str]) -> str:
    of = f" of {', '.join(sorted(c.lower() for c in columns))}" if columns else ""
    return f"{' '.join(timing.split()).lower()} {event.lower()}{of}"


def _sqlite_schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        return _read_sqlite(conn)
    finally:
        conn.close()


def _read_sqlite(conn: sqlite3.Connection) -> Schema:
    schema: Schema = {}
    tables = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
    for table, create in tables:
        without_rowid = bool(re.search(r"\)\s*WITHOUT\s+ROWID\s*$", create,
                                       flags=re.IGNORECASE))
        info = conn.execute(f"PRAGMA table_info({table})").fetchall()
        key = tuple(name for _, name, *_ in sorted(
            (row for row in info if row[5] > 0), key=lambda row: row[5]))
        rowid_alias = (not without_rowid and len(key) == 1
                       and any(row[1] == key[0] and row[2].upper() == "INTEGER"
                               for row in info))
        columns = {}
        for _, name, declared, notnull, default, pk in info:
            # A primary key may hold NULL in a rowid table (an old SQLite quirk), unless
            # it is the rowid itself (an INTEGER PRIMARY KEY) or declared NOT NULL.
            not_null = bool(notnull) or (pk > 0 and (without_rowid or rowid_alias))
            columns[name] = Column(SQLITE_TYPES.get(declared.upper(), declared.lower()),
                                   not not_null, _default(default))
        unique = set()
        for _, index, is_unique, origin, _ in conn.execute(f"PRAGMA index_list({table})"):
            if origin == "u" and is_unique:
                unique.add(tuple(row[2] for row in conn.execute(
                    f"PRAGMA index_info({index})")))
        keys: dict[int, list[tuple[Any, ...]]] = {}
        for row in conn.execute(f"PRAGMA foreign_key_list({table})"):
            keys.setdefault(row[0], []).append(row)
        foreign = set()
        for rows in keys.values():
            rows.sort(key=lambda row: row[1])
            target = rows[0][2]
            references = tuple(row[4] for row in rows)
            if None in references:  # REFERENCES t without columns: t's primary key
                references = tuple(name for _, name, *_ in sorted(
                    (r for r in conn.execute(f"PRAGMA table_info({target})") if r[5] > 0),
                    key=lambda r: r[5]))
            foreign.add(ForeignKey(tuple(row[3] for row in rows), target, references,
                                   rows[0][6], rows[0][5]))
        indexes = {
            name: _sql(re.sub(r"^\s*CREATE\s+", "", sql, flags=re.IGNORECASE))
            for name, sql in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                "AND tbl_name = ? AND sql IS NOT NULL", (table,))}
        triggers = {}
        for name, sql in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name = ?", (table,)):
            fires = _TRIGGER.search(sql)
            assert fires is not None, sql
            of = [c.strip() for c in fires.group(3).split(",")] if fires.group(3) else []
            triggers[name] = _when(fires.group(1), fires.group(2), of)
        schema[table] = TableShape(
            columns, key, frozenset(unique), frozenset(foreign),
            tuple(sorted(_sql(check) for check in _checks_in(create))), indexes, triggers)
    return schema


async def _postgres_schema(url: str) -> Schema:
    conn = await asyncpg.connect(url)
    try:
        return await _read_postgres(conn)
    finally:
        await conn.close()


async def _read_postgres(conn: Any) -> Schema:
    schema: Schema = {}
    tables = [row["relname"] for row in await conn.fetch(
        "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace "
        "AND relkind = 'r' ORDER BY relname")]
    for table in tables:
        if table in POSTGRES_ONLY_TABLES:
            continue
        oid = await conn.fetchval("SELECT $1::regclass::oid", table)
        columns = {}
        names = {}
        for row in await conn.fetch(
                "SELECT attnum, attname, format_type(atttypid, NULL) AS type, attnotnull, "
                "pg_get_expr(adbin, adrelid) AS default FROM pg_attribute "
                "LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum "
                "WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                oid):
            names[row["attnum"]] = row["attname"]
            columns[row["attname"]] = Column(
                POSTGRES_TYPES.get(row["type"], row["type"]), not row["attnotnull"],
                _default(row["default"]))
        key: tuple[str, ...] = ()
        unique = set()
        foreign = set()
        checks = []
        for row in await conn.fetch(
                "SELECT contype, conkey, confrelid::regclass::text AS target, confkey, "
                "confdeltype, confupdtype, pg_get_constraintdef(oid) AS definition "
                "FROM pg_constraint WHERE conrelid = $1", oid):
            kind = row["contype"]
            own = tuple(names[number] for number in row["conkey"] or ())
            if kind == b"p":
                key = own
            elif kind == b"u":
                unique.add(own)
            elif kind == b"c":
                checks.append(_sql(re.sub(r"^CHECK\s*", "", row["definition"])))
            elif kind == b"f":
                target_names = {r["attnum"]: r["attname"] for r in await conn.fetch(
                    "SELECT attnum, attname FROM pg_attribute WHERE attrelid = $1::regclass",
                    row["target"])}
                foreign.add(ForeignKey(
                    own, row["target"], tuple(target_names[n] for n in row["confkey"]),
                    POSTGRES_ACTIONS[row["confdeltype"]],
                    POSTGRES_ACTIONS[row["confupdtype"]]))
        indexes = {}
        for row in await conn.fetch(
                "SELECT indexrelid::regclass::text AS name, "
                "pg_get_indexdef(indexrelid) AS definition FROM pg_index "
                "WHERE indrelid = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint "
                "WHERE conindid = indexrelid AND contype IN ('p', 'u'))", oid):
            definition = re.sub(r"^\s*CREATE\s+", "", row["definition"])
            definition = re.sub(r"\bON\s+(?:ONLY\s+)?public\.", "ON ", definition)
            definition = re.sub(r"\s+USING\s+btree\s*", " ", definition)
            indexes[row["name"]] = _sql(definition)
        triggers = {}
        for row in await conn.fetch(
                "SELECT tgname, tgtype, tgattr::int2[] AS columns FROM pg_trigger "
                "WHERE tgrelid = $1 AND NOT tgisinternal", oid):
            kind = row["tgtype"]  # bits: 2 before, 4 insert, 8 delete, 16 update, 64 instead
            timing = "INSTEAD OF" if kind & 64 else "BEFORE" if kind & 2 else "AFTER"
            event = "INSERT" if kind & 4 else "DELETE" if kind & 8 else "UPDATE"
            triggers[row["tgname"]] = _when(timing, event,
                                            [names[n] for n in row["columns"] or ()])
        schema[table] = TableShape(columns, key, frozenset(unique), frozenset(foreign),
                                   tuple(sorted(checks)), indexes, triggers)
    return schema


async def _migrated(tmp_path: Path, url: str, migrations: Sequence[Migration] = MIGRATIONS
                    ) -> tuple[Schema, Schema]:
    reader, writer, _ = await open_database(tmp_path / "schema.db", migrations)
    await reader.close()
    writer.close()
    pool, _ = await open_pool(url, migrations)
    await pool.close()
    return _sqlite_schema(tmp_path / "schema.db"), await _postgres_schema(url)


def _differences(sqlite: Schema, postgres: Schema) -> list[str]:
    """Each difference as one line naming the table and what differs."""
    found = [f"{table}: only on {side}"
             for side, tables in (("SQLite", sqlite.keys() - postgres.keys()),
                                  ("PostgreSQL", postgres.keys() - sqlite.keys()))
             for table in sorted(tables)]
    for table in sorted(sqlite.keys() & postgres.keys()):
        mine, theirs = sqlite[table], postgres[table]
        for column in sorted(mine.columns.keys() | theirs.columns.keys()):
            one, other = mine.columns.get(column), theirs.columns.get(column)
            if one != other:
                found.append(f"{table}.{column}: SQLite {one}, PostgreSQL {other}")
        for part in ("primary_key", "unique", "foreign_keys", "checks"):
            one, other = getattr(mine, part), getattr(theirs, part)
            if one != other:
                found.append(f"{table} {part}: SQLite {one}, PostgreSQL {other}")
        for part, one_of in (("indexes", "index"), ("triggers", "trigger")):
            ones, others = getattr(mine, part), getattr(theirs, part)
            for name in sorted(ones.keys() | others.keys()):
                if ones.get(name) != others.get(name):
                    found.append(f"{table} {one_of} {name}: SQLite {ones.get(name)!r}, "
                                 f"PostgreSQL {others.get(name)!r}")
    return found


@pytest.fixture
def pg_url(postgres_url: str) -> str:
    return empty_postgres(postgres_url)


async def test_sqlite_and_postgres_have_the_same_schema_after_all_migrations(
        tmp_path: Path, pg_url: str) -> None:
    sqlite, postgres = await _migrated(tmp_path, pg_url)
    # The reading saw every table and index the migrations create.
    created = "".join(migration.sql for migration in MIGRATIONS)
    assert set(sqlite) == set(re.findall(r"CREATE TABLE (\w+)", created))
    assert {name for shape in sqlite.values() for name in shape.indexes} == set(
        re.findall(r"CREATE (?:UNIQUE )?INDEX (\w+)", created))
    assert _differences(sqlite, postgres) == []


async def test_discord_ids_and_the_keys_that_reference_them_are_bigint_on_postgres(
        pg_url: str) -> None:
    """SQLite's INTEGER holds 64 bits, PostgreSQL's 32: a Discord id (a column named id
    or <something>_id, save a shard's number) and any column referencing one must be
    BIGINT there."""
    pool, _ = await open_pool(pg_url)
    await pool.close()
    conn = await asyncpg.connect(pg_url)
    try:
        narrow = await conn.fetch(
            "SELECT c.relname || '.' || a.attname AS col FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' "
            "AND a.attnum > 0 AND NOT a.attisdropped "
            "AND format_type(a.atttypid, NULL) <> 'bigint' "
            "AND (a.attname = 'id' OR a.attname LIKE '%\\_id' ESCAPE '\\' "
            "     AND a.attname <> 'shard_id' "
            "  OR EXISTS (SELECT 1 FROM pg_constraint f "
            "             JOIN pg_attribute r ON r.attrelid = f.confrelid "
            "             AND r.attnum = f.confkey[array_position(f.conkey, a.attnum)] "
            "             WHERE f.contype = 'f' AND f.conrelid = c.oid "
            "             AND format_type(r.atttypid, NULL) = 'bigint')) "
            "ORDER BY 1")
    finally:
        await conn.close()
    assert [row["col"] for row in narrow] == []


# Each a last migration whose two texts differ in one way; the comparison must name it.
DRIFTS = [
    ("a type", "ALTER TABLE user_settings ADD COLUMN note TEXT",
     "ALTER TABLE user_settings ADD COLUMN note INTEGER", "user_settings.note"),
    ("nullability", "ALTER TABLE user_settings ADD COLUMN note TEXT NOT NULL DEFAULT ''",
     "ALTER TABLE user_settings ADD COLUMN note TEXT DEFAULT ''", "user_settings.note"),
    ("a default", "ALTER TABLE user_settings ADD COLUMN note TEXT NOT NULL DEFAULT 'a'",
     "ALTER TABLE user_settings ADD COLUMN note TEXT NOT NULL DEFAULT 'b'",
     "user_settings.note"),
    ("a primary key", "CREATE TABLE drift (a INTEGER NOT NULL, b INTEGER NOT NULL, "
     "PRIMARY KEY (a, b))", "CREATE TABLE drift (a INTEGER NOT NULL, b INTEGER NOT NULL, "
     "PRIMARY KEY (b, a))", "drift primary_key"),
    ("a nullable primary key", "CREATE TABLE drift (a TEXT PRIMARY KEY)",
     "CREATE TABLE drift (a TEXT PRIMARY KEY)", "drift.a"),
    ("a unique constraint", "CREATE TABLE drift (a INTEGER, b INTEGER, UNIQUE (a, b))",
     "CREATE TABLE drift (a INTEGER, b INTEGER, UNIQUE (a))", "drift unique"),
    ("a foreign key's action",
     "CREATE TABLE drift (m INTEGER REFERENCES matches (id) ON DELETE CASCADE)",
     "CREATE TABLE drift (m BIGINT REFERENCES matches (id))", "drift foreign_keys"),
    ("a check", "CREATE TABLE drift (a INTEGER CHECK (a BETWEEN 1 AND 3))",
     "CREATE TABLE drift (a INTEGER CHECK (a BETWEEN 1 AND 4))", "drift checks"),
    ("an index's columns", "CREATE INDEX drift ON matches (guild_id, game)",
     "CREATE INDEX drift ON matches (game, guild_id)", "matches index drift"),
    ("an index's condition", "CREATE INDEX drift ON matches (game) WHERE status IN ('lobby', 'a')",
     "CREATE INDEX drift ON matches (game) WHERE status IN ('playing', 'a')",
     "matches index drift"),
    ("a unique index", "CREATE UNIQUE INDEX drift ON matches (game)",
     "CREATE INDEX drift ON matches (game)", "matches index drift"),
    ("a missing index", "CREATE INDEX drift ON matches (game)", "SELECT 1",
     "matches index drift"),
    ("a missing table", "CREATE TABLE drift (a INTEGER)", "SELECT 1", "drift: only on SQLite"),
    ("a trigger's columns",
     "CREATE TRIGGER drift BEFORE UPDATE OF game ON matches BEGIN SELECT 1; END",
     "CREATE TRIGGER drift BEFORE UPDATE OF seed ON matches "
     "FOR EACH ROW EXECUTE FUNCTION actions_append_only()", "matches trigger drift"),
]


@pytest.mark.parametrize(("sqlite_sql", "postgres_sql", "named"),
                         [drift[1:] for drift in DRIFTS], ids=[drift[0] for drift in DRIFTS])
async def test_the_comparison_names_a_migration_written_differently_for_sqlite_and_postgres(
        tmp_path: Path, pg_url: str, sqlite_sql: str, postgres_sql: str,
        named: str) -> None:
    drift = Migration(len(MIGRATIONS) + 1, "drift", sqlite_sql + ";", postgres_sql)
    sqlite, postgres = await _migrated(tmp_path, pg_url, (*MIGRATIONS, drift))
    differences = _differences(sqlite, postgres)
    assert len(differences) == 1 and differences[0].startswith(named), differences


async def test_a_migration_spelled_for_sqlite_and_for_postgres_compares_equal(
        tmp_path: Path, pg_url: str) -> None:
    """What the two databases only spell differently is no difference."""
    drift = Migration(
        len(MIGRATIONS) + 1, "same",
        "CREATE TABLE same (id INTEGER PRIMARY KEY, at TEXT NOT NULL DEFAULT '', "
        "n INTEGER CHECK (n BETWEEN 1 AND 3) CHECK (n IN (1, 2)), x REAL) WITHOUT ROWID;\n"
        "CREATE INDEX same_n ON same ((x - 2 * n) DESC) WHERE at IN ('a', 'b');",
        "CREATE TABLE same (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
        "at TEXT NOT NULL DEFAULT '', n INTEGER CHECK (n BETWEEN 1 AND 3) "
        "CHECK (n IN (1, 2)), x DOUBLE PRECISION);\n"
        "CREATE INDEX same_n ON same ((x - 2 * n) DESC) WHERE at IN ('a', 'b');")
    sqlite, postgres = await _migrated(tmp_path, pg_url, (*MIGRATIONS, drift))
    assert "same" in sqlite and _differences(sqlite, postgres) == []
