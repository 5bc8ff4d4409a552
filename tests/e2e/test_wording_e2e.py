"""What the bot says names what the person sees: /leave names the button that takes the
seat back, and that button does it."""

from __future__ import annotations

from tests.e2e.harness import running


async def test_leave_names_the_button_that_takes_the_seat_back(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice, bob = h.user(0), h.user(1)
        table = await h.start_with_people([alice, bob], "bidfair")
        seat = table.seat_of(bob.id)
        await h.slash(bob, "leave")
        reply = h.last_reply(bob)
        assert "Take my seat back" in reply and "Join" not in reply, reply
        await discord_double.settle()
        await h.press(bob, h.table_message(), "Take my seat back")
        await discord_double.settle()
        assert table.seat_of(bob.id) == seat
        assert not h.errors.records


async def test_help_is_one_short_page_whose_buttons_lead_to_each_page(discord_double,
                                                                       tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        handle = await h.slash(alice, "help")
        assert handle.ephemeral
        message = h.driver.message(handle.message)
        assert len(message.embeds) == 1
        assert len(str(message.embeds[0].get("description"))) < 700
        await h.press(alice, message, "Spades")
        shown = h.driver.message(message)
        assert shown.embeds[0]["title"] == "Rules: Spades"
        await h.press(alice, shown, "Fair deals")
        assert "commitment" in h.driver.message(message).embeds[0]["description"]
        await h.press(alice, h.driver.message(message), "Back to help")
        assert h.driver.message(message).embeds[0]["title"] == "TrickTable help"
        assert not h.errors.records
