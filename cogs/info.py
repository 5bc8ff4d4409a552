"""/help, /rules and /system: what the bot does, the rules it plays by, and how its bridge
computer players bid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.bridge.bidding.summary import sections
from bot.games import GAMES
from bot.render import ids
from bot.render.components import as_view
from bot.render.rules import (
    HELP_TOPICS,
    HELP_VERB,
    HOME,
    help_buttons,
    help_page,
    rules_embed,
    system_embeds,
)
from bot.router import Subject
from bot.tables import TABLE_OPTIONS
from cogs.utils.answers import refuse, unknown_choice
from cogs.utils.choices import game_choices

if TYPE_CHECKING:
    from bot.app import TrickTableBot


class Info(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.router.register(HELP_VERB, self.on_help_page, Subject.NONE)

    async def cog_unload(self) -> None:
        self.bot.router.unregister(HELP_VERB)

    @app_commands.command(name="help", description="How to play cards with TrickTable")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(**_help(HOME), ephemeral=True)

    async def on_help_page(self, interaction: discord.Interaction[Any],
                           parsed: ids.ParsedId) -> None:
        """A help button: its page, in place of the one shown."""
        page = parsed.args[0] if len(parsed.args) == 1 else ""
        if page != HOME and page not in HELP_TOPICS and page not in GAMES:
            raise ids.BadCustomId(parsed.verb)
        await interaction.response.edit_message(**_help(page))

    @app_commands.command(name="rules", description="The rules of a game, as this bot "
                                                    "plays them")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        problem = unknown_choice("game", game, GAMES)
        if problem:
            await refuse(interaction, problem)
            return
        await interaction.response.send_message(embed=rules_embed(game), ephemeral=True)

    @app_commands.command(name="system", description="How the bridge computer players bid: "
                                                     "their whole bidding system")
    async def system(self, interaction: discord.Interaction[Any]) -> None:
        first, *rest = system_embeds(sections())
        await interaction.response.send_message(embeds=first, ephemeral=True)
        for embeds in rest:
            await interaction.followup.send(embeds=embeds, ephemeral=True)


def _help(page: str) -> dict[str, Any]:
    return {"embed": help_page(page, [spec.name for spec in TABLE_OPTIONS]),
            "view": as_view(help_buttons(page))}


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Info(bot))
