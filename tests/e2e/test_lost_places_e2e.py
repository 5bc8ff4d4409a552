"""Lost channels and permissions (issue 19, item 5): /play where the bot lacks a
permission it needs says which, privately, and makes nothing; a table whose channel or
thread is deleted, or whose server the bot left, is closed as abandoned with no retries
and no errors logged, and a restart does not bring it back."""

from __future__ import annotations

from typing import Any

import pytest

from discord_double import payloads
from tests.e2e.harness import Harness, running


def _requests_to(h: Harness, channel_id: int, since: int) -> list[Any]:
    return [r for r in h.driver.double.requests[since:]
            if r.path.startswith(f"/channels/{channel_id}")]


async def _abandoned(h: Harness, table_id: int) -> bool:
    row = await h.bot.store.get_match(table_id)
    return row is not None and row.status == "abandoned"


@pytest.mark.parametrize(("denied", "thread", "named"), [
    (payloads.SEND_MESSAGES, False, "Send Messages"),
    (payloads.EMBED_LINKS, False, "Embed Links"),
    (payloads.ATTACH_FILES, False, "Attach Files"),
    (payloads.CREATE_PUBLIC_THREADS, True, "Create Public Threads"),
    (payloads.SEND_MESSAGES_IN_THREADS, True, "Send Messages in Threads"),
])
async def test_play_without_a_permission_names_it_and_opens_nothing(
        discord_double, tmp_path, denied, thread, named):
    async with running(discord_double, tmp_path) as h:
        h.channel.bot_denied = denied
        channels = len(discord_double.state.channels)
        handle = await h.slash(h.user(0), "play", "tennis", thread=thread)
        assert handle.ephemeral and named in handle.message.content
        assert "Nothing was opened" in handle.message.content
        assert not h.bot.tables.tables, "no table"
        assert len(discord_double.state.channels) == channels, "no thread"
        assert h.driver.channel_messages(h.channel) == [], "nothing posted"
        # With the permission back, the same command opens the table.
        h.channel.bot_denied = 0
        await h.slash(h.user(0), "play", "tennis", thread=thread)
        assert len(h.bot.tables.tables) == 1


async def test_play_inside_a_thread_needs_send_messages_in_threads(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        thread = await discord_double.add_thread(h.channel, "cards", owner=h.user(0))
        thread.bot_denied = payloads.SEND_MESSAGES_IN_THREADS
        handle = await discord_double.slash(h.user(0), thread, "play", "tennis")
        assert "Send Messages in Threads" in handle.message.content
        assert not h.bot.tables.tables


async def _playing(h: Harness) -> Any:
    table = await h.start_with_people([h.user(0), h.user(1)], "tennis")
    assert await h.act_once(h.user(next(iter(table.game.to_act()))))
    await h.driver.settle()
    return table


@pytest.mark.parametrize("notify", [True, False], ids=["event", "unknown-channel"])
async def test_a_deleted_channel_abandons_its_table_for_good(discord_double, tmp_path,
                                                              notify):
    """Told by CHANNEL_DELETE, or (an event missed) by the 10003 answering the next
    write: either way the table closes as abandoned, the bot stops writing there at
    once, and a restart leaves it closed."""
    world = await discord_double.make_world()
    async with running(discord_double, tmp_path, world=world) as h:
        table = await _playing(h)
        other = await discord_double.add_channel(world.guild, "elsewhere")
        h.world = type(world)(world.guild, other, world.users)
        elsewhere = await h.open_table(h.user(2), "bidfair")  # untouched by the loss
        seat = next(iter(table.game.to_act()))
        move = str(table.game.legal(seat)[0])
        since = len(discord_double.double.requests)
        await discord_double.delete_channel(world.channel, notify=notify)
        if not notify:  # a move made as it went: the table's edit meets Unknown Channel
            await h.bot.tables.act(table.id, h.user(seat).id, seat, table.decisions[seat],
                                   move)
        await discord_double.wait_for(lambda: table.closed, what="the table to close")
        await discord_double.settle()
        assert table.status == "abandoned" and await _abandoned(h, table.id)
        writes = _requests_to(h, world.channel.id, since)
        assert len(writes) == (0 if notify else 1), f"no retries: {writes}"
        assert not elsewhere.closed
        assert h.bot.tables.in_channel(world.channel.id) is None
    async with running(discord_double, tmp_path, world=world) as h:
        assert table.id not in h.bot.tables.tables, "a restart does not bring it back"
        assert elsewhere.id in h.bot.tables.tables


@pytest.mark.parametrize("deleted", ["thread", "parent"])
async def test_a_deleted_thread_abandons_the_table_in_it(discord_double, tmp_path, deleted):
    async with running(discord_double, tmp_path) as h:
        await h.slash(h.user(0), "play", "tennis", thread=True)
        await discord_double.wait_for(lambda: h.driver.channel_messages(h.channel),
                                      what="the channel to be told of the thread")
        table = next(iter(h.bot.tables.tables.values()))
        thread = discord_double.state.channels[table.channel_id]
        assert thread.is_thread
        since = len(discord_double.double.requests)
        await discord_double.delete_channel(thread if deleted == "thread" else h.channel)
        await discord_double.wait_for(lambda: table.closed, what="the table to close")
        await discord_double.settle()
        assert await _abandoned(h, table.id)
        assert _requests_to(h, thread.id, since) == []


async def test_removed_from_the_server_abandons_its_tables_but_an_outage_does_not(
        discord_double, tmp_path):
    world = await discord_double.make_world()
    async with running(discord_double, tmp_path, world=world) as h:
        table = await _playing(h)
        # A server outage (GUILD_DELETE with unavailable) is not a removal.
        await discord_double.double.gateway.dispatch(
            "GUILD_DELETE", {"id": str(world.guild.id), "unavailable": True})
        await discord_double.settle()
        assert not table.closed
        since = len(discord_double.double.requests)
        await discord_double.remove_bot(world.guild)
        await discord_double.wait_for(lambda: table.closed, what="the table to close")
        await discord_double.settle()
        assert await _abandoned(h, table.id)
        assert _requests_to(h, world.channel.id, since) == []
    async with running(discord_double, tmp_path, world=world) as h:
        assert not h.bot.tables.tables


@pytest.mark.parametrize("command", [("daily", "bridge"), ("match", "teams")],
                         ids=["daily", "team-match"])
async def test_private_thread_commands_without_the_permission_name_it_and_open_nothing(
        discord_double, tmp_path, command):
    """Daily deals and team matches play in private threads: without Create Private
    Threads they say so at once, before any lobby, entry or thread exists."""
    async with running(discord_double, tmp_path) as h:
        h.channel.bot_denied = payloads.CREATE_PRIVATE_THREADS
        channels = len(discord_double.state.channels)
        handle = await h.slash(h.user(0), *command)
        assert handle.ephemeral and "Create Private Threads" in handle.message.content
        assert "Nothing was opened" in handle.message.content
        assert not h.bot.tables.tables
        assert len(discord_double.state.channels) == channels, "no thread"
        assert h.driver.channel_messages(h.channel) == [], "nothing posted"
        h.channel.bot_denied = 0
        handle = await h.slash(h.user(0), *command)
        assert "Create Private Threads" not in (handle.message.content or "")
