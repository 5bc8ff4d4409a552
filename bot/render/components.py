"""The one kind of button every TrickTable message uses, resolved by its custom id.

All buttons carry a custom id `tt:<verb>:<table id>:...`, so they keep working after a
restart and nothing is stored per message. The bot routes a click on one itself
(`table_custom_id`, used by the Tables cog's `on_interaction` listener): discord.py keeps
no view for these buttons (they are not "dispatchable" to it), so it neither stores the
views we send nor rebuilds the clicked message's view for every click. Choices are always
buttons (a seat, a bid level), so no select menu is needed.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from . import ids

_TEMPLATE = re.compile(ids.PATTERN)


class TableButton(discord.ui.Button[Any]):
    """A button routed by its custom id (see `table_custom_id`), never by discord.py."""

    def __init__(self, custom_id: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None) -> None:
        super().__init__(custom_id=custom_id, label=label, style=style, disabled=disabled,
                         row=row)

    def is_dispatchable(self) -> bool:
        # discord.py stores and dispatches views holding dispatchable items; ours are
        # routed by custom id instead (cogs/tables.py), so nothing is kept per message.
        return False


def table_custom_id(interaction: discord.Interaction[Any]) -> str | None:
    """The custom id of a click on one of our buttons, or None for anything else."""
    if interaction.type is not discord.InteractionType.component:
        return None
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or _TEMPLATE.fullmatch(custom_id) is None:
        return None
    return custom_id


def button(custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, disabled: bool = False) -> TableButton:
    return TableButton(custom_id, label=label[:80], style=style, row=row, disabled=disabled)
