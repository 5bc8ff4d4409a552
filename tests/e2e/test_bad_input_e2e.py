"""Bad input: each gets a private explanation, changes nothing, and logs no error."""

from __future__ import annotations

import asyncio

from discord_double import Role
from tests.e2e.harness import running


async def _spades_with_two_people(h):
    alice, bob = h.user(0), h.user(1)
    table = await h.open_table(alice, "spades")
    await h.seat_people([bob])
    for _ in range(2):
        await h.press(alice, h.table_message(), "Add bot")
    await h.press(alice, h.table_message(), "Start")
    await h.open_hand(alice)
    await h.open_hand(bob)
    return table, alice, bob


async def test_people_not_seated_are_turned_away(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        table, alice, _bob = await _spades_with_two_people(h)
        carol = h.user(2)
        before = list(table.game.history)
        await h.press(carol, h.table_message(), "My hand")
        assert "not playing at this table" in h.last_reply(carol)
        seat = table.seat_of(alice.id)
        legal = table.game.legal(seat) or ["look"]
        await h.forge(carol, f"tt:act:{table.id}:{seat}:{table.decisions[seat]}:{legal[0]}")
        assert "not playing at this table" in h.last_reply(carol)
        await h.press(carol, h.table_message(), "Rules")
        assert "Spades" in str(discord_double.ephemerals(carol)[-1].embeds)
        assert table.game.history == before


async def test_out_of_turn_stale_and_forged_clicks_change_nothing(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        table, alice, bob = await _spades_with_two_people(h)
        game = table.game
        # Everyone looks first (looking is allowed out of turn), then bids go in order.
        for person in (alice, bob):
            seat = table.seat_of(person.id)
            if "look" in game.legal(seat):
                await h.press(person, h.hand_of(person), "Look at my hand")
        await discord_double.settle()
        turn = game.view(None).turn
        waiting = alice if table.seat_of(bob.id) == turn else bob
        seat = table.seat_of(waiting.id)
        before = list(game.history)
        await h.forge(waiting, f"tt:act:{table.id}:{seat}:{table.decisions[seat]}:bid:3")
        assert "not your turn" in h.last_reply(waiting).lower()
        assert game.history == before

        # Forged and foreign ids.
        for custom_id in (f"tt:act:{table.id}:9:0:bid:3", "tt:act:99999:0:0:bid:3",
                          f"tt:zap:{table.id}", f"tt:act:{table.id}:0", f"tt:pick:{table.id}:x",
                          # 19 digits, past a 64-bit integer: no OverflowError in the log
                          "tt:act:9999999999999999999:0:0:bid:3", "tt:hand:9999999999999999999"):
            await h.forge(alice, custom_id)
            reply = h.last_reply(alice)
            assert any(word in reply for word in ("not one of TrickTable", "finished",
                                                   "no such seat", "not your seat")), reply
        assert game.history == before
        assert not h.errors.records, [r.getMessage() for r in h.errors.records]


async def test_stale_buttons_and_double_clicks(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "bidfair")
        await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        first = await h.open_hand(alice)
        stale = h.action_buttons(first)  # as a phone that missed the edits still shows them
        await h.press(alice, h.table_message(), "My hand")  # a second, newer hand message
        second = h.hand_of(alice)
        assert second is not None and second.id != first.id
        assert not h.buttons(discord_double.message(first)), "the replaced hand says so"
        # Two clicks on the same button at once: one applies, one is told it moved on.
        button = h.action_buttons(second)[0]["custom_id"]
        before = len(table.game.history)
        clicks = [discord_double.click(alice, second, button, wait=False) for _ in range(2)]
        handles = await asyncio.gather(*clicks)
        for handle in handles:
            await handle.wait_response(5)
        await discord_double.settle()
        assert len([a for s, a in table.game.history[before:] if s == 0]) == 1
        # The first hand message is older than that move: its buttons are stale.
        after = len(table.game.history)
        await h.forge(alice, str(stale[0]["custom_id"]), source=first)
        assert "moved on" in discord_double.message(first).content
        assert after == len(table.game.history), "a stale click changes nothing"


VIEW_AND_SEND = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send, use commands
MANAGE_MESSAGES = 1 << 13


async def test_busy_channel_and_bad_options_are_refused(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        h.world.guild.roles[0].permissions = VIEW_AND_SEND
        alice, bob = h.user(0), h.user(1)
        await h.slash(alice, "play", "spades", target=5)
        assert "at least 100" in h.last_reply(alice)
        assert h.bot.tables.in_channel(h.channel.id) is None
        await h.slash(alice, "play", "tennis", turn_timeout=999999)
        assert "turn_timeout" in h.last_reply(alice)
        await h.open_table(alice, "tennis")
        await h.slash(bob, "play", "spades")
        assert "already open" in h.last_reply(bob)
        assert h.bot.tables.in_channel(h.channel.id).game_name == "tennis"
        await h.slash(bob, "abandon")
        assert "Only the person who opened" in h.last_reply(bob)
        assert h.bot.tables.in_channel(h.channel.id) is not None
        await h.slash(bob, "hand")
        assert "not playing" in h.last_reply(bob)


async def test_abandon_by_a_moderator_or_a_majority(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        guild = h.world.guild
        guild.roles[0].permissions = VIEW_AND_SEND
        table, _alice, bob = await _spades_with_two_people(h)
        carol, dave = h.user(2), h.user(3)
        await h.slash(dave, "abandon")
        assert "Only the table's creator" in h.last_reply(dave)
        await h.slash(bob, "abandon")
        assert "1 of 2" in h.last_reply(bob)
        assert table.status == "playing"
        moderators = Role(discord_double.state.snowflakes.next(), "mods", MANAGE_MESSAGES)
        guild.roles.append(moderators)
        guild.members[carol.id].role_ids.append(moderators.id)
        await h.slash(carol, "abandon")
        assert table.status == "abandoned"
        await discord_double.settle()
        assert "abandoned" in str(h.driver.message(table.message_id).embeds)
