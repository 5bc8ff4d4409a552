"""Every game has every piece: a game is registered once (its name in GAMES and `GAME` in
`bot.games.<name>`) and each layer finds its piece by that name. A forgotten piece fails
here, not by a silent fallback at a table (CONTRIBUTING.md, "Adding a game")."""

from __future__ import annotations

import importlib
import inspect
import random
import re
from pathlib import Path

import pytest
from discord import AppCommandOptionType, app_commands

from bot.ai import make_player, player_kinds
from bot.games import GAMES, Game, GameView, InvalidOptions, create, game_class, games_with
from bot.games.events import DealEnded
from bot.games.requests import Requests
from bot.handrecord import HandRecord, NotBridge, replay_deal
from bot.ratings.figures import FigureCounter, counter_class, figure_names, match_figures
from bot.render.games import text_for
from bot.render.games.base import GameText
from bot.render.rules import help_text, rules_for
from bot.render.samples import finished_deal
from bot.render.seating import Seating
from bot.tables import TABLE_OPTIONS, TableSettings
from bot.tables.explain import call_notes
from bot.tables.model import PLAYING, SeatInfo, Table
from bot.verify import dealt_hands
from cogs.daily import Daily
from cogs.info import Info
from cogs.leaderboard import Leaderboard
from cogs.play import Play

DISCORD_DESCRIPTION_LIMIT = 100
CONTRIBUTING = Path(__file__).resolve().parents[1] / "CONTRIBUTING.md"


def _seating(game: Game[GameView]) -> Seating:
    n = game.SEATS
    return Seating(seat_names=tuple(game.SEAT_NAMES), names=("Ann", "Bob", "Cy", "Di")[:n],
                   user_ids=(None,) * n, bots=(True,) * n)


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
    about = text.about
    assert about.title and about.rules, "no /rules text"
    assert rules_for(name).startswith(f"**Rules: {about.title}**")
    assert 0 < len(about.summary) <= DISCORD_DESCRIPTION_LIMIT, "no /play description"
    counter = counter_class(name)
    assert issubclass(counter, FigureCounter) and counter.NAMES
    assert match_figures(name, {}, 1, []) == {}
    for _, made, tried in about.figure_ratios:
        assert {made, tried} <= set(figure_names(name))
    assert text.figure_lines({}), "/stats would show nothing of this game"
    assert callable(importlib.import_module(f"bot.render.pictures.games.{name}").DRAW)
    summary = finished_deal(name, 3)
    assert text.deal_hands(summary, _seating(game)), "the end of a deal would list no hand"


def _play_command(name: str) -> app_commands.Command[..., ..., None]:
    command = Play.play.get_command(name)
    assert isinstance(command, app_commands.Command), f"no /play {name}"
    return command


@pytest.mark.parametrize("name", GAMES)
def test_play_offers_the_engines_options_and_the_table_options(name: str) -> None:
    """`/play <name>` is built from the engine's OPTIONS (internal ones are left out) and
    TABLE_OPTIONS: same names, same types and bounds, all optional, descriptions within
    Discord's limit."""
    command = _play_command(name)
    specs = [spec for spec in game_class(name).OPTIONS if not spec.internal]
    specs += TABLE_OPTIONS
    parameters = {parameter.name: parameter for parameter in command.parameters}
    assert list(parameters) == [spec.name for spec in specs]
    for spec in specs:
        parameter = parameters[spec.name]
        assert not parameter.required
        assert 0 < len(parameter.description) <= DISCORD_DESCRIPTION_LIMIT
        if spec.kind is bool:
            assert parameter.type is AppCommandOptionType.boolean
        elif spec.kind is str:
            assert parameter.type is AppCommandOptionType.string
            assert [choice.value for choice in parameter.choices] == list(spec.choices)
        else:
            assert parameter.type is AppCommandOptionType.integer
            assert (parameter.min_value, parameter.max_value) == (spec.minimum, spec.maximum)
    assert command.description == text_for(name).about.summary


