"""What only the PostgreSQL backend has: its URL, its schema_version table, migrations
shared by processes that start together, and the SQL it is given numbered."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import SCHEMA_VERSION, Store, StoreError
from bot.store.postgres import numbered, shown
from tests.databases import empty_postgres


@pytest.fixture
def pg_url(postgres_url: str) -> str:
    return empty_postgres(postgres_url)


async def _version(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT MAX(version) FROM schema_version"))
    finally:
        await conn.close()


async def test_postgres_store_migrates_once_when_processes_open_it_together(
        pg_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(pg_url) for _ in range(3)))
    try:
        applied = sorted(store.applied_migrations for store in stores)
        assert applied == [(), (), tuple(range(1, SCHEMA_VERSION + 1))]
        assert await _version(pg_url) == SCHEMA_VERSION
        match_id = await stores[0].create_match("tennis", {}, 1, 2, 3, 4, {})
        assert (await stores[2].get_match(match_id)) is not None  # one shared database
    finally:
        for store in stores:
            await store.close()
    assert all(store.closed for store in stores)


async def test_postgres_newer_schema_is_refused_with_one_line(pg_url: str) -> None:
    await (await Store.open(pg_url)).close()
    conn = await asyncpg.connect(pg_url)
    await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION + 1)
    await conn.close()
    with pytest.raises(StoreError, match="newer version of TrickTable") as caught:
        await Store.open(pg_url)
    assert "DATABASE_URL" in str(caught.value) and "\n" not in str(caught.value)


async def test_postgres_unreachable_server_is_refused_with_one_line_without_password() -> None:
    url = "postgresql://bot:s3cret@127.0.0.1:1/tricktable"
    with pytest.raises(StoreError) as caught:
        await Store.open(url)
    text = str(caught.value)
    assert text.startswith("Cannot use PostgreSQL at 'postgresql://bot@127.0.0.1:1/tricktable'")
    assert "s3cret" not in text and "\n" not in text


async def test_postgres_closed_store_refuses_work(pg_url: str) -> None:
    store = await Store.open(pg_url)
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        await store.get_match(1)


def test_postgres_placeholders_are_numbered_in_order() -> None:
    assert numbered("SELECT ? WHERE a IN (?, ?) AND b = ?") == \
        "SELECT $1 WHERE a IN ($2, $3) AND b = $4"
    assert shown("postgresql://u:pw@h:5/db") == "postgresql://u@h:5/db"
    assert shown("postgresql:///db?host=/tmp") == "postgresql:///db?host=/tmp"
