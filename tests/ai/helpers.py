"""Helpers for the computer players' tests."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.learning import play_training
from bot.ai.bridge.learning.bank import BankDeal
from bot.ai.bridge.learning.forest import Forest
from bot.ai.bridge.learning.trick_play import PlayKind
from bot.ai.bridge.learning.values import card_path
from bot.games import create
from bot.games.base import Game
from bot.games.bridge import ContractBridge
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card, parse_hand
from bot.tables.thinking import think_as_served


def play_checking_legal(game: Game, players: Sequence[Any],
                        stop: Callable[[Game], bool] = lambda game: False) -> int:
    """Let `players` (one per seat) play until the match ends or `stop(game)`, asserting
    each chose one of its legal actions; returns how many decisions they made."""
    decisions = 0
    while not game.finished and not stop(game):
        for seat in sorted(game.to_act()):
            if seat not in game.to_act():
                continue  # the match moved on (an action ended the phase)
            legal = game.legal(seat)
            action = players[seat].choose(game.view(seat), legal)
            assert action in legal
            game.apply(seat, action)
            decisions += 1
    return decisions


def bridge_play_position(seed: int = 11, cards_played: int = 0) -> Game:
    """A Contract Bridge game after the auction and at least `cards_played` cards (by basic
    players), where the seat to act has a choice."""
    game = create("bridge", seed=seed)
    basic = [make_player("bridge", s, "bridge-basic") for s in range(4)]
    while (game.phase == "bidding" or len(game.deal_record().play) < cards_played
           or len(game.legal(next(iter(game.to_act())))) < 2):
        seat = next(iter(game.to_act()))
        game.apply(seat, basic[seat].choose(game.view(seat), game.legal(seat)))
    return game


# North declares 4♥ (North 1♥, South 4♥) holding ♠A2 ♥AKQJ5 ♦K3 ♣A432; East ♠KQJ5 ♥73
# ♦A9842 ♣65, dummy (South) ♠9876 ♥T986 ♦QJ ♣KQ7, West ♠T43 ♥42 ♦T765 ♣JT98.
FOUR_HEARTS = tuple(tuple(parse_hand(text)) for text in (
    "A2.AKQJ5.K3.A432", "KQJ5.73.A9842.65", "9876.T986.QJ.KQ7", "T43.42.T765.JT98"))
FOUR_HEARTS_CALLS = ((0, "bid:1H"), (1, "pass"), (2, "bid:4H"), (3, "pass"), (0, "pass"),
                     (1, "pass"))


def four_hearts_played(*cards: str, hands: tuple[tuple[Card, ...], ...] = FOUR_HEARTS
                       ) -> ContractBridge:
    """`FOUR_HEARTS` (or other `hands`) on a duplicate board as the learning rows set a
    bank deal, bid to 4♥ by North and played on with `cards` (East leads)."""
    game = play_training.board_game(BankDeal(0, hands, 0, (False, False),
                                             ((0,) * 4,) * 5))
    for seat, call in FOUR_HEARTS_CALLS:
        game.apply(seat, call)
    for card in cards:
        seat = next(iter(game.to_act()))
        game.apply(seat, "play:" + card)
    return game


def train_tiny_play(trainer: ModuleType, folder: Path, first: int, deals: int
                    ) -> tuple[Path, Path, dict[str, Any]]:
    """`train_tiny` for a learned kind of card of the play (`defence_training`,
    `declaring_training`), its card players at no budget (the rule-based card)."""
    pytest.importorskip("lightgbm")
    patch = pytest.MonkeyPatch()
    patch.setattr(play_training, "THINK", 0.0)
    try:
        return train_tiny(trainer, folder, first, deals)
    finally:
        patch.undo()


def steady(seconds: float) -> Budget:
    """A budget whose clock stands still: only the planned work (the solver's counted
    work) spends it, so two searches given it decide alike however loaded the machine
    is."""
    return Budget(seconds, clock=lambda: 0.0)


def served_by_model(kind: PlayKind, model: Path, view: BridgeView, legal: Sequence[str]
                    ) -> str:
    """The card a player given `kind`'s model at `model` plays as served, asked twice:
    checked to be the model's choice reading the search the player made, both times the
    same."""
    reader = kind.model(model)
    assert reader is not None
    actions = set()
    for _ in range(2):
        player = make_player("bridge", 5, "bridge-advanced")
        assert isinstance(player, AdvancedBridgePlayer)
        setattr(player, kind.attribute, model)
        action, back = think_as_served(player, view, legal, steady(0.3))
        assert isinstance(back, AdvancedBridgePlayer) and back.last_outcome is not None
        chosen = reader.choose(view, [Card.parse(t[5:]) for t in legal], back.last_outcome)
        assert chosen is not None and action == "play:" + chosen.text
        actions.add(action)
    assert len(actions) == 1
    return actions.pop()


def broken_model_says_once(kind: PlayKind, broken: Path, view: BridgeView,
                           legal: Sequence[str], caplog: pytest.LogCaptureFixture) -> str:
    """What the log says of `kind`'s `broken` model file, checked to be one line however
    often a player given it plays (the search's card, as a player given none)."""
    searching = make_player("bridge", 5, "bridge-advanced")
    setattr(searching, kind.attribute, None)
    logger = kind.shelf.log.name
    with caplog.at_level(logging.ERROR, logger=logger):
        for _ in range(2):
            player = make_player("bridge", 5, "bridge-advanced")
            setattr(player, kind.attribute, broken)
            assert player.choose(view, legal, steady(0.3)) == searching.choose(
                view, legal, steady(0.3))
    lines = [r.getMessage() for r in caplog.records if r.name == logger]
    assert len(lines) == 1
    return lines[0]


def train_tiny(trainer: ModuleType, folder: Path, first: int, deals: int
               ) -> tuple[Path, Path, dict[str, Any]]:
    """A learned model's training on a few bank deals, as CI keeps the training code
    working: `trainer`'s `make` (`reading_training` or `leads_training`) on `deals` bank
    deals from `first`, then a forest of 5 trees on those rows; the model, its rows and
    its card."""
    rows = folder / "rows.npz"
    assert trainer.main(["make", "--first", str(first), "--deals", str(deals),
                         "--out", str(rows)]) == 0
    out = folder / "tiny.npz"
    card: dict[str, Any] = trainer.train([rows], out, trees=5, leaves=4, held_out=5,
                                         command="test", threads=1)
    return out, rows, card


# How a model file can be broken; "bad arrays" is a whole file whose trees point outside
# the forest.
DAMAGES = ("missing", "truncated", "foreign card", "bad arrays")


def broken_copy(model: Path, at: Path, damage: str) -> Path:
    """A copy of `model` and its card at `at`, broken as `damage` (one of DAMAGES) says."""
    shutil.copy(model, at)
    shutil.copy(card_path(model), card_path(at))
    if damage == "truncated":
        at.write_bytes(at.read_bytes()[:200])
    elif damage == "missing":
        at.unlink()
    elif damage == "foreign card":
        card_path(at).write_text('{"features": ["hcp"], "inputs": ["hcp"], "margin": 1}')
    else:
        forest = Forest.load(model)
        Forest(forest.feature, forest.threshold, forest.left + 10**6, forest.right,
               forest.value, forest.roots, forest.depth, forest.features).save(at)
    return at


def searched_with_and_without(flag: str, view: BridgeView, legal: Sequence[str],
                              seed: int = 9) -> dict[bool, set[tuple[str, Any]]]:
    """For `flag` of `AdvancedBridgePlayer` on and off, the distinct (card, each card's
    average tricks) of two searches as served by fresh players of one seed."""
    outcomes: dict[bool, set[tuple[str, Any]]] = {}
    for on in (True, False):
        for _ in range(2):
            player = make_player("bridge", seed, "bridge-advanced")
            assert isinstance(player, AdvancedBridgePlayer)
            setattr(player, flag, on)
            action, back = think_as_served(player, view, legal, Budget(5.0))
            assert isinstance(back, AdvancedBridgePlayer) and back.last_outcome is not None
            outcomes.setdefault(on, set()).add(
                (action, tuple(sorted(back.last_outcome.tricks.items()))))
    return outcomes


def searched_once_with(flag: str, on: object, view: BridgeView, legal: Sequence[str],
                       seed: int = 5) -> None:
    """A fresh `AdvancedBridgePlayer` with `flag` set to `on` chooses a legal card at
    `view` by searching layouts."""
    player = make_player("bridge", seed, "bridge-advanced")
    assert isinstance(player, AdvancedBridgePlayer)
    setattr(player, flag, on)
    assert player.choose(view, legal, Budget(5.0)) in legal
    assert player.last_layouts > 0


def weighs_asked(monkeypatch: pytest.MonkeyPatch, weigh: str, flag: str, on: object,
                 view: BridgeView, legal: Sequence[str]) -> list[tuple[Any, ...]]:
    """What a fresh `AdvancedBridgePlayer` with `flag` set to `on` asks of the player's
    `weigh` (a function of `bot.ai.bridge.advanced`, spied and passed on) when it searches
    a card at `view`: the arguments of each call."""
    from bot.ai.bridge import advanced

    asked: list[tuple[Any, ...]] = []
    real = getattr(advanced, weigh)

    def spy(*args: Any) -> Any:
        asked.append(args)
        return real(*args)

    monkeypatch.setattr(advanced, weigh, spy)
    searched_once_with(flag, on, view, legal)
    return asked
