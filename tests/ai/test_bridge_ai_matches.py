"""The bridge computer players end to end: whole matches of both games, and declarer play
that beats random play over seeded deals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ai import Player, RandomPlayer, make_player
from bot.ai.bridge.basic import BridgePlayer
from bot.ai.single_dummy.basic import SingleDummyPlayer
from bot.games import Game, create


def run_match(game: Game, players: Sequence[Player]) -> int:
    """Play to the end; returns the number of actions. Every choice must be legal."""
    actions = 0
    while not game.finished:
        (seat,) = game.to_act()
        legal = game.legal(seat)
        action = players[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(seat, action)
        actions += 1
        assert actions < 100_000
    return actions


def test_registry_gives_the_bridge_players() -> None:
    # The searching players are the defaults; the rule-based ones stay reachable by kind.
    assert make_player("bridge", 1).kind == "bridge-advanced"
    assert make_player("single_dummy", 1).kind == "single-dummy-advanced"
    assert make_player("bridge", 1, "bridge-basic").kind == BridgePlayer.kind == "bridge-basic"
    assert make_player("single_dummy", 1, "single-dummy-basic").kind == "single-dummy-basic"


@pytest.mark.parametrize("seed", [1, 2])
def test_bridge_players_finish_a_whole_rubber(seed: int) -> None:
    game = create("bridge", seed=seed)
    run_match(game, [BridgePlayer(seed * 4 + i) for i in range(4)])
    result = game.result()
    assert result is not None and sum(result.totals) > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_single_dummy_players_finish_a_whole_match(seed: int) -> None:
    game = create("single_dummy", seed=seed)
    run_match(game, [SingleDummyPlayer(seed * 2 + i) for i in range(2)])
    result = game.result()
    assert result is not None and max(result.totals) >= 500


@given(seed=st.integers(0, 10**6), bots=st.lists(st.booleans(), min_size=4, max_size=4))
@pytest.mark.parametrize(("game_name", "player"), [("bridge", BridgePlayer),
                                                    ("single_dummy", SingleDummyPlayer)])
def test_bots_choose_legal_actions_against_random_players(
        game_name: str, player: Callable[[int], Player], seed: int, bots: list[bool]) -> None:
    """Random opponents and partners make odd auctions; the bots must cope with them."""
    game = create(game_name, seed=seed)
    players = [player(seed + i) if bots[i] else RandomPlayer(seed + i)
               for i in range(game.SEATS)]
    while not game.finished and game.deal_no <= 2:
        (seat,) = game.to_act()
        legal = game.legal(seat)
        action = players[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(seat, action)


def declarer_tricks(game_name: str, seed: int, bidder: Callable[[int], Player],
                    declarer_side: Callable[[int], Player],
                    defenders: Callable[[int], Player]) -> int | None:
    """Bid the first deal with `bidder` players, then play it with `declarer_side` players
    for declarer (and dummy) against `defenders`; declarer's side's tricks (None if the
    deal was thrown in)."""
    game = create(game_name, seed=seed)
    seats = game.SEATS
    bidders = [bidder(seed * 10 + i) for i in range(seats)]
    while game.view(0).contract is None and game.deal_no == 1:
        (seat,) = game.to_act()
        game.apply(seat, bidders[seat].choose(game.view(seat), game.legal(seat)))
    view: Any = game.view(0)
    if game.deal_no != 1 or view.contract is None:
        return None
    declarer = view.contract.declarer
    players = [declarer_side(seed * 10 + 5 + i) if game.side_of(i) == game.side_of(declarer)
               else defenders(seed * 10 + 5 + i) for i in range(seats)]
    while game.deal_no == 1 and not game.finished:
        (seat,) = game.to_act()
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    summary: Any = game.view(None).previous_deal
    tricks = summary.tricks_won if game_name == "bridge" else summary.tricks
    return int(tricks[game.side_of(declarer)])


@pytest.mark.parametrize(("game_name", "player"), [("bridge", BridgePlayer),
                                                    ("single_dummy", SingleDummyPlayer)])
def test_bot_declarers_take_more_tricks_than_random_declarers(
        game_name: str, player: Callable[[int], Player]) -> None:
    bot_total = random_total = deals = 0
    for seed in range(12):
        bot = declarer_tricks(game_name, seed, player, player, player)
        rnd = declarer_tricks(game_name, seed, player, RandomPlayer, player)
        if bot is None or rnd is None:
            continue
        bot_total += bot
        random_total += rnd
        deals += 1
    assert deals >= 6
    assert bot_total > random_total
