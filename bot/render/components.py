"""The one kind of button every TrickTable message uses, resolved by its custom id.

All buttons are `DynamicItem`s matching `tt:<verb>:<table id>:...`, so they keep working
after a restart and nothing is stored per message. A click is handed to the client's
`component_handler` (the Tables cog), which resolves the table and answers. Choices are
always buttons (a seat, a bid level), so no select menu is needed.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from . import ids


class ComponentHandler(Protocol):
    async def on_component(self, interaction: discord.Interaction[Any],
                           custom_id: str) -> None: ...


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.PATTERN):
    def __init__(self, custom_id: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style,
                                           disabled=disabled, row=row))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> TableButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: ComponentHandler | None = getattr(interaction.client, "component_handler",
                                                   None)
        if handler is None:
            await interaction.response.send_message(
                "The bot is still starting; try again in a moment.", ephemeral=True)
            return
        await handler.on_component(interaction, self.item.custom_id or "")


def button(custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, disabled: bool = False) -> TableButton:
    return TableButton(custom_id, label=label[:80], style=style, row=row, disabled=disabled)
