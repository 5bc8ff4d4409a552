"""/settings forget:me through the Discord double: a private confirmation, refused while
the person still sits at an open table, then their id is gone from the store."""

from __future__ import annotations

from tests.e2e.harness import running


async def test_forget_me_asks_first_then_removes_the_person(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice, bob = h.user(0), h.user(1)
        table = await h.open_table(alice, "tennis")
        asked = await h.slash(alice, "settings", forget="me")
        assert asked.ephemeral and "Forget you?" in asked.message.content
        assert await h.bot.store.open_tables_of(alice.id) == [table.id]

        await h.forge(bob, f"tt:forget:{alice.id}")  # a forged click: not bob's to press
        assert "for the person who asked" in h.last_reply(bob)
        await h.press(alice, asked.message, "Forget me")
        assert "still at an open table" in h.driver.message(asked.message).content
        assert (await h.bot.store.seats(table.id))[0].user_id == alice.id

        await h.slash(alice, "abandon")
        again = await h.slash(alice, "settings", forget="me")
        await h.press(alice, again.message, "Forget me")
        done = h.driver.message(again.message)
        assert done.content.startswith("Done") and not h.buttons(done)
        seats = await h.bot.store.seats(table.id)
        assert seats[0].user_id is not None and seats[0].user_id < 0
        assert seats[0].display_name == "a former player"
        assert await h.bot.store.open_tables_of(alice.id) == []
