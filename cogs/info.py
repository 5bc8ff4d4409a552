"""/help, /rules and /system: what the bot does, the rules it plays by, and how its bridge
computer players bid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.bridge.bidding.summary import sections
from bot.games import GAMES
from bot.render.rules import help_embeds, rules_embed, system_embeds
from bot.tables import TABLE_OPTIONS
from cogs.utils.answers import refuse, unknown_choice
from cogs.utils.choices import game_choices

if TYPE_CHECKING:
    from bot.app import TrickTableBot


class Info(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play cards with TrickTable")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        embeds = help_embeds([spec.name for spec in TABLE_OPTIONS])
        await interaction.response.send_message(embeds=embeds, ephemeral=True)

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


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Info(bot))
