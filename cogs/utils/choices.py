"""The `game` choices of slash commands, from the registry: a new game is offered by
/rules and /leaderboard without an edit here."""

from __future__ import annotations

from discord import app_commands

from bot.games import GAMES, game_class


def game_choices() -> list[app_commands.Choice[str]]:
    """Each game of `GAMES` by its title ("Contract Bridge"), its name as the value."""
    return [app_commands.Choice(name=game_class(name).TITLE, value=name) for name in GAMES]
