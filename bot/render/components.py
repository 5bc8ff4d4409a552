"""The one kind of button every TrickTable message uses, resolved by its custom id.

All buttons carry a custom id `tt:<verb>:<subject>:...` (ids.py), so they keep working
after a restart and nothing is stored per message. The bot routes a click on one itself
(the click router, bot/router.py, from the Tables cog's `on_interaction` listener).
Choices are always buttons (a seat, a bid level), so no select menu is needed.

A button is plain data, laid out into Discord's component rows by `rows()`; discord.py's
View and Button objects are not built for every message rendered. Those hold reference
cycles (and a future each), and with dozens of buttons per render they had become most
of the bot's cyclic garbage: the collector's full passes then paused the event loop for
a tenth of a second and more under load. Only a message handed to discord.py itself (an
interaction's answer, a new post) gets a View, built at that moment (`as_view`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

ROW_WIDTH = 5  # buttons in one row, and rows in one message: Discord's limits
MAX_ROWS = 5


@dataclass(frozen=True, slots=True)
class TableButton:
    """A button routed by its custom id (bot/router.py), never by discord.py."""

    custom_id: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int | None = None  # None: the first row with room, after the placed ones
    emoji: dict[str, Any] | None = None  # Discord's partial emoji: {"id", "name"}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": 2, "style": self.style.value,
                                "disabled": self.disabled, "label": self.label,
                                "custom_id": self.custom_id}
        if self.emoji is not None:
            data["emoji"] = self.emoji
        return data


def rows(buttons: Sequence[TableButton]) -> list[dict[str, Any]]:
    """Discord's action rows for these buttons, laid out as discord.py lays out a View:
    a button with a row goes there, the others into the first row with room; within a
    row, buttons keep their order. Raises ValueError when they do not fit (a rendering
    bug, never a person's input)."""
    def wanted_row(index: int) -> int:
        row = buttons[index].row
        return MAX_ROWS if row is None else row  # the unplaced after the placed

    width = [0] * MAX_ROWS
    row_of: dict[int, int] = {}  # index in `buttons` -> its row
    placed_first = sorted(range(len(buttons)), key=wanted_row)
    for index in placed_first:
        wanted = buttons[index].row
        if wanted is None:
            row = next((r for r in range(MAX_ROWS) if width[r] < ROW_WIDTH), None)
        else:
            row = wanted if 0 <= wanted < MAX_ROWS and width[wanted] < ROW_WIDTH else None
        if row is None:
            raise ValueError(f"button {buttons[index].custom_id} does not fit (row {wanted})")
        width[row] += 1
        row_of[index] = row
    return [{"type": 1, "components": [b.to_dict() for i, b in enumerate(buttons)
                                       if row_of[i] == row]}
            for row in range(MAX_ROWS) if width[row]]


class _LaidOut(discord.ui.View):
    """Rows already laid out, handed to discord.py as a finished View: it then keeps
    nothing for it (no view-store entry, no timeout task); our buttons are routed by
    custom id."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


def as_view(buttons: Sequence[TableButton]) -> discord.ui.View:
    """A View showing these buttons, for discord.py calls that take one."""
    return _LaidOut(rows(buttons))


def button(custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, disabled: bool = False,
           emoji: dict[str, Any] | None = None) -> TableButton:
    return TableButton(custom_id, label[:80], style, disabled, row, emoji)
