"""The databases the store's tests run on: SQLite (a file per test) and a real PostgreSQL.

PostgreSQL comes from TEST_DATABASE_URL when set, else from the `pgserver` package (it
ships the server in its wheel) started once per test session in a private folder. Each
test gets an empty schema. Without either, PostgreSQL tests are skipped on a developer's
machine and fail in CI (CI=true): CI must run them all.

The suite runs in several processes at once (pytest-xdist's workers, `-n` in
pyproject.toml), each a test session of its own: each worker starts its own `pgserver`,
and on the one server TEST_DATABASE_URL names each worker has a database of its own
(`tricktable_test_gw0`, ...), made at its start and dropped at its end, since a test
empties its database's schema whatever another process is doing in it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

BACKENDS = ("sqlite", "postgres")


def _start_pgserver() -> tuple[str, object, str] | None:
    try:
        import pgserver  # type: ignore[import-not-found]
    except ImportError:
        return None
    folder = tempfile.mkdtemp(prefix="tricktable-pg-")
    server = pgserver.get_server(folder, cleanup_mode="stop")
    return server.get_uri(), server, folder


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    given = os.environ.get("TEST_DATABASE_URL", "").strip()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", ...; unset in one process
    if given and not worker:
        yield given
        return
    if given:
        name = f"tricktable_test_{worker}"
        url = asyncio.run(_fresh_database(given, name))
        try:
            yield url
        finally:
            asyncio.run(_drop_database(given, name))
        return
    started = _start_pgserver()
    if started is None:
        reason = ("no PostgreSQL for the tests: install the test extra (pgserver) or set "
                  "TEST_DATABASE_URL")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    url, server, folder = started
    asyncio.run(_quick(url))
    try:
        yield url
    finally:
        server.cleanup()  # type: ignore[attr-defined]
        shutil.rmtree(folder, ignore_errors=True)


async def _quick(url: str) -> None:
    """A throwaway server need not survive a power cut: no waiting for the disk (each
    test's migrations commit a dozen times)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ALTER SYSTEM SET fsync = off")
        await conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        await conn.execute("SELECT pg_reload_conf()")
    finally:
        await conn.close()


async def _fresh_database(url: str, name: str) -> str:
    """A new empty database `name` on the server of `url` (one a killed run left behind is
    made afresh); its URL."""
    await _drop_database(url, name)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def _drop_database(url: str, name: str) -> None:
    conn = await asyncpg.connect(url)
    try:  # FORCE (PostgreSQL 13+): connections a failed test left open are ended
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def _empty_schema(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET lock_timeout = '10s'")
        await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    finally:
        await conn.close()


def empty_postgres(url: str) -> str:
    """The URL again, its database emptied (every table of an earlier test dropped)."""
    asyncio.run(_empty_schema(url))
    return url


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's Store lives: a SQLite file, or an emptied PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "t.db")
    return empty_postgres(request.getfixturevalue("postgres_url"))


# For a test of something only SQLite has (its file, its locks, rows its types allow).
sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.fixture
def unwritable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder this process may not write in, as a bind mount owned by root is to the
    bot's user. Root may write anywhere: under root, os.access answers for the folder what
    the kernel answers any other user (its mode denies writing)."""
    folder = tmp_path / "closed"
    folder.mkdir()
    folder.chmod(0o555)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        real = os.access

        def access(path, mode, **options):
            if (mode & os.W_OK and Path(path).absolute() == folder
                    and not folder.stat().st_mode & stat.S_IWUSR):
                return False
            return real(path, mode, **options)

        monkeypatch.setattr(os, "access", access)
    try:
        yield folder
    finally:
        folder.chmod(0o755)

