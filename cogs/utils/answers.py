"""Answering an interaction with a private refusal, whether or not it was answered yet."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord


async def refuse(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def unknown_choice(option: str, value: object, choices: Collection[str]) -> str | None:
    """The refusal for a command option outside its choices (Discord's client checks them,
    but a stale command list lets old values through), or None when it is one of them."""
    if value in choices:
        return None
    return (f"`{value}` is not a valid {option}; choose one of "
            + ", ".join(f"`{c}`" for c in choices) + ".")


def out_of_range(option: str, value: int, low: int, high: int) -> str | None:
    """The refusal for a number outside [low, high], or None when it is inside."""
    if low <= value <= high:
        return None
    return f"`{option}` must be between {low} and {high} (it was {value})."