def test_the_slash_commands_offer_every_game() -> None:
    assert {command.name for command in Play.play.commands} == set(GAMES)
    for command in (Info.rules, Leaderboard.leaderboard):
        game = next(p for p in command.parameters if p.name == "game")
        assert [choice.value for choice in game.choices] == list(GAMES)
        assert [choice.name for choice in game.choices] == [game_class(g).TITLE for g in GAMES]
    help_line = help_text([spec.name for spec in TABLE_OPTIONS])
    assert all(f"`/play {name}`" in help_line for name in GAMES)
    assert all(f"`{spec.name}`" in help_line for spec in TABLE_OPTIONS)


def test_table_options_are_checked_and_read_back_with_defaults_for_bad_rows() -> None:
    defaults = {"turn_timeout": 30, "ping_after": 90}
    settings = TableSettings.chosen({"turn_timeout": 60, "thread": True, "pace": None},
                                    defaults)
    assert (settings.turn_timeout, settings.thread, settings.ping_after) == (60, True, 90)
    assert TableSettings.from_dict(settings.to_dict()) == settings
    slow = TableSettings.chosen({"pace": "slow", "turn_hours": 2}, defaults)
    assert (slow.pace, slow.turn_timeout, slow.ping_after) == ("slow", 7200, 3600)
    assert TableSettings.from_dict(slow.to_dict()) == slow  # more than /play's 3600 s
    for given, problem in (({"turn_timeout": 999_999}, "turn_timeout"),
                           ({"pace": "fast"}, "pace"), ({"speed": 1}, "Unknown option"),
                           ({"turn_hours": 3}, "add `pace: slow`"),
                           ({"pace": "slow", "turn_timeout": 5}, "turn_hours")):
        with pytest.raises(InvalidOptions, match=problem):
            TableSettings.chosen(given, defaults)
    # an old row (no option) or a corrupt one (a string, out of range) gets the default
    assert TableSettings.from_dict({}) == TableSettings()
    corrupt = {"turn_timeout": "soon", "thread": None, "pace": 3, "ping_after": -1}
    assert TableSettings.from_dict(corrupt) == TableSettings()


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="Unknown game 'poker'"):
        game_class("poker")
    with pytest.raises(ValueError, match="Unknown game 'poker'"):
        counter_class("poker")


# -- what each game declares it supports (the flags and fields of its engine class) ----------


def _play_to_first_deal_end(name: str, seed: int) -> Game[GameView]:
    game = create(name, seed=seed)
    rng = random.Random(seed)
    while game.view(None).previous_deal is None:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(list(game.legal(seat))))
    return game


@pytest.mark.parametrize("name", GAMES)
def test_hand_records_exist_exactly_for_the_games_that_declare_them(name: str) -> None:
    game = _play_to_first_deal_end(name, 5)
    if game_class(name).HAND_RECORDS:
        record = replay_deal(name, game.options, 5, game.history, 1)
        assert isinstance(record, HandRecord) and record.deal_no == 1
    else:
        with pytest.raises(NotBridge):
            replay_deal(name, game.options, 5, game.history, 1)


def _bot_table(name: str, calls: int) -> Table:
    """A table of computer players (the basic kind) after `calls` of their decisions."""
    game = create(name, seed=3)
    kind = player_kinds(name)[-1]
    players = [make_player(name, seat, kind) for seat in range(game.SEATS)]
    for _ in range(calls):
        seat = min(game.to_act())
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    return Table(id=1, game_name=name, options=dict(game.options), seed=3, guild_id=1,
                 channel_id=1, creator_id=1, settings=TableSettings(), game=game,
                 seats=[SeatInfo(f"Bot {seat}", bot_kind=kind) for seat in range(game.SEATS)],
                 status=PLAYING)


@pytest.mark.parametrize("name", GAMES)
def test_explained_bidding_is_shown_exactly_for_the_games_that_declare_it(name: str) -> None:
    notes = call_notes(_bot_table(name, 3))
    if game_class(name).EXPLAINED_BIDDING:
        assert len(notes) == 3 and any(notes), "the computer players' calls are unexplained"
    else:
        assert notes == ()


def _daily_command_names() -> set[str]:
    return {command.name for command in Daily.daily_group.commands} - {
        "results", "leaderboard", "channel"}


