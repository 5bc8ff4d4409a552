"""The command tree Discord receives is the registry's: every game's `/play` with the
engine's options and the table options, typed and bounded as the specs say, and the `game`
choices of /rules and /leaderboard."""

from __future__ import annotations

from typing import Any

from bot.games import GAMES, game_class
from bot.tables import TABLE_OPTIONS
from tests.e2e.harness import running

SUBCOMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5


def _synced(h: Any, name: str) -> dict[str, Any]:
    state = h.driver.state
    commands = state.guild_commands.get(h.channel.guild_id) or state.global_commands
    found = [command for command in commands if command["name"] == name]
    assert found, f"/{name} was not synced"
    return found[0]


async def test_discord_receives_a_play_command_per_game_built_from_its_options(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        play = _synced(h, "play")
        subcommands = {option["name"]: option for option in play["options"]}
        assert set(subcommands) == set(GAMES)
        for name in GAMES:
            subcommand = subcommands[name]
            assert subcommand["type"] == SUBCOMMAND
            specs = [s for s in game_class(name).OPTIONS if not s.internal]
            specs += TABLE_OPTIONS
            options = {option["name"]: option for option in subcommand.get("options", [])}
            assert list(options) == [spec.name for spec in specs]
            for spec in specs:
                option = options[spec.name]
                assert not option.get("required", False)
                assert option["type"] == {bool: BOOLEAN, str: STRING}.get(spec.kind, INTEGER)
                if spec.kind is str:
                    assert [c["value"] for c in option["choices"]] == list(spec.choices)
                elif spec.kind is int:
                    assert (option["min_value"], option["max_value"]) == (spec.minimum,
                                                                          spec.maximum)
        for command in ("rules", "leaderboard"):
            game = next(o for o in _synced(h, command)["options"] if o["name"] == "game")
            assert [choice["value"] for choice in game["choices"]] == list(GAMES)


async def test_play_hands_the_given_options_to_the_table_and_defaults_the_rest(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "spades", target=300, turn_timeout=45)
        assert table.options == {"target": 300, "bags_penalty": False}
        assert (table.settings.turn_timeout, table.settings.thread) == (45, False)
        await h.slash(alice, "rules", game="single_dummy")
        assert "Single Dummy Bridge" in str(discord_double.ephemerals(alice)[-1].embeds)
