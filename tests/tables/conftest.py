"""Fixtures of the table layer's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    """A store on each database the store's tests run on (tests/databases.py)."""
    s = await Store.open(database)
    yield s
    await s.close()
