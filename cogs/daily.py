"""/daily: the day's deals for everyone in the server, their results, the end-of-day post
and the daily leaderboard. Thin: bot.tables.daily runs the days, bot.render.daily draws."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_class
from bot.render import daily as render
from bot.tables import Person
from bot.tables.daily import DAILY_GAMES, DailyDeals, Scoring, ranked
from cogs.utils.answers import refuse, unknown_choice
from cogs.utils.permissions import missing_for_table, missing_text
from cogs.utils.threads import NO_THREAD, post_table, private_thread

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

FIRST_DAILY = next(iter(DAILY_GAMES))  # the `game` option's default
DAILY_CHOICES = [app_commands.Choice(name=game_class(name).TITLE, value=name)
                 for name in DAILY_GAMES]
CLOSE_EVERY = 60.0  # seconds between looks for days that have ended


class Daily(commands.Cog):
    daily_group = app_commands.Group(name="daily", description="Daily deals: everyone in "
                                     "the server plays the same deals, once a day",
                                     guild_only=True)

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.daily = DailyDeals(bot.tables, bot.store)
        self._closer: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._closer = asyncio.create_task(self._close_days_forever(), name="daily-closer")

    async def cog_unload(self) -> None:
        if self._closer is not None:
            self._closer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._closer

    # -- playing ------------------------------------------------------------------------

    async def _begin(self, interaction: discord.Interaction[Any], game: str) -> None:
        channel = interaction.channel
        guild_id = interaction.guild_id
        if guild_id is None or not isinstance(channel, discord.TextChannel):
            await interaction.response.send_message(
                "Daily deals start from a server's text channel (not a thread).",
                ephemeral=True)
            return
        missing = missing_for_table(interaction.app_permissions, in_thread=False,
                                    new_thread=False, private_thread=True)
        if missing:
            await refuse(interaction, missing_text(missing))
            return
        person = Person(interaction.user.id, interaction.user.display_name)
        day = await self.daily.today(guild_id)
        if await self.bot.store.daily_entry(guild_id, game, day, person.user_id):
            await interaction.response.send_message(
                f"You have played today's {game} deals ({day}) already; `/daily results` "
                "shows how the field did.", ephemeral=True)
            return
        await interaction.response.defer(thinking=True, ephemeral=True)
        title = game_class(game).TITLE
        thread = await private_thread(channel, f"Daily {title} {day} — {person.name}",
                                      interaction.user)
        if thread is None:
            await interaction.followup.send(NO_THREAD)
            return
        try:
            table = await self.daily.begin(game, guild_id, thread.id, person)
        except Exception:  # refused (answered by the command tree) or failed: no empty thread
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise
        await post_table(self.bot, thread, table)
        await interaction.followup.send(
            f"Your daily {title} is ready in {thread.mention}: you are South, computer "
            "players hold the other seats. Press **My hand** there to play.")

    # -- results --------------------------------------------------------------------------

    @daily_group.command(name="results", description="Today's standings and the boards "
                                                     "you have played")
    @app_commands.describe(game="Which daily game",
                           scoring="Matchpoints (default) or IMPs across the field")
    @app_commands.choices(game=DAILY_CHOICES)
    async def results(self, interaction: discord.Interaction[Any], game: str = FIRST_DAILY,
                      scoring: Scoring = "matchpoints") -> None:
        problem = unknown_choice("game", game, DAILY_GAMES)
        if problem:
            await refuse(interaction, problem)
            return
        guild_id = interaction.guild_id
        assert guild_id is not None  # the group is guild_only
        day = await self.daily.today(guild_id)
        seen = await self.daily.seen_by(guild_id, game, day, interaction.user.id)
        everything = await self.daily.results(guild_id, game, day)
        hidden = sorted(set(everything.boards) - set(seen.boards))
        embed = render.day_embed(seen, ranked(seen.standings, scoring), scoring, hidden)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @daily_group.command(name="leaderboard", description="Days won and average percentage "
                                                         "in the daily deals")
    @app_commands.choices(game=DAILY_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          game: str = FIRST_DAILY) -> None:
        problem = unknown_choice("game", game, DAILY_GAMES)
        if problem:
            await refuse(interaction, problem)
            return
        guild_id = interaction.guild_id
        assert guild_id is not None
        rows = await self.bot.store.daily_board(guild_id, game)
        await interaction.response.send_message(embed=render.leaderboard_embed(game, rows),
                                                ephemeral=True)

    @daily_group.command(name="channel", description="Where each day's final standings "
                                                     "are posted, and when a day starts")
    @app_commands.describe(channel="The channel (default: this one)",
                           utc_offset="Hours from UTC at which the server's day starts "
                                      "(default: keep the current setting, first 0)")
    @app_commands.default_permissions(manage_guild=True)
    async def channel(self, interaction: discord.Interaction[Any],
                      channel: discord.TextChannel | None = None,
                      utc_offset: app_commands.Range[int, -12, 14] | None = None) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        permissions = interaction.permissions
        if not (permissions and permissions.manage_guild):
            await interaction.response.send_message(
                "Only members who can manage the server choose the daily channel.",
                ephemeral=True)
            return
        target = channel.id if channel is not None else interaction.channel_id
        current = await self.bot.store.daily_settings(guild_id)
        offset = current.utc_offset if utc_offset is None else utc_offset * 60
        await self.bot.store.set_daily_settings(guild_id, channel_id=target,
                                                utc_offset=offset)
        await interaction.response.send_message(
            f"Each day's final daily standings will be posted in <#{target}>; a day starts "
            f"at midnight UTC{offset / 60:+g}.", ephemeral=True)

    # -- the end of a day -------------------------------------------------------------------

    async def _close_days_forever(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.close_ended_days()
            except Exception:
                log.exception("daily deals: could not close the ended days")
            await asyncio.sleep(CLOSE_EVERY)

    async def close_ended_days(self) -> int:
        """Post the final standings of every day that has ended; returns how many."""
        closed = 0
        for guild_id, game, day in await self.daily.ended_days():
            settings = await self.bot.store.daily_settings(guild_id)
            results = await self.daily.results(guild_id, game, day)
            if settings.channel_id is not None and results.standings:
                embed = render.day_embed(results, ranked(results.standings), "matchpoints",
                                         final=True)
                try:
                    await self.bot.get_partial_messageable(settings.channel_id).send(
                        embed=embed)
                except discord.HTTPException:
                    log.exception("daily deals: could not post %s's %s standings", day, game)
                    continue  # tried again next time
            await self.daily.close(guild_id, game, day)
            closed += 1
        return closed


def daily_command(game: str) -> app_commands.Command[Any, ..., None]:
    """`/daily <game>`, for each game whose engine declares daily deals (its `DAILY`)."""
    daily = game_class(game).DAILY
    assert daily is not None

    async def begin(cog: Daily, interaction: discord.Interaction[Any]) -> None:
        await cog._begin(interaction, game)

    # A method of Daily (the cog is passed first), which the qualified name tells discord.py.
    begin.__qualname__ = f"Daily.daily_{game}"
    return app_commands.Command(name=game, description=daily.description, callback=begin,
                                parent=Daily.daily_group)


for _game in DAILY_GAMES:
    Daily.daily_group.add_command(daily_command(_game))


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Daily(bot))
