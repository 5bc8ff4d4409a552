"""Refusals the commands share: the private answer (`refuse`, the router's: one for
clicks and commands alike) and the texts for an option outside its choices or range."""

from __future__ import annotations

from collections.abc import Collection

from bot.router import refuse

__all__ = ["out_of_range", "refuse", "unknown_choice"]


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
