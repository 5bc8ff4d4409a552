"""Every game has every piece: a game is registered once (its name in GAMES and `GAME` in
`bot.games.<name>`) and each layer finds its piece by that name. A forgotten piece fails
here, not by a silent fallback at a table (CONTRIBUTING.md, "Adding a game")."""

from __future__ import annotations

import typing

import pytest

from bot.ai import make_player, player_kinds
from bot.games import GAMES, Game, GameView, create, game_class
from bot.ratings.figures import FIGURE_NAMES, match_figures
from bot.render.games import text_for
from bot.render.games.base import GameText
from bot.render.leaderboard import FIGURE_LINES
from bot.render.rules import RULES
from cogs.info import GameName as RulesChoice
from cogs.leaderboard import GAME_NAMES
from cogs.leaderboard import GameName as LeaderboardChoice
from cogs.play import Play


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_an_engine_a_player_a_text_rules_and_figures(name: str) -> None:
    cls = game_class(name)
    assert issubclass(cls, Game) and name == cls.NAME
    game = create(name, seed=1)
    assert isinstance(game.view(None), GameView)
    assert player_kinds(name), "bot.ai.<name>.PLAYERS is empty"
    seat = min(game.to_act())
    assert make_player(name, 1).choose(game.view(seat), game.legal(seat)) in game.legal(seat)
    text = text_for(name)
    assert isinstance(text, GameText) and type(text) is not GameText, "no text of its own"
    title, rules = RULES[name]
    assert title and rules
    assert name in FIGURE_NAMES
    assert match_figures(name, {}, 1, []) == {}
    for _, made, tried in FIGURE_LINES.get(name, ()):
        assert {made, tried} <= set(FIGURE_NAMES[name])


def test_the_slash_commands_offer_every_game() -> None:
    assert set(typing.get_args(RulesChoice)) == set(GAMES)
    assert set(typing.get_args(LeaderboardChoice)) == set(GAMES)
    assert set(GAME_NAMES) == set(GAMES)
    play_commands = {command.name for command in Play.play.commands}
    assert play_commands == set(GAMES)


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="Unknown game 'poker'"):
        game_class("poker")
