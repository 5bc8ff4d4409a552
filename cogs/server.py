"""/server settings and /server reset: a server's own rules for its tables, for people
with Manage Server. What they mean is bot.tables.servers'; this cog shows and changes them."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.store import ServerSettingsRow
from bot.tables.model import PACES
from bot.tables.servers import LEVELS
from cogs.utils.answers import refuse, unknown_choice

if TYPE_CHECKING:
    from bot.app import TrickTableBot

Interaction = discord.Interaction[Any]
MAX_CHANNELS = 25  # a list an admin can still read


def describe(row: ServerSettingsRow, timeout: int, ping_after: int) -> str:
    """The server's settings as the admin reads them (the bot's defaults where unset)."""
    def seconds(value: int | None, fallback: int, none_word: str) -> str:
        shown = fallback if value is None else value
        text = f"{shown} s" if shown else none_word
        return text if value is not None else f"{text} (the bot's default)"

    channels = (", ".join(f"<#{c}>" for c in row.channels) if row.channels
                else "every channel")
    lines = [
        "**This server's table settings**",
        f"- Turn timer of new tables: {seconds(row.turn_timeout, timeout, 'none')}",
        f"- Ping after: {seconds(row.ping_after, ping_after, 'never')}",
        f"- Pace: {row.pace or 'normal'}",
        f"- Computer players: {'allowed' if row.computer_players else 'off'}"
        + (f", level {row.bot_level}" if row.bot_level else ", strongest level"),
        f"- Tables may be opened in: {channels}",
        "Change them with `/server settings` options; `/server reset` goes back to the "
        "defaults. Anyone may still choose other options for their own table with /play.",
    ]
    return "\n".join(lines)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Server(commands.GroupCog, group_name="server",
             group_description="This server's table settings (Manage Server)"):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        super().__init__()

    async def _allowed(self, interaction: Interaction) -> bool:
        permissions = interaction.permissions
        if interaction.guild_id is None:
            await refuse(interaction, "This command works in a server channel only.")
            return False
        if not (permissions and permissions.manage_guild):
            await refuse(interaction, "Only people with the Manage Server permission can "
                                      "change this server's table settings.")
            return False
        return True

    def _text(self, row: ServerSettingsRow) -> str:
        settings = self.bot.settings
        return describe(row, settings.turn_timeout_seconds, settings.ping_after_seconds)

    @app_commands.command(name="settings", description="Show or change this server's table "
                                                       "settings")
    @app_commands.describe(
        turn_timeout="Default turn timer of new tables, seconds (0: none)",
        ping_after="Default seconds on turn before a ping (0: never)",
        pace="Default pace of new tables",
        computer_level="Level of the computer player Add bot seats",
        computer_players="Whether people may seat computer players",
        allow_channel="Allow tables in this channel (once any is listed, only those)",
        remove_channel="Take this channel off the list (an empty list: every channel)")
    async def settings(
            self, interaction: Interaction,
            turn_timeout: app_commands.Range[int, 0, 3600] | None = None,
            ping_after: app_commands.Range[int, 0, 3600] | None = None,
            pace: Literal["normal", "slow"] | None = None,
            computer_level: Literal["advanced", "basic"] | None = None,
            computer_players: bool | None = None,
            allow_channel: discord.TextChannel | None = None,
            remove_channel: discord.TextChannel | None = None) -> None:
        if not await self._allowed(interaction):
            return
        problem = ((pace is not None and unknown_choice("pace", pace, PACES))
                   or (computer_level is not None
                       and unknown_choice("computer_level", computer_level, LEVELS)))
        if problem:
            await refuse(interaction, problem)
            return
        rules = self.bot.server_rules
        row = await rules.get(interaction.guild_id or 0)
        changes: dict[str, Any] = {
            name: value for name, value in (
                ("turn_timeout", turn_timeout), ("ping_after", ping_after), ("pace", pace),
                ("bot_level", computer_level), ("computer_players", computer_players))
            if value is not None}
        channels = list(row.channels)
        if allow_channel is not None and allow_channel.id not in channels:
            if len(channels) >= MAX_CHANNELS:
                await refuse(interaction, f"At most {MAX_CHANNELS} channels can be listed.")
                return
            channels.append(allow_channel.id)
        if remove_channel is not None and remove_channel.id in channels:
            channels.remove(remove_channel.id)
        changes["channels"] = tuple(channels)
        if any(getattr(row, name) != value for name, value in changes.items()):
            row = await rules.save(dataclasses.replace(row, **changes))
        await interaction.response.send_message(self._text(row), ephemeral=True)

    @app_commands.command(name="reset", description="Back to the bot's defaults: every "
                                                    "channel, computer players allowed")
    async def reset(self, interaction: Interaction) -> None:
        if not await self._allowed(interaction):
            return
        row = await self.bot.server_rules.reset(interaction.guild_id or 0)
        await interaction.response.send_message(
            "Back to the defaults.\n" + self._text(row), ephemeral=True)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Server(bot))
