"""Slash commands to open and run tables: /play <game>, /hand, /table, /leave, /abandon.

The bounds of each game's options come from the engine's own OptionSpec, so a slash
option can never offer a value the engine would refuse.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import InvalidOptions, game_class
from bot.games.base import resolve_options
from bot.tables import Person, Table, TableError, TableService, TableSettings
from bot.tables.model import DEFAULT_TURN_HOURS, NORMAL, SLOW
from cogs.tables import Tables
from cogs.utils.answers import refuse, unknown_choice
from cogs.utils.publisher import snapshot, table_message

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

MAX_TURN_TIMEOUT = 3600


def _bounds(game: str, option: str) -> tuple[int, int]:
    for spec in game_class(game).OPTIONS:
        if spec.name == option:
            assert spec.minimum is not None and spec.maximum is not None
            return spec.minimum, spec.maximum
    raise KeyError(f"{game} has no option {option}")


def _range(game: str, option: str) -> Any:
    low, high = _bounds(game, option)
    return app_commands.Range[int, low, high]


if TYPE_CHECKING:  # to the type checker these are plain ints
    SpadesTarget = int
    Rubbers = int
    SingleDummyTarget = int
    BidFairTarget = int
else:
    SpadesTarget = _range("spades", "target")
    Rubbers = _range("bridge", "rubbers")
    SingleDummyTarget = _range("single_dummy", "target")
    BidFairTarget = _range("bidfair", "target")
TurnTimeout = app_commands.Range[int, 0, MAX_TURN_TIMEOUT]
MAX_TURN_HOURS = 168  # a week
TurnHours = app_commands.Range[int, 1, MAX_TURN_HOURS]
MAX_PING_AFTER = 3600
PingAfter = app_commands.Range[int, 0, MAX_PING_AFTER]
Pace = Literal["normal", "slow"]

COMMON = {
    "turn_timeout": "Seconds before a computer player moves for an absent person (0: no timer)",
    "thread": "Open the table in a new thread of this channel",
    "pace": "slow: turns last hours (turn_hours), for friends who are not online together",
    "turn_hours": f"Slow play: hours a turn lasts before a computer player moves "
                  f"(default {DEFAULT_TURN_HOURS})",
    "ping_after": "Seconds on turn before you are pinged by a new message (0: never; "
                  "default 120)",
}


@dataclass(frozen=True, slots=True)
class Common:
    """The options every /play command takes (whatever the game)."""

    turn_timeout: int | None = None
    thread: bool = False
    pace: str = NORMAL
    turn_hours: int | None = None
    ping_after: int | None = None

    def settings(self, default_timeout: int, default_ping_after: int) -> TableSettings:
        """The table's settings; TableError says which options contradict each other."""
        if self.pace == SLOW:
            if self.turn_timeout is not None:
                raise TableError("In slow play the turn timer is `turn_hours`, not "
                                 "`turn_timeout`.")
            if self.ping_after is not None:
                raise TableError("In slow play the reminder comes at half the turn's time; "
                                 "`ping_after` is for normal pace.")
            return TableSettings.slow(self.turn_hours or DEFAULT_TURN_HOURS, self.thread)
        if self.turn_hours is not None:
            raise TableError("`turn_hours` is for slow play: add `pace: slow`.")
        timeout = default_timeout if self.turn_timeout is None else self.turn_timeout
        if not 0 <= timeout <= MAX_TURN_TIMEOUT:
            raise TableError(f"turn_timeout must be between 0 and {MAX_TURN_TIMEOUT} seconds.")
        ping_after = default_ping_after if self.ping_after is None else self.ping_after
        return TableSettings(turn_timeout=timeout, thread=self.thread,
                             ping_after=max(0, ping_after))


