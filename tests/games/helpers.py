"""What the engine tests share."""

from __future__ import annotations

from dataclasses import fields

from bot.games import Event, Game


def actor(game: Game) -> int:
    """The one seat on turn (the tests that use this never have two)."""
    (seat,) = game.to_act()
    return seat


def payload(event: Event) -> dict[str, object]:
    """An event's own fields (all but its text and seat), to compare whole."""
    return {f.name: getattr(event, f.name) for f in fields(event)
            if f.name not in ("text", "seat")}
