"""Every click is answered, and each refusal says what is true (issue 14, items 4, 5, 9)."""

from __future__ import annotations

from tests.e2e.harness import running


async def _bots_and_alice(h, game: str, **options):
    alice = h.user(0)
    table = await h.open_table(alice, game, **options)
    for _ in range(table.game.SEATS - 1):
        await h.press(alice, h.table_message(), "Add bot")
    return table, alice


async def test_a_component_that_is_not_ours_still_gets_a_private_answer(discord_double,
                                                                         tmp_path):
    async with running(discord_double, tmp_path) as h:
        table, alice = await _bots_and_alice(h, "spades")
        for custom_id in ("tt:", "tt:act", "poker:raise:10", "tt:hand:notanumber"):
            handle = await h.forge(alice, custom_id)
            assert handle.responded and handle.ephemeral, custom_id
            assert "not one of TrickTable's" in h.last_reply(alice), custom_id
        assert not table.closed and table.status == "lobby"


async def test_refusals_say_what_became_of_the_table_or_the_move(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        table, alice = await _bots_and_alice(h, "spades")
        await h.forge(alice, "tt:hand:99999")
        assert "There is no table #99999" in h.last_reply(alice)
        await h.press(alice, h.table_message(), "Start")
        hand = await h.open_hand(alice)
        seat = table.seat_of(alice.id)
        assert seat in table.game.to_act()
        before = list(table.game.history)
        await h.forge(alice, f"tt:act:{table.id}:{seat}:{table.decisions[seat]}:play:ZZ",
                      source=hand)
        reply = h.driver.message(hand).content
        assert "does not hold a move you can make now" in reply, reply
        assert "Cards are played once" not in reply, "not the engine's wording"
        assert table.game.history == before
        old_table = h.table_message()
        await h.slash(alice, "abandon")
        assert table.closed
        await h.forge(alice, f"tt:hand:{table.id}", source=old_table)
        assert "was abandoned" in h.last_reply(alice)


async def test_a_hand_record_for_a_deal_that_never_was_says_so(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        table, alice = await _bots_and_alice(h, "bridge")
        await h.press(alice, h.table_message(), "Start")
        handle = await h.forge(alice, f"tt:rec:{table.id}:7")
        await h.driver.wait_for(lambda: handle.message is not None and handle.message.content)
        assert "has no deal 7" in handle.message.content, handle.message.content
        handle = await h.forge(alice, f"tt:rec:{table.id}:1")
        await h.driver.wait_for(lambda: handle.message is not None and handle.message.content)
        assert "is not over yet" in handle.message.content


async def test_the_rules_button_of_a_table_tells_that_tables_target(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        _table, alice = await _bots_and_alice(h, "bidfair", target=300)
        await h.press(alice, h.table_message(), "Start")
        await h.press(alice, h.table_message(), "Rules")
        rules = discord_double.ephemerals(alice)[-1].embeds[0]["description"]
        assert "**At this table:** target: 300" in rules
        assert "someone has 800" not in rules


async def test_a_table_message_replaced_by_slash_table_points_to_the_new_one(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        _table, alice = await _bots_and_alice(h, "spades")
        await h.press(alice, h.table_message(), "Start")
        old = h.table_message()
        assert h.buttons(old), "the table message has My hand and Rules"
        await h.slash(alice, "table")
        await discord_double.settle()
        new = h.table_message()
        assert new.id != old.id and h.buttons(new)
        old = discord_double.message(old.id)
        assert not h.buttons(old) and not old.embeds, "no buttons, no stale table"
        assert f"/{new.id}" in old.content and "has moved" in old.content
        assert "your turn" not in old.content


async def test_command_options_outside_their_choices_are_refused_privately(discord_double,
                                                                           tmp_path):
    """A stale command list in someone's client lets old values through: the bot checks."""
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        public_before = len(discord_double.channel_messages(h.channel))
        for name, options, expected in (
                ("leaderboard", {"game": "spades", "page": 0}, "between 1 and"),
                ("leaderboard", {"game": "spades", "page": -3}, "between 1 and"),
                ("leaderboard", {"game": "poker"}, "`poker` is not a valid game"),
                ("history", {"page": 0}, "between 1 and"),
                ("rules", {"game": "poker"}, "`poker` is not a valid game")):
            handle = await h.slash(alice, name, **options)
            assert handle.ephemeral, (name, options)
            assert expected in h.last_reply(alice), (name, options, h.last_reply(alice))
        assert len(discord_double.channel_messages(h.channel)) == public_before


async def test_a_hand_answered_while_a_move_lands_is_edited_to_the_table_as_it_is_now(
        discord_double, tmp_path, monkeypatch):
    """A person refreshes their hand; the other player moves while that answer is on its
    way, and the hands' edit for the move goes out before the answer arrives. The answer
    shows the table one move old, so the bot edits it once more: it ends up current."""
    async with running(discord_double, tmp_path) as h:
        first, second = h.user(0), h.user(1)
        table = await h.start_with_people([first, second], "single_dummy")
        game = table.game
        by_seat = {0: first, 1: second}
        mover_seat = next(iter(game.to_act()))
        mover, waiter = by_seat[mover_seat], by_seat[1 - mover_seat]
        tables = h.bot.get_cog("Tables")
        answer = tables._answer_with
        landed: list[int] = []

        async def answer_after_a_move(interaction, message, in_place):  # type: ignore[no-untyped-def]
            if interaction.user.id == waiter.id and not landed:
                move = str(game.legal(mover_seat)[0])
                await h.bot.tables.act(table.id, mover.id, mover_seat,
                                       table.decisions[mover_seat], move)
                landed.append(table.seq)
                await h.bot.publisher.settled(table.id, timeout=10)
            return await answer(interaction, message, in_place)

        monkeypatch.setattr(tables, "_answer_with", answer_after_a_move)
        await h.press(waiter, h.hand_of(waiter), "Refresh")
        assert landed, "the move landed while the answer was on its way"
        await discord_double.settle()
        assert next(iter(game.to_act())) == 1 - mover_seat
        assert h.moves(h.driver.message(h.hand_of(waiter))), \
            "the waiting person's hand shows their moves now that it is their turn"
        assert not h.privacy.hands_are_current(h.bot.publisher)
