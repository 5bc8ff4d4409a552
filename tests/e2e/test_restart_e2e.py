"""Restart: a new bot on the same database finishes the deal through the old buttons."""

from __future__ import annotations

from tests.e2e.harness import running


async def test_stopping_mid_deal_and_starting_again_keeps_the_table(discord_double, tmp_path):
    world = await discord_double.make_world()
    alice = world.users[0]
    async with running(discord_double, tmp_path, world=world) as h:
        table = await h.open_table(alice, "spades")
        for _ in range(3):
            await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        for _ in range(6):
            await h.act_once(alice)
        await discord_double.settle()  # the bots have answered: Alice's turn again
        assert table.game.deal_no == 1 and not table.game.finished
        table_id, message_id = table.id, table.message_id
        history = list(table.game.history)
        old_hand = h.hand_of(alice)
        assert old_hand is not None

    async with running(discord_double, tmp_path, world=world) as h:
        again = h.bot.tables.tables[table_id]
        assert again.game.history == history, "rebuilt from the log"
        assert h.bot.tables.in_channel(world.channel.id) is again
        await discord_double.settle()
        old_message = discord_double.message(message_id)
        assert "deal 1" in old_message.embeds[0]["title"], "the table message is found again"
        # A button from before the restart still works: the old private hand's move.
        actions = h.action_buttons(old_hand)
        assert actions, "it was Alice's turn when the bot stopped"
        await discord_double.click(alice, old_hand, str(actions[0]["custom_id"]))
        assert len(again.game.history) > len(history)
        # The old table message's My hand button answers from the new bot.
        await h.press(alice, old_message, "My hand")
        await h.play_people([alice], until=lambda: again.game.deal_no > 1)
        assert len(await h.bot.store.deals(table_id)) == 1, "the deal is finished and stored"


async def test_hands_open_before_a_restart_are_updated_after_it_without_a_press(
        discord_double, tmp_path):
    world = await discord_double.make_world()
    alice, bob = world.users[0], world.users[1]
    async with running(discord_double, tmp_path, world=world) as h:
        table = await h.open_table(alice, "spades")
        await h.press(bob, h.table_message(), "Join")
        for _ in range(2):
            await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        await h.open_hand(alice)
        bobs_hand = await h.open_hand(bob)
        await discord_double.settle()
        assert table.seat_of(alice.id) in table.game.to_act(), "Alice bids first"
        table_id = table.id
        versions = len(discord_double.edits_of(bobs_hand))

    async with running(discord_double, tmp_path, world=world) as h:
        again = h.bot.tables.tables[table_id]
        await discord_double.settle()
        old_hand = h.hand_of(alice)
        assert old_hand is not None
        await discord_double.click(alice, old_hand, str(h.action_buttons(old_hand)[0]["custom_id"]))
        await discord_double.settle()
        assert again.seat_of(bob.id) in again.game.to_act(), "Bob's turn now"
        shown = discord_double.edits_of(bobs_hand)
        assert len(shown) > versions, "Bob's open hand was edited after the restart"
        assert h.action_buttons(bobs_hand), "and it offers Bob his moves"
