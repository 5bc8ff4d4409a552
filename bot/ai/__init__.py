"""Computer players. A player gets a seat's view and its legal actions, and returns one action.

A player never sees more than its seat's view: the table passes `game.view(seat)` and
`game.legal(seat)`, nothing else. Players are found by the game's name: the package
`bot.ai.<game>` lists its players in `PLAYERS` (kind name -> constructor taking a seed), the
strongest first; that first one is the default the tables use. A kind's name is stable:
ratings use it, and weaker kinds stay reachable by name (`make_player(game, seed,
kind="spades-basic")`) as fallbacks, benchmark baselines and a table's chosen level.

`choose` is synchronous and may be slow: the tables call it in a worker process (or
thread), off the event loop, with a `Budget` that says how long it may think. A player is
pickled to the worker and back with its choice, so its state must pickle (plain data).

What several games' players share is in `bot.ai.core`: the budget, the double-dummy
solver and the bridge games' card search over it, hands as bit masks, the search
position's protocol and the sampling evaluator of Spades, Tennis and Bid Fair.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .core.budget import Budget

PlayerFactory = Callable[[int], "Player"]


class Player(Protocol):
    """A computer player for one seat."""

    kind: str

    def choose(self, view: Any, legal: Sequence[str], budget: Budget | None = None) -> str:
        """One of `legal`, chosen from what `view` shows, within `budget` when one is given."""
        ...


@runtime_checkable
class SeatedWith(Protocol):
    """A computer player that the table tells, before each decision, which seats hold
    computer players of its own kind: they share its conventions (count signals), which
    people may not."""

    def seated_with(self, same_kind: frozenset[int]) -> None: ...


class RandomPlayer:
    """Picks uniformly among the legal actions (tests and benchmarks)."""

    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[str], budget: Budget | None = None) -> str:
        return self.rng.choice(list(legal))


class UnknownPlayer(LookupError):
    """A game or kind of computer player that does not exist. The message is for a person."""


def players(game: str) -> Mapping[str, PlayerFactory]:
    """A game's computer players by kind name, the strongest (the default) first."""
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        raise UnknownPlayer(f"There are no computer players for {game!r}.") from None
    table: Mapping[str, PlayerFactory] = module.PLAYERS
    return table


def prepare_players(game: str) -> None:
    """Import a game's players and load what they read from files, once per process (a
    worker process does this at its start): a package may name that work `prepare()`."""
    players(game)
    prepare: Callable[[], object] | None = getattr(
        importlib.import_module(f"{__name__}.{game}"), "prepare", None)
    if prepare is not None:
        prepare()


def player_kinds(game: str) -> tuple[str, ...]:
    """The kind names of a game's computer players, the default first."""
    return tuple(players(game))


def player_factory(game: str, kind: str | None = None) -> PlayerFactory:
    """The constructor of one kind of a game's players (default: the strongest)."""
    table = players(game)
    if kind is None:
        return next(iter(table.values()))
    try:
        return table[kind]
    except KeyError:
        raise UnknownPlayer(
            f"No computer player {kind!r} for {game}; the kinds are: "
            f"{', '.join(table)}.") from None


def level_label(kind: str) -> str:
    """How people read a kind's level: `spades-advanced` -> `Advanced`. A kind's name ends
    with its level after the last hyphen (`<game>-<level>`)."""
    return kind.rsplit("-", 1)[-1].replace("_", " ").capitalize()


def bot_name(kind: str) -> str:
    """The one name a computer player goes by everywhere: `Advanced bot`."""
    return f"{level_label(kind)} bot"


def make_player(game: str, seed: int = 0, kind: str | None = None) -> Player:
    """A new computer player of `game` (default: its strongest kind)."""
    return player_factory(game, kind)(seed)


__all__ = ["Budget", "Player", "RandomPlayer", "UnknownPlayer", "bot_name", "level_label",
           "make_player", "player_factory", "player_kinds", "players", "prepare_players"]
