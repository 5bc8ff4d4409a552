"""AdvancedSpadesPlayer: legal in whole matches, deterministic, within its budget, and
right in named positions."""

from __future__ import annotations

import itertools

from bot.ai import Budget, make_player, player_kinds
from bot.ai.spades.advanced import AdvancedSpadesPlayer
from bot.ai.spades.basic import SpadesPlayer
from bot.games import create
from bot.games.spades import Spades
from tests.ai.helpers import play_checking_legal, steady
from tests.games.spades_helpers import bid_round, stacked

# North's partner South bids nil holding a bare king of hearts; East leads a heart.
NIL_COVER = "N:543.A4.AKQJ.AKQJ AKQJ.QJT92.32.32 2.K.T987654.T987 T9876.87653..654"
# North, void in clubs, can ruff West's ace of clubs; North-South need their tricks.
RUFF = "N:543.AKQJT.AKQJT. AKQJ.9876.9876.2 2.5432.5432.6543 T9876...AKQJT987"


def small(seed: int = 0) -> AdvancedSpadesPlayer:
    return AdvancedSpadesPlayer(seed, playouts=24)


def test_the_advanced_player_is_the_default_and_basic_stays_reachable():
    assert player_kinds("spades")[:2] == ("spades-advanced", "spades-basic")
    assert make_player("spades", 3).kind == "spades-advanced"
    assert isinstance(make_player("spades", 3, kind="spades-basic"), SpadesPlayer)


def test_plays_over_a_nil_partner_who_had_to_play_a_high_card():
    game = stacked(NIL_COVER, dealer=0)  # East leads
    bid_round(game, {1: "4", 2: "nil", 3: "2", 0: "6"})
    game.apply(1, "play:2H")
    game.apply(2, "play:KH")  # South's only heart
    game.apply(3, "play:3H")
    assert small().choose(game.view(0), game.legal(0)) == "play:AH"


def test_does_not_duck_a_trick_the_side_needs():
    game = stacked(RUFF, dealer=2)  # West leads
    bid_round(game, {3: "3", 0: "6", 1: "3", 2: "1"})
    game.apply(3, "play:AC")
    action = small().choose(game.view(0), game.legal(0))
    assert action.endswith("S")  # ruff, rather than discard a red card


def test_same_seed_same_decision():
    game = create("spades", {}, 21)
    for seat in range(4):
        game.apply(seat, "look")
    while game.view(None).phase == "bidding":
        (seat,) = game.to_act()
        game.apply(seat, small(seat).choose(game.view(seat), game.legal(seat)))
    (seat,) = game.to_act()
    view, legal = game.view(seat), game.legal(seat)
    assert len({small(5).choose(view, legal) for _ in range(3)}) == 1


def test_a_spent_budget_falls_back_to_the_basic_player():
    ticks = itertools.count(0.0, 10.0)  # every reading of the clock is 10 s later
    game = stacked(RUFF, dealer=2)
    bid_round(game, {3: "3", 0: "6", 1: "3", 2: "1"})
    game.apply(3, "play:AC")
    view, legal = game.view(0), game.legal(0)
    spent = Budget(1.0, clock=lambda: next(ticks))
    assert small().choose(view, legal, spent) == SpadesPlayer(0).choose(view, legal)
    # A clock that never moves: all the time needed.
    assert small().choose(view, legal, steady(1.0)) == small().choose(view, legal)


def test_returns_a_legal_action_in_every_position_of_whole_matches():
    for seed, options in ((1, {"target": 150}), (2, {"target": 150, "bags_penalty": True})):
        game = create("spades", options, seed)
        assert isinstance(game, Spades)
        players = [AdvancedSpadesPlayer(seed * 4 + s, playouts=8) for s in range(4)]
        decisions = play_checking_legal(game, players, lambda g: g.deal_no > 4)
        assert decisions > 100
