"""/tables (this server's open tables, or yours, with links) and /settings (your own
settings: whether a long wait on your turn pings you)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import turns as render
from bot.tables import LOBBY, Table, TableService
from cogs.forget import ask_to_forget
from cogs.utils.answers import refuse, unknown_choice

if TYPE_CHECKING:
    from bot.app import TrickTableBot

Interaction = discord.Interaction[Any]


def table_line(table: Table) -> render.TableLine:
    waiting = [table.decider(seat) for seat in table.waiting_on()] \
        if table.status != LOBBY else []
    names = [info.name if info else "?" for info in table.seats]
    return render.TableLine(
        table_id=table.id, title=table.game.TITLE,
        url=render.jump_url(table.guild_id, table.channel_id, table.message_id),
        channel_id=table.channel_id,
        players=[info.name for info in table.seats if info is not None],
        waiting_for=[names[seat] for seat in waiting],
        since=table.since if waiting else None, slow=table.settings.slow_pace)


def open_tables(service: TableService, guild_id: int, user_id: int | None) -> list[Table]:
    """A server's open tables (only those `user_id` sits at, when given): the longest
    wait first, lobbies last."""
    found = [t for t in service.tables.values()
             if t.guild_id == guild_id and not t.closed
             and (user_id is None or t.seat_of(user_id) is not None)]
    return sorted(found, key=lambda t: (t.status == LOBBY, t.since, t.id))


class Overview(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="tables", description="This server's open tables, or yours, "
                                                     "with links")
    @app_commands.describe(show="all: every open table here; mine: the ones you sit at")
    @app_commands.guild_only()
    async def tables(self, interaction: Interaction,
                     show: Literal["all", "mine"] = "all") -> None:
        problem = unknown_choice("show", show, ("all", "mine"))
        if problem:
            await refuse(interaction, problem)
            return
        mine = show == "mine"
        found = open_tables(self.bot.tables, interaction.guild_id or 0,
                            interaction.user.id if mine else None)
        message = render.tables_list([table_line(t) for t in found], mine)
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    @app_commands.command(name="settings", description="Your own settings: turn pings; "
                                                       "forget me")
    @app_commands.describe(pings="on: a new message pings you when a table has waited a "
                                 "while for you; off: never",
                           forget="me: remove your id, names and ratings (asks first)")
    async def settings(self, interaction: Interaction,
                       pings: Literal["on", "off"] | None = None,
                       forget: Literal["me"] | None = None) -> None:
        problem = ((pings and unknown_choice("pings", pings, ("on", "off")))
                   or (forget and unknown_choice("forget", forget, ("me",))))
        if problem:
            await refuse(interaction, problem)
            return
        if forget is not None:
            await ask_to_forget(interaction)
            return
        store = self.bot.store
        user_id = interaction.user.id
        if pings is not None:
            await store.set_pings(user_id, pings == "on")
        enabled = await store.pings_enabled(user_id)
        text = ("Turn pings are **on**: when a table has waited a while for you, a new "
                "message pings you (it is deleted once you have played)."
                if enabled else
                "Turn pings are **off**: tables wait for you without pinging you.")
        if pings is None:
            text += " Change it with `/settings pings:on` or `/settings pings:off`."
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Overview(bot))
