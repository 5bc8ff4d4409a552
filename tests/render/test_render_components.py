"""Buttons are plain data laid out into Discord's rows exactly as discord.py lays out a
View; only a message handed to discord.py gets a View, a finished one it keeps nothing of."""

from __future__ import annotations

import discord
import pytest

from bot.render.components import TableButton, as_view, button, rows


def discord_py_rows(buttons: list[TableButton]) -> list[dict[str, object]]:
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(discord.ui.Button(custom_id=b.custom_id, label=b.label, style=b.style,
                                        disabled=b.disabled, row=b.row))
    return view.to_components()


LAYOUTS = [
    [button(f"tt:a:{n}", f"B{n}") for n in range(7)],  # no rows: five, then two
    [button("tt:a:1", "x", row=2), button("tt:a:2", "y"), button("tt:a:3", "z", row=0),
     button("tt:a:4", "w", discord.ButtonStyle.danger, disabled=True)],
    [button(f"tt:b:{n}", "c", row=n // 5) for n in range(25)],
    [button(f"tt:c:{n}", "d", row=4 - n % 3) for n in range(9)] + [button("tt:c:x", "e")],
]


@pytest.mark.parametrize("buttons", LAYOUTS)
async def test_rows_are_laid_out_as_discord_py_lays_out_a_view(buttons) -> None:
    assert rows(buttons) == discord_py_rows(buttons)


def test_buttons_that_do_not_fit_are_a_rendering_error() -> None:
    with pytest.raises(ValueError):
        rows([button(f"tt:a:{n}", "x", row=0) for n in range(6)])
    with pytest.raises(ValueError):
        rows([button(f"tt:a:{n}", "x") for n in range(26)])
    with pytest.raises(ValueError):
        rows([button("tt:a:1", "x", row=5)])


async def test_the_view_handed_to_discord_py_is_finished_and_shows_the_rows() -> None:
    buttons = LAYOUTS[1]
    view = as_view(buttons)
    # discord.py stores (and times out) only views that are not finished
    assert view.is_finished() and not view.is_dispatchable()
    assert view.to_components() == rows(buttons)


def test_a_label_is_cut_to_discords_80_characters() -> None:
    assert button("tt:a:1", "x" * 100).label == "x" * 80