class Play(commands.Cog):
    """Opening and running tables."""

    play = app_commands.Group(name="play", description="Open a card table in this channel",
                              guild_only=True)

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.service: TableService = bot.tables

    @property
    def tables_cog(self) -> Tables:
        cog = self.bot.get_cog("Tables")
        assert isinstance(cog, Tables)
        return cog

    # -- /play <game> ---------------------------------------------------------------------

    @play.command(name="spades", description="Spades: four players in partnerships, "
                                             "nil and double nil")
    @app_commands.describe(target="Points a side needs to win (default 500)",
                           bags_penalty="Every 10 overtricks cost 100 points (default off)",
                           **COMMON)
    async def play_spades(self, interaction: discord.Interaction[Any], target: SpadesTarget = 500,
                          bags_penalty: bool = False, turn_timeout: TurnTimeout | None = None,
                          thread: bool = False, pace: Pace = "normal",
                          turn_hours: TurnHours | None = None,
                          ping_after: PingAfter | None = None) -> None:
        await self._open(interaction, "spades",
                         {"target": target, "bags_penalty": bags_penalty},
                         Common(turn_timeout, thread, pace, turn_hours, ping_after))

    @play.command(name="bridge", description="Contract Bridge, rubber scoring, four players")
    @app_commands.describe(rubbers="How many rubbers the match lasts (default 1)", **COMMON)
    async def play_bridge(self, interaction: discord.Interaction[Any], rubbers: Rubbers = 1,
                          turn_timeout: TurnTimeout | None = None, thread: bool = False,
                          pace: Pace = "normal", turn_hours: TurnHours | None = None,
                          ping_after: PingAfter | None = None) -> None:
        await self._open(interaction, "bridge", {"rubbers": rubbers},
                         Common(turn_timeout, thread, pace, turn_hours, ping_after))

    @play.command(name="single_dummy", description="Single Dummy Bridge for two players")
    @app_commands.describe(target="Points needed to win (default 500)",
                           undertrick_penalty="A failed contract gives the opponent 50 per "
                                              "undertrick (default off)", **COMMON)
    async def play_single_dummy(self, interaction: discord.Interaction[Any],
                                target: SingleDummyTarget = 500,
                                undertrick_penalty: bool = False,
                                turn_timeout: TurnTimeout | None = None,
                                thread: bool = False, pace: Pace = "normal",
                                turn_hours: TurnHours | None = None,
                                ping_after: PingAfter | None = None) -> None:
        await self._open(interaction, "single_dummy",
                         {"target": target, "undertrick_penalty": undertrick_penalty},
                         Common(turn_timeout, thread, pace, turn_hours, ping_after))

    @play.command(name="tennis", description="Tennis: two players, each with a Forehand "
                                             "and a Backhand")
    @app_commands.describe(**COMMON)
    async def play_tennis(self, interaction: discord.Interaction[Any],
                          turn_timeout: TurnTimeout | None = None, thread: bool = False,
                          pace: Pace = "normal", turn_hours: TurnHours | None = None,
                          ping_after: PingAfter | None = None) -> None:
        await self._open(interaction, "tennis", {},
                         Common(turn_timeout, thread, pace, turn_hours, ping_after))

    @play.command(name="bidfair", description="Bid Fair: two players, 24 cards, a crib")
    @app_commands.describe(target="Points that end the game (default 800)", **COMMON)
    async def play_bidfair(self, interaction: discord.Interaction[Any],
                           target: BidFairTarget = 800, turn_timeout: TurnTimeout | None = None,
                           thread: bool = False, pace: Pace = "normal",
                           turn_hours: TurnHours | None = None,
                           ping_after: PingAfter | None = None) -> None:
        await self._open(interaction, "bidfair", {"target": target},
                         Common(turn_timeout, thread, pace, turn_hours, ping_after))

    async def _open(self, interaction: discord.Interaction[Any], game: str,
                    options: dict[str, Any], common: Common) -> None:
        channel = interaction.channel
        thread = common.thread
        if interaction.guild_id is None or channel is None:
            await interaction.response.send_message("Tables can only be opened in a server "
                                                    "channel.", ephemeral=True)
            return
        problem = unknown_choice("pace", common.pace, (NORMAL, SLOW))
        if problem:
            await refuse(interaction, problem)
            return
        try:  # refuse bad options before anything is made (a thread, a table)
            resolve_options(game_class(game).OPTIONS, options)
            settings = common.settings(self.bot.settings.turn_timeout_seconds,
                                       self.bot.settings.ping_after_seconds)
        except (InvalidOptions, TableError) as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        person = Person(interaction.user.id, interaction.user.display_name)
        busy = self.service.in_channel(channel.id)
        if busy is not None and not thread:
            await interaction.response.send_message(
                f"A {busy.game.TITLE} table is already open here. Finish it or /abandon it "
                "first, or open yours in a thread with `thread: True`.", ephemeral=True)
            return
        if thread:
            await self._open_in_thread(interaction, game, options, person, settings)
            return
        try:
            table = await self.service.lobby.create(
                game, options, guild_id=interaction.guild_id, channel_id=channel.id,
                creator=person, settings=settings)
        except TableError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        await interaction.response.send_message(**table_message(table).send_kwargs())
        message = await interaction.original_response()
        await self.service.set_message(table, message.id)

    async def _open_in_thread(self, interaction: discord.Interaction[Any], game: str,
                              options: dict[str, Any], person: Person,
                              settings: TableSettings) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await interaction.response.send_message(
                "A thread can only be opened from a text channel.", ephemeral=True)
            return
        # Private "thinking": the first followup inherits the defer's visibility, so the
        # refusals below stay private; the channel is told in a message of its own.
        await interaction.response.defer(thinking=True, ephemeral=True)
        title = game_class(game).TITLE
        try:
            thread = await channel.create_thread(
                name=f"{title} — {person.name}"[:100], type=discord.ChannelType.public_thread,
                auto_archive_duration=1440)
        except discord.HTTPException:
            await interaction.followup.send("I could not open a thread here: I need the "
                                            "Create Public Threads permission.")
            return
        try:
            table = await self.service.lobby.create(
                game, options, guild_id=interaction.guild_id or 0, channel_id=thread.id,
                creator=person, settings=settings)
        except TableError as exc:
            await interaction.followup.send(str(exc))
            return
        message = await thread.send(**table_message(table).send_kwargs())
        await self.service.set_message(table, message.id)
        await interaction.followup.send(f"Your {title} table is open in {thread.mention}.")
        await channel.send(f"{person.name} opened a {title} table in {thread.mention}: "
                           "join there.", allowed_mentions=discord.AllowedMentions.none())

    # -- running a table ------------------------------------------------------------------

    def _here(self, interaction: discord.Interaction[Any]) -> Table | None:
        channel_id = interaction.channel_id
        return self.service.in_channel(channel_id) if channel_id is not None else None

    async def _no_table(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            "There is no table open in this channel. Open one with /play.", ephemeral=True)

    @app_commands.command(name="hand", description="Your cards at this channel's table, "
                                                   "privately")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = self._here(interaction)
        if table is None:
            await self._no_table(interaction)
            return
        await self.tables_cog.show_hand(interaction, table)

    @app_commands.command(name="table", description="Post this channel's table again at "
                                                    "the bottom")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        table = self._here(interaction)
        if table is None:
            await self._no_table(interaction)
            return
        old_message_id = table.message_id
        current = await snapshot(table, lambda: table_message(table))
        await interaction.response.send_message(**current.send_kwargs())
        message = await interaction.original_response()
        await self.service.set_message(table, message.id)
        self.tables_cog.publisher.resume(table)
        if old_message_id is not None and old_message_id != message.id:
            await self.tables_cog.publisher.retire(table, old_message_id, message.jump_url)

    @app_commands.command(name="leave", description="Leave your seat (a computer player "
                                                    "takes over mid-match)")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = self._here(interaction)
        if table is None:
            await self._no_table(interaction)
            return
        try:
            text = await self.service.lobby.leave(table.id, interaction.user.id)
        except TableError as exc:
            text = str(exc)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="abandon", description="Stop this channel's match (creator, "
                                                      "a majority, or moderators)")
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        table = self._here(interaction)
        if table is None:
            await self._no_table(interaction)
            return
        permissions = interaction.permissions
        try:
            text = await self.service.lobby.abandon(table.id, interaction.user.id,
                                              bool(permissions and permissions.manage_messages))
        except TableError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        await interaction.response.send_message(text, ephemeral=not table.closed)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Play(bot))
