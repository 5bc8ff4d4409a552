"""Slash commands to open and run tables: /play <game>, /hand, /table, /leave, /abandon.

`/play` has one subcommand per game of the registry (`bot.games.GAMES`), built from the
engine's `OPTIONS` and the options every table takes (`bot.tables.TABLE_OPTIONS`): their
types, ranges and descriptions come from the specs, so a slash option can never offer a
value the engine would refuse, and adding a game or an option touches nothing here.
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES, InvalidOptions, OptionSpec, game_class
from bot.games.base import resolve_options
from bot.publishing import snapshot, table_message
from bot.render.games import text_for
from bot.render.rules import option_value
from bot.tables import TABLE_OPTIONS, Person, Table, TableService, TableSettings
from bot.tables.servers import channel_refusal, table_defaults
from cogs.tables import Tables
from cogs.utils.answers import refuse
from cogs.utils.permissions import missing_for_table, missing_text

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)


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

    # -- /play <game> (one subcommand per game, built below from the registry) -----------

    async def _open(self, interaction: discord.Interaction[Any], game: str,
                    given: dict[str, Any]) -> None:
        """Open a table of `game` with the options the person gave (None: not given)."""
        channel = interaction.channel
        if interaction.guild_id is None or channel is None:
            await interaction.response.send_message("Tables can only be opened in a server "
                                                    "channel.", ephemeral=True)
            return
        common = {spec.name for spec in TABLE_OPTIONS}
        options = {name: value for name, value in given.items()
                   if value is not None and name not in common}
        server = await self.bot.server_rules.get(interaction.guild_id)
        refusal = channel_refusal(server, (channel.id, getattr(channel, "parent_id", 0) or 0))
        if refusal:
            await refuse(interaction, refusal)
            return
        defaults = table_defaults(server, {"turn_timeout": self.bot.settings.turn_timeout_seconds,
                                           "ping_after": self.bot.settings.ping_after_seconds})
        try:  # refuse bad options before anything is made (a thread, a table)
            resolve_options(game_class(game).OPTIONS, options)
            settings = TableSettings.chosen(
                {name: value for name, value in given.items() if name in common}, defaults)
        except InvalidOptions as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        missing = missing_for_table(interaction.app_permissions,
                                    in_thread=isinstance(channel, discord.Thread),
                                    new_thread=settings.thread)
        if missing:  # said before anything is made: no half-posted table, no thread
            await refuse(interaction, missing_text(missing))
            return
        person = Person(interaction.user.id, interaction.user.display_name)
        busy = self.service.in_channel(channel.id)
        if busy is not None and not settings.thread:
            await interaction.response.send_message(
                f"A {busy.game.TITLE} table is already open here. Finish it or /abandon it "
                "first, or open yours in a thread with `thread: True`.", ephemeral=True)
            return
        if settings.thread:
            await self._open_in_thread(interaction, game, options, person, settings)
            return
        table = await self.service.lobby.create(
            game, options, guild_id=interaction.guild_id, channel_id=channel.id,
            creator=person, settings=settings)
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
        table = await self.service.lobby.create(
            game, options, guild_id=interaction.guild_id or 0, channel_id=thread.id,
            creator=person, settings=settings)
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
        self.bot.publisher.resume(table)
        if old_message_id is not None and old_message_id != message.id:
            await self.bot.publisher.retire(table, old_message_id, message.jump_url)

    @app_commands.command(name="leave", description="Leave your seat (a computer player "
                                                    "takes over mid-match)")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = self._here(interaction)
        if table is None:
            await self._no_table(interaction)
            return
        text = await self.service.lobby.leave(table.id, interaction.user.id)
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
        text = await self.service.lobby.abandon(table.id, interaction.user.id,
                                                bool(permissions and permissions.manage_messages))
        await interaction.response.send_message(text, ephemeral=not table.closed)


def _annotation(spec: OptionSpec) -> Any:
    """The slash option's type: a bool, or a whole number in the spec's range (Discord
    then refuses other values before the bot sees them)."""
    if spec.kind is bool:
        return bool
    if spec.kind is str:
        return Literal[spec.choices]
    if spec.minimum is None or spec.maximum is None:
        return int
    return app_commands.Range[int, spec.minimum, spec.maximum]


def _described(spec: OptionSpec) -> str:
    """A game option's description ends with its default (a table option's may be the
    bot's setting)."""
    text = spec.description.rstrip(".")
    if spec in TABLE_OPTIONS:
        return text
    return f"{text} (default {option_value(spec.default)})"


def play_command(game: str) -> app_commands.Command[Any, ..., None]:
    """`/play <game>`: its options are the engine's `OPTIONS` (those not internal), then
    the options every table takes (`TABLE_OPTIONS`); all optional, so a value the person
    did not give is None and the default applies."""
    specs = [spec for spec in game_class(game).OPTIONS if not spec.internal]
    specs += TABLE_OPTIONS

    async def play_game(cog: Play, interaction: discord.Interaction[Any],
                        **given: Any) -> None:
        await cog._open(interaction, game, given)

    # discord.py reads a command's options from its callback's signature; the callback is
    # a method of Play (the cog is passed first), which the qualified name tells it.
    play_game.__qualname__ = f"Play.play_{game}"
    parameters = [inspect.Parameter("cog", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                  inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    parameters += [inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                     annotation=_annotation(spec)) for spec in specs]
    play_game.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = app_commands.describe(**{spec.name: _described(spec) for spec in specs})
    return app_commands.Command(name=game, description=text_for(game).about.summary,
                                callback=described(play_game), parent=Play.play)


for _game in GAMES:
    Play.play.add_command(play_command(_game))


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Play(bot))
