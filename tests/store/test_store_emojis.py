"""bot/store emojis: the card-face emoji ids, per application, survive a restart (both
backends)."""

from __future__ import annotations

from bot.store import Store


async def test_emoji_ids_are_remembered_per_application_across_a_restart(
        database: str) -> None:
    async with await Store.open(database) as store:
        assert await store.app_emojis(1) == {}
        await store.save_app_emojis(1, {"tt1_AS": 100, "tt1_back": 101})
        await store.save_app_emojis(2, {"tt1_AS": 2 ** 62})  # Discord ids need 64 bits
    async with await Store.open(database) as store:
        assert await store.app_emojis(1) == {"tt1_AS": 100, "tt1_back": 101}
        assert await store.app_emojis(2) == {"tt1_AS": 2 ** 62}


async def test_saving_replaces_the_applications_old_set(database: str) -> None:
    async with await Store.open(database) as store:
        await store.save_app_emojis(1, {"tt1_AS": 100, "tt1_KS": 101})
        await store.save_app_emojis(1, {"tt1_AS": 300})
        assert await store.app_emojis(1) == {"tt1_AS": 300}
        await store.save_app_emojis(1, {})
        assert await store.app_emojis(1) == {}
