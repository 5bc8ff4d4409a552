"""/server settings through the Discord double: only Manage Server may change them; they
are shown, kept across a restart and reset; tables open only in allowed channels, take the
server's defaults, and Add bot follows the server's choice (off, or a level)."""

from __future__ import annotations

from tests.e2e.harness import running

MANAGE_GUILD = 1 << 5


async def test_server_settings_shape_new_tables(discord_double, tmp_path):
    world = await discord_double.make_world()
    other = await discord_double.add_channel(world.guild, "lounge")
    alice, bob = world.users[0], world.users[1]
    await discord_double.add_role(world.guild, "Admins", MANAGE_GUILD, [alice])
    world.guild.roles[0].permissions &= ~MANAGE_GUILD  # @everyone: not admins
    async with running(discord_double, tmp_path, world=world) as h:
        refused = await h.slash(bob, "server", "settings", turn_timeout=30)
        assert "Manage Server" in h.last_reply(bob) and refused.ephemeral
        assert (await h.bot.store.server_settings(world.guild.id)).is_default

        shown = await h.slash(alice, "server", "settings", turn_timeout=45, ping_after=0,
                              computer_level="basic", allow_channel=other)
        text = shown.message.content
        assert shown.ephemeral and "45 s" in text and "never" in text and "basic" in text
        assert f"<#{other.id}>" in text

        await h.slash(bob, "play", "tennis")
        assert "allow tables only in" in h.last_reply(bob)
        assert h.bot.tables.in_channel(world.channel.id) is None
        await h.slash(alice, "server", "settings", allow_channel=world.channel)
        table = await h.open_table(bob, "tennis")
        assert (table.settings.turn_timeout, table.settings.ping_after) == (45, 0)
        text = h.table_message().embeds[0]["description"]
        assert "(Basic; **Add Advanced bot** for another level)" in text, text
        await h.press(bob, h.table_message(), "Add bot")
        assert table.seats[1] is not None and table.seats[1].bot_kind == "tennis-basic"

    async with running(discord_double, tmp_path, world=world) as h:  # kept across a restart
        await h.slash(alice, "server", "settings", computer_players=False)
        await h.slash(bob, "leave")  # nobody seated any more: the table closes
        table = await h.open_table(bob, "tennis", turn_timeout=5)
        assert table.settings.turn_timeout == 5, "a person's own choice still wins"
        labels = [b["label"] for b in h.buttons(h.table_message())]
        assert not any(label.startswith("Add") for label in labels), labels
        text = h.table_message().embeds[0]["description"]
        assert "Add" not in text and "Press **Join** to sit down and **Start**" in text
        await h.forge(bob, f"tt:addbot:{table.id}")  # a button from before the change
        assert "turned computer players off" in h.last_reply(bob)
        assert table.seats[1] is None
        reset = await h.slash(alice, "server", "reset")
        assert "every channel" in reset.message.content
        assert (await h.bot.store.server_settings(world.guild.id)).is_default
        await discord_double.settle()  # the open lobby is redrawn: Add bot is back
        assert "(Advanced; **Add Basic bot** for another level)" in \
            h.table_message().embeds[0]["description"]
        await h.press(bob, h.table_message(), "Add bot")
        assert table.seats[1] is not None and table.seats[1].bot_kind == "tennis-advanced"


async def test_a_persons_options_win_over_a_slow_default(discord_double, tmp_path):
    world = await discord_double.make_world()
    alice = world.users[0]
    await discord_double.add_role(world.guild, "Admins", MANAGE_GUILD, [alice])
    async with running(discord_double, tmp_path, world=world) as h:
        await h.slash(alice, "server", "settings", pace="slow", computer_players=False)
        table = await h.open_table(alice, "tennis")
        assert table.settings.slow_pace, "the server's default pace"
        await h.slash(alice, "abandon")
        # A turn timer in seconds is a normal pace's: it wins over the server's slow pace.
        table = await h.open_table(alice, "tennis", turn_timeout=30)
        assert (table.settings.pace, table.settings.turn_timeout) == ("normal", 30)
        await h.slash(alice, "abandon")
        table = await h.open_table(alice, "tennis", ping_after=60)
        assert (table.settings.pace, table.settings.ping_after) == ("normal", 60)
        await h.slash(alice, "abandon")
        table = await h.open_table(alice, "tennis", turn_hours=2)
        assert table.settings.slow_pace and table.settings.turn_timeout == 2 * 3600
        # Restored after a restart, the lobby still offers no computer players.
        assert "Add bot" not in str(h.table_message().components)
    async with running(discord_double, tmp_path, world=world) as h:
        assert h.table().server is not None and not h.table().server.computer_players
        await h.slash(alice, "table")
        assert "Add bot" not in str(h.table_message().components)