@pytest.mark.parametrize("name", GAMES)
def test_daily_deals_are_offered_exactly_for_the_games_that_declare_them(name: str) -> None:
    daily = game_class(name).DAILY
    assert (name in _daily_command_names()) == (daily is not None)
    if daily is None:
        return
    command = Daily.daily_group.get_command(name)
    assert command is not None and command.description == daily.description
    assert 0 < len(daily.description) <= DISCORD_DESCRIPTION_LIMIT
    game = create(name, options=daily.options, seed=2)  # the options are the engine's own
    rng = random.Random(2)
    deals = 0
    while not game.finished:
        seat = min(game.to_act())
        deals += sum(isinstance(event, DealEnded)
                     for event in game.apply(seat, rng.choice(list(game.legal(seat)))))
    assert deals == 4, "a day is 4 deals (bot.tables.daily.DEALS_PER_DAY)"


@pytest.mark.parametrize("name", games_with("CHALLENGE"))
@pytest.mark.parametrize("deals", [1, 3])
def test_a_challenge_match_is_exactly_its_number_of_deals(name: str, deals: int) -> None:
    challenge = game_class(name).CHALLENGE
    assert challenge is not None
    assert 0 <= challenge.seat < game_class(name).SEATS
    assert 1 <= challenge.default_deals <= challenge.max_deals
    length = next(s for s in game_class(name).OPTIONS if s.name == challenge.length_option)
    assert length.maximum is not None and length.maximum >= challenge.max_deals
    game = create(name, options={**challenge.options, challenge.length_option: deals},
                  seed=5)
    rng = random.Random(5)
    ended = 0
    while not game.finished:
        seat = min(game.to_act())
        ended += sum(isinstance(event, DealEnded)
                     for event in game.apply(seat, rng.choice(list(game.legal(seat)))))
    assert ended == deals


def test_daily_results_and_leaderboard_offer_the_daily_games() -> None:
    for command in (Daily.results, Daily.leaderboard):
        game = next(p for p in command.parameters if p.name == "game")
        assert [choice.value for choice in game.choices] == list(games_with("DAILY"))


@pytest.mark.parametrize("name", GAMES)
def test_verify_names_every_dealt_hand_as_the_engine_declares(name: str) -> None:
    cls = game_class(name)
    hands = dealt_hands(name, "ab" * 32, "client", 1)
    assert [label for label, _ in hands] == list(cls.DEALT_HANDS or cls.SEAT_NAMES)
    dealt = [card for _, cards in hands for card in cards]
    assert len(dealt) == len(set(dealt)) and dealt, "the hands share a card or are empty"


def _adding_a_game() -> str:
    text = CONTRIBUTING.read_text(encoding="utf-8")
    return text.split("\n## Adding a game\n", 1)[1].split("\n## ", 1)[0]


def _hooks(cls: type) -> set[str]:
    """What a class leaves to the game: its members whose body raises NotImplementedError."""
    out = set()
    for name, member in vars(cls).items():
        function = member.fget if isinstance(member, property) else member
        if callable(function) and "raise NotImplementedError" in inspect.getsource(function):
            out.add(name)
    return out


def test_contributing_names_what_a_new_game_declares_and_implements() -> None:
    """CONTRIBUTING's "Adding a game" names every class constant a game declares on
    `Game`, every method it must implement, and for claims and undo every hook `Requests`
    leaves to it and the methods of `Game` that `Requests` replaces (the way round
    `legal`)."""
    section = _adding_a_game()
    constants = {name for name, kind in Game.__annotations__.items() if "ClassVar" in str(kind)}
    assert {"NAME", "DAILY", "CHALLENGE"} <= constants
    implemented = set(Game.__abstractmethods__)
    hooks = _hooks(Requests)
    assert {"tricks_left", "_take_back", "claim_position"} <= hooks
    around_legal = {name for name in vars(Requests)
                    if name in vars(Game) and not name.startswith("__")} - hooks
    assert around_legal == {"_is_aside", "_do_aside"}
    missing = sorted(name for name in constants | implemented | hooks | around_legal
                     if not re.search(rf"`{re.escape(name)}(?!\w)", section))
    assert missing == []
