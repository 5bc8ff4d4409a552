"""Tests of the Discord double: a throwaway discord.py bot driven through the driver."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from discord_double import TOKEN_LIFETIME, Driver, World, button, custom_ids, limits

# The discord_double fixture comes from tests/conftest.py; pytester runs an inner session.
pytest_plugins = ["pytester"]


@dataclass
class Probe:
    """What the throwaway bot saw, for the test to inspect."""

    errors: list[discord.HTTPException] = field(default_factory=list)
    interactions: dict[str, discord.Interaction] = field(default_factory=dict)
    messages: dict[str, discord.Message] = field(default_factory=dict)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    seen_own_messages: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Hit", custom_id="table:hit")
    async def hit(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(
            content=f"hit by {interaction.user.display_name}", view=self)

    @discord.ui.button(label="Stand", custom_id="table:stand", style=discord.ButtonStyle.danger)
    async def stand(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("you stand", ephemeral=True)

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="table:partner")
    async def partner(self, interaction: discord.Interaction,
                      select: discord.ui.UserSelect[Any]) -> None:
        await interaction.response.send_message(f"partner {select.values[0].display_name}")

    @discord.ui.select(custom_id="table:pick", options=[
        discord.SelectOption(label="Spades", value="S"),
        discord.SelectOption(label="Hearts", value="H")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}")


class SeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"seat:(?P<seat>[NESW])"):
    def __init__(self, seat: str) -> None:
        super().__init__(discord.ui.Button(label=f"Sit {seat}", custom_id=f"seat:{seat}"))
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> SeatButton:
        return cls(match["seat"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.display_name} sits {self.seat}")


class RawView(discord.ui.View):
    """A view whose components are given raw, to send what discord.py would refuse to build."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def make_bot(probe: Probe) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(),
                       guild_ready_timeout=0.1)
    tree = bot.tree

    async def guarded(interaction: discord.Interaction, coro: Any) -> None:
        try:
            await coro
        except discord.HTTPException as exc:
            probe.errors.append(exc)

    @tree.command(description="Private hello")
    async def secret(interaction: discord.Interaction, times: int = 1) -> None:
        await interaction.response.send_message("psst " * times, ephemeral=True)
        probe.interactions["secret"] = interaction

    @tree.command(description="Open a table")
    async def table(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("table open", view=TableView())

    @tree.command(description="Slow work")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("done")
        await interaction.followup.send("and more")

    @tree.command(description="Seats")
    async def seats(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        for seat in "NESW":
            view.add_item(SeatButton(seat))
        await interaction.response.send_message("choose a seat", view=view)

    @tree.command(description="Announce")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("announcing", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        sent = await interaction.channel.send(text)
        await asyncio.sleep(0.01)
        await sent.edit(content=text.upper())

    @tree.command(description="Invite")
    async def invite(interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(f"invited {who.display_name}")

    @tree.command(description="Hand record")
    async def record(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "record", file=discord.File(_bytes_io(b"N:AKQ2.J43.T9.8765"), "hand.pbn"))

    @tree.command(description="Thread")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("opening", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        made = await interaction.channel.create_thread(
            name="Table 1", type=discord.ChannelType.public_thread)
        await made.send("welcome to table 1")
        probe.notes.append(str(made.id))

    @tree.command(description="Whatever the test set up")
    async def raw(interaction: discord.Interaction, what: str) -> None:
        await guarded(interaction, RAW_ACTIONS[what](interaction, probe))

    match_group = app_commands.Group(name="match", description="Matches")
    bridge = app_commands.Group(name="bridge", description="Bridge", parent=match_group)

    @bridge.command(name="start", description="Start")
    async def bridge_start(interaction: discord.Interaction, seats: int, rated: bool) -> None:
        await interaction.response.send_message(f"bridge {seats} {rated}")

    tree.add_command(match_group)
    bot.add_dynamic_items(SeatButton)

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if message.author == bot.user:
            probe.seen_own_messages.append(message.id)

    return bot


def _bytes_io(data: bytes) -> Any:
    import io
    return io.BytesIO(data)


async def _six_rows(interaction: discord.Interaction, probe: Probe) -> None:
    rows = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": str(i), "custom_id": f"r{i}"}]} for i in range(6)]
    await interaction.response.send_message("rows", view=RawView(rows))


async def _long_custom_id(interaction: discord.Interaction, probe: Probe) -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x", custom_id="c" * 101))
    await interaction.response.send_message("long id", view=view)


async def _long_content(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message("x" * 2001)


async def _late(interaction: discord.Interaction, probe: Probe) -> None:
    await probe.release.wait()
    await interaction.response.send_message("too late")


async def _twice(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message("answer")


async def _big_embed(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message(embed=discord.Embed(title="t" * 257))


async def _keep(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message("your hand", ephemeral=True)
    probe.interactions["keep"] = interaction


async def _defer_then_private(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("only for you?", ephemeral=True)


class BidModal(discord.ui.Modal, title="Your bid"):
    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Tricks", custom_id="amount")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"bid {self.amount.value}", ephemeral=True)


async def _modal(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_modal(BidModal())


async def _new_file(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message(
        "v1", file=discord.File(_bytes_io(b"one"), "a.txt"))
    await interaction.edit_original_response(
        content="v2", attachments=[discord.File(_bytes_io(b"two"), "b.txt")])


async def _vanish(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message("brief", ephemeral=True)
    await interaction.delete_original_response()


async def _thread_on_reply(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message("table 2 below")
    reply = await interaction.original_response()
    thread = await reply.create_thread(name="Table 2")
    await thread.send("seats open")


async def _empty(interaction: discord.Interaction, probe: Probe) -> None:
    await interaction.response.send_message()


RAW_ACTIONS = {
    "six_rows": _six_rows, "long_custom_id": _long_custom_id, "long_content": _long_content,
    "late": _late, "twice": _twice, "big_embed": _big_embed, "keep": _keep,
    "defer_then_private": _defer_then_private, "modal": _modal, "new_file": _new_file,
    "vanish": _vanish, "thread_on_reply": _thread_on_reply, "empty": _empty,
}


@pytest.fixture
async def world(discord_double: Driver) -> World:
    return await discord_double.make_world()


@pytest.fixture
def probe() -> Probe:
    return Probe()


# The double serving discord.py


async def test_bot_logs_in_and_sees_the_world(discord_double: Driver, world: World,
                                              probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        guild = bot.get_guild(world.guild.id)
        assert guild is not None and guild.name == "Test Guild"
        assert guild.get_channel(world.channel.id) is not None
        assert bot.user is not None and bot.user.id == discord_double.bot_user.id
    paths = [r.path for r in discord_double.double.requests]
    assert paths[:2] == ["/users/@me", "/oauth2/applications/@me"]


async def test_ephemeral_reply_is_seen_only_by_the_invoker(discord_double: Driver, world: World,
                                                           probe: Probe) -> None:
    alice, bob = world.users[:2]
    async with discord_double.running(make_bot(probe)):
        handle = await discord_double.slash(alice, world.channel, "secret", options={"times": 2})
    assert handle.response_type == 4 and handle.ephemeral
    assert handle.message is not None and handle.message.content == "psst psst "
    assert discord_double.ephemerals(alice) == [handle.message]
    assert discord_double.ephemerals(bob) == []
    assert discord_double.visible_to(bob, world.channel) == []
    assert discord_double.channel_messages(world.channel) == []
    [sent] = discord_double.recorded_payloads(kind="interaction_response")
    assert sent.audience.user_id == alice.id and sent.audience.ephemeral


async def test_button_edits_its_message(discord_double: Driver, world: World,
                                        probe: Probe) -> None:
    alice, bob = world.users[:2]
    async with discord_double.running(make_bot(probe)):
        opened = await discord_double.slash(alice, world.channel, "table")
        message = opened.message
        assert message is not None and not opened.ephemeral
        assert button(message, "Hit")["custom_id"] == "table:hit"
        assert custom_ids(message) == ["table:hit", "table:stand", "table:partner",
                                       "table:pick"]
        clicked = await discord_double.click(bob, message, button(message, prefix="table:h")
                                             ["custom_id"])
        assert clicked.response_type == 7
        assert discord_double.message(world.channel, message.id).content == "hit by Bob"
        assert [v.content for v in discord_double.edits_of(message)] == ["table open",
                                                                         "hit by Bob"]
        stood = await discord_double.press(bob, message, "Stand")
        assert stood.message is not None and stood.message.ephemeral_to == bob.id
        picked = await discord_double.select(alice, message, "table:pick", ["H"])
        assert picked.message is not None and picked.message.content == "picked H"
        partnered = await discord_double.select(alice, message, "table:partner", [bob])
        assert partnered.message is not None and partnered.message.content == "partner Bob"
    assert discord_double.last_message(world.channel) == partnered.message


async def test_defer_then_followups(discord_double: Driver, world: World, probe: Probe) -> None:
    alice = world.users[0]
    async with discord_double.running(make_bot(probe)):
        handle = await discord_double.slash(alice, world.channel, "slow", options={"private": True})
    assert handle.deferred and handle.ephemeral
    assert handle.message is not None and handle.message.content == "done"
    assert [m.content for m in handle.followups] == ["and more"]
    assert all(m.ephemeral_to is None for m in handle.followups)
    assert [m.content for m in discord_double.visible_to(alice, world.channel)] == [
        "done", "and more"]


async def test_dynamic_item_button(discord_double: Driver, world: World, probe: Probe) -> None:
    alice, bob = world.users[:2]
    async with discord_double.running(make_bot(probe)):
        handle = await discord_double.slash(alice, world.channel, "seats")
        assert handle.message is not None
        sit = button(handle.message, "Sit E")
        clicked = await discord_double.click(bob, handle.message, sit["custom_id"])
    assert clicked.message is not None and clicked.message.content == "Bob sits E"


async def test_channel_message_sent_then_edited(discord_double: Driver, world: World,
                                                probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await discord_double.slash(world.users[0], world.channel, "announce",
                                   options={"text": "deal 1"})
        await discord_double.wait_for(lambda: probe.seen_own_messages)
    posted = discord_double.last_message(world.channel)
    assert posted is not None and posted.content == "DEAL 1"
    assert [v.content for v in discord_double.edits_of(posted)] == ["deal 1", "DEAL 1"]
    assert probe.seen_own_messages == [posted.id]  # MESSAGE_CREATE reached the bot


async def test_user_option_is_resolved(discord_double: Driver, world: World,
                                       probe: Probe) -> None:
    alice, bob = world.users[:2]
    async with discord_double.running(make_bot(probe)):
        handle = await discord_double.slash(alice, world.channel, "invite", options={"who": bob})
    assert handle.message is not None and handle.message.content == "invited Bob"


async def test_subcommand_group_options(discord_double: Driver, world: World,
                                        probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await discord_double.slash(
            world.users[0], world.channel, "match", group="bridge", subcommand="start",
            options={"seats": 4, "rated": True})
    assert handle.message is not None and handle.message.content == "bridge 4 True"


async def test_attachment_keeps_name_and_bytes(discord_double: Driver, world: World,
                                               probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await discord_double.slash(world.users[0], world.channel, "record")
    assert handle.message is not None
    assert handle.message.attachment("hand.pbn") == b"N:AKQ2.J43.T9.8765"


async def test_thread_is_created_and_used(discord_double: Driver, world: World,
                                          probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        await discord_double.slash(world.users[0], world.channel, "thread")
        thread = discord_double.state.channels[int(probe.notes[0])]
        assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the bot
    assert thread.parent_id == world.channel.id and thread.name == "Table 1"
    last = discord_double.last_message(thread)
    assert last is not None and last.content == "welcome to table 1"


async def test_command_sync_is_stored_and_used(discord_double: Driver, world: World,
                                               probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        guild = discord.Object(world.guild.id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        assert {c.name for c in synced} >= {"secret", "table", "match"}
        assert all(c.id for c in synced)
        handle = await discord_double.slash(world.users[0], world.channel, "secret")
        assert handle.interaction.payload["data"]["guild_id"] == str(world.guild.id)
    assert "secret" in {c["name"] for c in discord_double.commands(world.guild)}


# Discord's rules enforced (each test breaks one on purpose and takes the violation back)


async def _raw(driver: Driver, world: World, what: str, **kwargs: Any) -> Any:
    return await driver.slash(world.users[0], world.channel, "raw", options={"what": what},
                              **kwargs)


def _rules(driver: Driver) -> list[str]:
    return [v.rule for v in driver.take_violations()]


async def test_six_action_rows_are_refused(discord_double: Driver, world: World,
                                           probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "six_rows", wait=False)
        await discord_double.wait_for(lambda: probe.errors)
    assert probe.errors[0].code == 50035 and probe.errors[0].status == 400
    violations = discord_double.take_violations()
    assert [v.rule for v in violations] == ["limit"]
    assert "6 action rows" in violations[0].detail
    assert discord_double.channel_messages(world.channel) == []


async def test_custom_id_over_100_characters_is_refused(discord_double: Driver, world: World,
                                                        probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "long_custom_id", wait=False)
        await discord_double.wait_for(lambda: probe.errors)
    [violation] = discord_double.take_violations()
    assert "101 characters" in violation.detail and probe.errors[0].code == 50035


async def test_content_over_2000_characters_is_refused(discord_double: Driver, world: World,
                                                       probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "long_content", wait=False)
        await discord_double.wait_for(lambda: probe.errors)
    [violation] = discord_double.take_violations()
    assert "content has 2001 characters" in violation.detail


async def test_embed_title_over_256_characters_is_refused(discord_double: Driver, world: World,
                                                          probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "big_embed", wait=False)
        await discord_double.wait_for(lambda: probe.errors)
    [violation] = discord_double.take_violations()
    assert "title has 257 characters" in violation.detail


async def test_empty_message_is_refused(discord_double: Driver, world: World,
                                        probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "empty", wait=False)
        await discord_double.wait_for(lambda: probe.errors)
    assert probe.errors[0].code == 50006
    assert _rules(discord_double) == ["empty-message"]


async def test_answer_after_three_seconds_is_refused(discord_double: Driver, world: World,
                                                     probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "late", wait=False)
        await discord_double.settle()
        discord_double.advance_time(3.2)
        probe.release.set()
        await discord_double.wait_for(lambda: probe.errors)
    assert probe.errors[0].code == 10062 and isinstance(probe.errors[0], discord.NotFound)
    assert not handle.responded
    assert _rules(discord_double) == ["deadline"]


async def test_answer_within_three_seconds_is_accepted(discord_double: Driver, world: World,
                                                       probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "late", wait=False)
        discord_double.advance_time(2.5)
        probe.release.set()
        await handle.wait_response()
    assert handle.message is not None and handle.message.content == "too late"


async def test_second_answer_gets_40060(discord_double: Driver, world: World,
                                        probe: Probe) -> None:
    # Two running copies of a bot both answer each interaction: a real way to answer twice.
    async with discord_double.running(make_bot(probe)), discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "twice")
        await discord_double.wait_for(lambda: probe.errors)
    assert probe.errors[0].code == 40060
    assert _rules(discord_double) == ["double-ack"]


async def test_second_answer_marked_expected_is_no_violation(discord_double: Driver,
                                                             world: World,
                                                             probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)), discord_double.running(make_bot(probe)):
        await _raw(discord_double, world, "twice", expect_double_ack=True)
        await discord_double.wait_for(lambda: probe.errors)
    assert probe.errors[0].code == 40060 and discord_double.violations == []


async def test_ephemeral_edit_after_15_minutes_fails(discord_double: Driver, world: World,
                                                     probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "keep")
        interaction = probe.interactions["keep"]
        await interaction.edit_original_response(content="updated hand")
        discord_double.advance_time(TOKEN_LIFETIME + 1)
        with pytest.raises(discord.HTTPException) as failed:
            await interaction.edit_original_response(content="too late")
    assert failed.value.status == 401 and failed.value.code == 50027
    assert handle.message is not None and handle.message.content == "updated hand"
    assert _rules(discord_double) == ["expired-token"]


async def test_ephemeral_cannot_be_edited_through_the_channel(discord_double: Driver,
                                                              world: World,
                                                              probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        handle = await _raw(discord_double, world, "keep")
        assert handle.message is not None
        channel = bot.get_channel(world.channel.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.NotFound):
            await channel.get_partial_message(handle.message.id).edit(content="leak")
    assert _rules(discord_double) == ["ephemeral-via-channel"]
    assert handle.message.content == "your hand"


async def test_followup_with_unknown_token_fails(discord_double: Driver, world: World,
                                                 probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        hook = discord.Webhook.partial(discord_double.state.application_id, "no-such-token",
                                       client=bot)
        with pytest.raises(discord.HTTPException) as failed:
            await hook.send("hello", wait=True)
    assert failed.value.code == 50027
    assert _rules(discord_double) == ["unknown-token"]


async def test_rate_limit_reaches_the_bot(discord_double: Driver, world: World,
                                          probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        discord_double.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", retry_after=0.01)
        await _raw(discord_double, world, "long_content", wait=False)
        await discord_double.wait_for(lambda: probe.errors)
        assert probe.errors[0].status == 429
        # One shot: the next answer goes through.
        handle = await discord_double.slash(world.users[0], world.channel, "secret")
        assert handle.responded
    assert discord_double.violations == []


async def test_rate_limit_with_via_is_retried(discord_double: Driver, world: World,
                                              probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        discord_double.fail_next("POST", r"/callback$", retry_after=0.01, via=True)
        handle = await discord_double.slash(world.users[0], world.channel, "secret")
    assert handle.message is not None and handle.message.content == "psst "
    statuses = [r.status for r in discord_double.double.requests if r.path.endswith("/callback")]
    assert statuses == [429, 200]


async def test_unknown_route_is_a_violation(discord_double: Driver, world: World,
                                            probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        guild = bot.get_guild(world.guild.id)
        assert guild is not None
        with pytest.raises(discord.NotFound):
            await guild.fetch_roles()
    [violation] = discord_double.take_violations()
    assert violation.rule == "unknown-route" and "/roles" in violation.detail


async def test_other_users_cannot_click_an_ephemeral(discord_double: Driver, world: World,
                                                     probe: Probe) -> None:
    alice, bob = world.users[:2]
    async with discord_double.running(make_bot(probe)):
        opened = await discord_double.slash(alice, world.channel, "table")
        assert opened.message is not None
        stood = await discord_double.click(alice, opened.message, "table:stand")
        assert stood.message is not None
        with pytest.raises(AssertionError, match="cannot see"):
            await discord_double.click(bob, stood.message, "table:hit")


async def test_reconnect_resumes_the_session(discord_double: Driver, world: World,
                                             probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        await discord_double.reconnect()
        gateway = discord_double.double.gateway
        await discord_double.wait_for(lambda: gateway.resumes == 1 and gateway.connected)
        handle = await discord_double.slash(world.users[0], world.channel, "secret")
    assert handle.responded


# The limit checks on their own (bodies discord.py would refuse to build)


def test_limits_accept_a_full_legal_message() -> None:
    rows = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b" * 80, "custom_id": f"{r}-{i}" + "x" * 90}
        for i in range(5)]} for r in range(4)]
    rows.append({"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": "l" * 100, "value": f"{i:03d}" + "v" * 97} for i in range(25)]}]})
    embed = {"title": "t" * 256, "description": "d" * 4096, "fields": [
        {"name": "n", "value": "v" * 60} for _ in range(25)]}
    assert limits.check_message({"content": "c" * 2000, "components": rows,
                                 "embeds": [embed]}) == []


@pytest.mark.parametrize(("body", "expected"), [
    ({"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": str(i), "custom_id": str(i)} for i in range(6)]}]},
     "6 buttons"),
    ({"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "a", "custom_id": "same"},
        {"type": 2, "style": 1, "label": "b", "custom_id": "same"}]}]}, "used twice"),
    ({"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x" * 81, "custom_id": "x"}]}]}, "81 characters"),
    ({"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]}]}]}, "26 options"),
    ({"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": "l" * 101, "value": "v"}]}]}]}, "label has 101"),
    ({"components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
        {"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}]}, "alone in its row"),
    ({"embeds": [{"description": "d" * 4097}]}, "description has 4097"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "26 fields"),
    ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, "name has 257"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "value has 1025"),
    ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "footer.text has 2049"),
    ({"embeds": [{"author": {"name": "a" * 257}}]}, "author.name has 257"),
    ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "total 6001"),
    ({"embeds": [{"title": "t"}] * 11}, "11 embeds"),
])
def test_limits_refuse(body: dict[str, Any], expected: str) -> None:
    problems = limits.check_message(body)
    assert any(expected in p for p in problems), problems


async def test_ephemeral_followup_after_public_defer_is_public(discord_double: Driver,
                                                               world: World,
                                                               probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "defer_then_private")
    assert handle.message is not None and handle.message.content == "only for you?"
    assert handle.message.ephemeral_to is None  # Discord kept the defer's visibility
    [public] = discord_double.recorded_payloads(kind="followup", public=True)
    assert public.body["content"] == "only for you?"
    assert _rules(discord_double) == ["followup-visibility"]


INNER_TEST = '''
import discord
from discord.ext import commands

pytest_plugins = ["discord_double.fixtures"]


async def test_breaks_a_rule(discord_double):
    world = await discord_double.make_world(users=["alice"])
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(),
                       guild_ready_timeout=0.1)

    @bot.tree.command()
    async def shout(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    async with discord_double.running(bot):
        await discord_double.slash(world.users[0], world.channel, "shout", wait=False)
        await discord_double.wait_for(lambda: discord_double.violations)
        await discord_double.settle()


def test_runs_after_and_sees_discord_restored():
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"
'''


def test_fixture_fails_on_a_violation_and_restores_discord(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=INNER_TEST)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "asyncio_mode=auto",
                                          "-o", "asyncio_default_fixture_loop_scope=function")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*Discord double: [[]limit[]] content has 2001 characters*"])


async def test_modal_is_shown_and_submitted(discord_double: Driver, world: World,
                                            probe: Probe) -> None:
    alice = world.users[0]
    async with discord_double.running(make_bot(probe)):
        shown = await _raw(discord_double, world, "modal")
        assert shown.response_type == 9 and shown.modal is not None
        assert shown.modal["title"] == "Your bid"
        submitted = await discord_double.submit_modal(alice, shown, {"amount": "4"})
    assert submitted.message is not None and submitted.message.content == "bid 4"
    assert submitted.message.ephemeral_to == alice.id


async def test_edit_replaces_attachments(discord_double: Driver, world: World,
                                         probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "new_file")
    assert handle.message is not None
    first, second = discord_double.edits_of(handle.message)
    assert [a.filename for a in first.attachments] == ["a.txt"]
    assert [(a.filename, a.data) for a in second.attachments] == [("b.txt", b"two")]


async def test_deleted_response_is_gone(discord_double: Driver, world: World,
                                        probe: Probe) -> None:
    alice = world.users[0]
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "vanish")
    assert handle.message is not None and handle.message.deleted
    assert discord_double.ephemerals(alice) == []
    assert [p.kind for p in discord_double.recorded_payloads(user=alice)] == [
        "interaction_response", "delete"]


async def test_command_in_a_thread(discord_double: Driver, world: World, probe: Probe) -> None:
    bot = make_bot(probe)
    async with discord_double.running(bot):
        thread = await discord_double.add_thread(world.channel, "Table 7")
        await discord_double.wait_for(lambda: bot.get_channel(thread.id))
        handle = await discord_double.slash(world.users[1], thread, "table")
    assert handle.message is not None and handle.message.channel_id == thread.id
    assert discord_double.channel_messages(world.channel) == []
    assert discord_double.last_message(thread) == handle.message


async def test_member_permissions_come_from_roles(discord_double: Driver, world: World,
                                                  probe: Probe) -> None:
    alice, bob = world.users[:2]
    world.guild.roles[0].permissions = int(discord.Permissions(send_messages=True).value)
    async with discord_double.running(make_bot(probe)):
        await discord_double.add_role(world.guild, "mods",
                                      discord.Permissions(manage_messages=True).value, [bob])
        await discord_double.slash(alice, world.channel, "secret")
        plain = probe.interactions["secret"].permissions
        await discord_double.slash(bob, world.channel, "secret")
        mod = probe.interactions["secret"].permissions
    assert plain.send_messages and not plain.manage_messages
    assert mod.send_messages and mod.manage_messages


async def test_thread_started_from_a_reply(discord_double: Driver, world: World,
                                           probe: Probe) -> None:
    async with discord_double.running(make_bot(probe)):
        handle = await _raw(discord_double, world, "thread_on_reply")
    assert handle.message is not None and handle.message.thread_id == handle.message.id
    thread = discord_double.state.channels[handle.message.id]  # Discord reuses the id
    assert thread.name == "Table 2" and thread.parent_id == world.channel.id
    assert [m.content for m in discord_double.channel_messages(thread)] == ["seats open"]


def test_old_messages_take_only_a_few_edits() -> None:
    hour, budget = limits.OLD_MESSAGE_AGE, limits.OLD_MESSAGE_EDITS
    many = [float(i) for i in range(100)]  # edits within the first hour do not count
    assert not limits.old_edits_spent(0.0, many, hour)
    assert not limits.old_edits_spent(0.0, many, hour + 1)
    late = [hour + 1 + i for i in range(budget)]
    assert not limits.old_edits_spent(0.0, many + late[:-1], hour + 10)
    assert limits.old_edits_spent(0.0, many + late, hour + 10)


# -- application emojis ----------------------------------------------------------------

async def test_application_emojis_are_listed_created_and_checked_in_messages(discord_double):
    """List and create (discord.py's calls); a known emoji may be used on a button and in
    text; an unknown one on a button is refused (50035) and in text is a violation."""
    world = await discord_double.make_world()
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(),
                       guild_ready_timeout=0.1)
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 64
    async with discord_double.running(bot):
        assert await bot.fetch_application_emojis() == []
        made = await bot.create_application_emoji(name="tt_card", image=png)
        assert [e.id for e in await bot.fetch_application_emojis()] == [made.id]
        assert discord_double.state.app_emojis[made.id].image == png
        with pytest.raises(discord.HTTPException):
            await bot.create_application_emoji(name="tt_card", image=png)  # taken
        assert [v.rule for v in discord_double.take_violations()] == ["emoji"]
        channel = bot.get_partial_messageable(world.channel.id)
        known = discord.PartialEmoji(name="tt_card", id=made.id)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="card", emoji=known, custom_id="c"))
        sent = await channel.send(f"a card: <:tt_card:{made.id}>", view=view)
        assert discord_double.take_violations() == []
        stranger = discord.PartialEmoji(name="tt_card", id=made.id + 1)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="card", emoji=stranger, custom_id="c"))
        with pytest.raises(discord.HTTPException) as refused:
            await sent.edit(view=view)
        assert refused.value.code == 50035
        await sent.edit(content=f"<:tt_card:{made.id + 1}>", view=None)  # shown as text
        assert [v.rule for v in discord_double.take_violations()] == ["emoji", "emoji"]


async def test_a_client_that_leaves_mid_request_creates_nothing(discord_double: Driver,
                                                                world: World) -> None:
    """A bot process killed while sending a message: the double sees the connection drop
    in the body, creates nothing and is not broken by it."""
    double = discord_double.double
    _reader, writer = await asyncio.open_connection("127.0.0.1", double.port)
    path = f"/api/v10/channels/{world.channel.id}/messages"
    writer.write((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Authorization: Bot x\r\nContent-Type: application/json\r\n"
                  "Content-Length: 1000\r\n\r\n{\"content\": \"half").encode())
    await writer.drain()
    writer.transport.abort()  # gone, like a SIGKILL
    await discord_double.wait_for(lambda: any(r.path.endswith("/messages")
                                              for r in double.requests), timeout=5)
    assert discord_double.take_violations() == []
    assert discord_double.channel_messages(world.channel) == []
