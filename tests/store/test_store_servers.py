"""Each server's settings (/server settings): stored, read back, replaced and reset, on
both databases; one server's never touch another's."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import ServerSettingsRow, Store, StoreError


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def test_a_server_without_settings_has_the_defaults(store):
    row = await store.server_settings(5)
    assert row == ServerSettingsRow(5) and row.is_default
    assert row.computer_players and row.channels == ()


async def test_settings_are_saved_replaced_and_reset_per_server(store):
    chosen = ServerSettingsRow(5, turn_timeout=90, ping_after=0, pace="slow",
                               bot_level="basic", computer_players=False,
                               channels=(1_400_000_000_000_000_001, 7))
    await store.save_server_settings(chosen)
    assert await store.server_settings(5) == ServerSettingsRow(
        5, 90, 0, "slow", "basic", False, (7, 1_400_000_000_000_000_001))
    assert (await store.server_settings(6)).is_default, "another server is untouched"
    await store.save_server_settings(ServerSettingsRow(5, channels=(8,)))
    assert await store.server_settings(5) == ServerSettingsRow(5, channels=(8,))
    await store.save_server_settings(ServerSettingsRow(6, turn_timeout=30))
    await store.reset_server_settings(5)
    assert (await store.server_settings(5)).is_default
    assert (await store.server_settings(6)).turn_timeout == 30


async def test_a_malformed_setting_is_refused_and_changes_nothing(store):
    await store.save_server_settings(ServerSettingsRow(5, turn_timeout=60))
    with pytest.raises(StoreError):
        await store.save_server_settings(ServerSettingsRow(5, pace="fast", channels=(9,)))
    assert await store.server_settings(5) == ServerSettingsRow(5, turn_timeout=60)
