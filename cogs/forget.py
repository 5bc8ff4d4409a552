"""`/settings forget:me`: a person has the bot forget them (Discord's Developer Policy asks
bots to honour deletion requests). A private confirmation first; the Forget button then
removes their id, name and ratings (bot.store.privacy says what stays, anonymous)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.render import ids
from bot.render.components import as_view, button
from bot.router import Subject
from bot.store import StillPlaying

if TYPE_CHECKING:
    from bot.app import TrickTableBot

Interaction = discord.Interaction[Any]
VERB = "forget"

ASK = ("**Forget you?** This removes your Discord id, your names at tables and your "
       "ratings and stats from TrickTable, in every server. Matches you played keep their "
       "scores (other people's results do not change), shown as played by *a former "
       "player*. It cannot be undone. Your own messages in channels are yours to delete.")


async def ask_to_forget(interaction: Interaction) -> None:
    """The private confirmation, with the one button that does it."""
    confirm = button(ids.make(VERB, interaction.user.id), "Forget me",
                     discord.ButtonStyle.danger)
    await interaction.response.send_message(ASK, view=as_view([confirm]), ephemeral=True)


class Forget(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.router.register(VERB, self.on_forget, Subject.PERSON)

    async def cog_unload(self) -> None:
        self.bot.router.unregister(VERB)

    async def on_forget(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        if parsed.args:
            raise ids.BadCustomId(parsed.verb)
        user_id = interaction.user.id
        if parsed.subject != user_id:  # the button of someone else's confirmation
            await interaction.response.send_message(
                "This button is for the person who asked to be forgotten; use "
                "`/settings forget:me` yourself.", ephemeral=True)
            return
        try:
            await self.bot.store.forget_person(user_id)
        except StillPlaying:
            text = ("You are still at an open table (or opened one): leave it with /leave "
                    "or let it finish, then ask again. Nothing was removed.")
        else:
            text = ("Done: TrickTable no longer holds your Discord id, names or ratings. "
                    "Your past matches are shown as played by a former player.")
        await interaction.response.edit_message(content=text, view=None)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Forget(bot))
