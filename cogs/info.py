"""/help, /rules and /system: what the bot does, the rules it plays by, and how its bridge
computer players bid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.bidding.summary import sections
from bot.games import GAMES
from bot.render.rules import help_embed, rules_embed, system_embeds
from cogs.utils.answers import refuse, unknown_choice

if TYPE_CHECKING:
    from bot.app import TrickTableBot

GameName = Literal["spades", "bridge", "single_dummy", "tennis", "bidfair"]


class Info(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play cards with TrickTable")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)

    @app_commands.command(name="rules", description="The rules of a game, as this bot "
                                                    "plays them")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction[Any], game: GameName) -> None:
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
