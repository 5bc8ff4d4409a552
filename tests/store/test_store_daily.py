"""bot/store daily deals on both databases: settings, a day's secret, entries, the boards'
results through deal_results, closing a day and the daily leaderboard."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store

GUILD, OTHER = 111, 112


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _match(store: Store, user: int) -> int:
    return await store.create_match("bridge", {"rubbers": 1, "boards": 4}, 5, GUILD, 900 + user,
                                    user, {})


async def test_daily_store_settings_default_and_change(store):
    assert (await store.daily_settings(GUILD)).utc_offset == 0
    assert (await store.daily_settings(GUILD)).channel_id is None
    await store.set_daily_settings(GUILD, channel_id=2**60 + 3, utc_offset=-300)
    settings = await store.daily_settings(GUILD)
    assert (settings.channel_id, settings.utc_offset) == (2**60 + 3, -300)
    assert (await store.daily_settings(OTHER)).channel_id is None


async def test_daily_store_a_day_keeps_its_first_secret_and_one_entry_each(store):
    first = await store.daily_secret(GUILD, "bridge", "2026-11-22", "a" * 64)
    again = await store.daily_secret(GUILD, "bridge", "2026-11-22", "b" * 64)
    assert first == again == "a" * 64
    assert await store.daily_secret(GUILD, "spades", "2026-11-22", "c" * 64) == "c" * 64
    match = await _match(store, 1)
    assert await store.add_daily_entry(GUILD, "bridge", "2026-11-22", 1, "Alice", match)
    assert not await store.add_daily_entry(GUILD, "bridge", "2026-11-22", 1, "Alice", match)
    entry = await store.daily_entry(GUILD, "bridge", "2026-11-22", 1)
    assert entry is not None and (entry.display_name, entry.match_id) == ("Alice", match)
    assert await store.daily_entry(GUILD, "bridge", "2026-11-23", 1) is None


async def test_daily_store_results_close_and_leaderboard(store):
    day = "2026-11-22"
    await store.daily_secret(GUILD, "bridge", day, "a" * 64)
    for user, name, points in ((1, "Alice", (420, 0)), (2, "Bob", (0, 50))):
        match = await _match(store, user)
        await store.add_daily_entry(GUILD, "bridge", day, user, name, match)
        await store.record_deal(match, 1, points, {"lines": [{"note": "4S by South"}],
                                                   "hands": {"0": ["AS"]}})
    deals = await store.daily_deals(GUILD, "bridge", day)
    assert [(d.user_id, d.deal_no, d.points) for d in deals] == [(1, 1, (420, 0)),
                                                                 (2, 1, (0, 50))]
    assert deals[0].detail["hands"] == {"0": ["AS"]}
    assert [(d.guild_id, d.game, d.day) for d in await store.open_daily_days()] == [
        (GUILD, "bridge", day)]
    await store.close_daily_day(GUILD, "bridge", day, [(1, 1, 100.0), (2, 2, 0.0)])
    assert await store.open_daily_days() == []
    await store.daily_secret(GUILD, "bridge", "2026-11-23", "d" * 64)
    await store.close_daily_day(GUILD, "bridge", "2026-11-23", [(1, 2, 40.0), (2, 1, 60.0)])
    board = await store.daily_board(GUILD, "bridge")
    assert [(r.user_id, r.days, r.wins) for r in board] == [(1, 2, 1), (2, 2, 1)]
    assert [r.average for r in board] == pytest.approx([70.0, 30.0])
    assert await store.daily_board(OTHER, "bridge") == []
