"""bidfair-advanced: the default Bid Fair player, deciding by sampling and search."""

from __future__ import annotations

from bot.ai import Budget, RandomPlayer, make_player, player_kinds
from bot.ai.bidfair.advanced import AdvancedBidFairPlayer
from bot.ai.bidfair.basic import BidFairPlayer
from bot.games import create
from bot.games.cards import cards
from tests.ai.helpers import play_checking_legal
from tests.games.bidfair_helpers import NORTH, SOUTH, build_crib, game_with, run


def test_the_advanced_player_is_the_default_and_basic_stays_reachable() -> None:
    assert player_kinds("bidfair")[:2] == ("bidfair-advanced", "bidfair-basic")
    assert isinstance(make_player("bidfair", 1), AdvancedBidFairPlayer)
    assert isinstance(make_player("bidfair", 1, "bidfair-basic"), BidFairPlayer)


NORTH_KQJT = "KS QS JS TS KD QD JD TD KC QC JC TC"
SOUTH_HEARTS = "KH QH JH TH AS 9S AD 9D AC 9C 9H AH"


def test_takes_the_exchange_when_the_crib_is_clearly_better() -> None:
    g = game_with(NORTH_KQJT, SOUTH_HEARTS, dealer=NORTH, cut="TH")
    # South puts its top hearts in the crib, and the cut makes hearts trump: the crib
    # now holds 3 high trumps and North's tens and jacks (70 points); South's hand is
    # aces and nines (31 points) that North's kings and queens beat.
    build_crib(g, "TS TD TC JC", "KH QH JH TH")
    run(g, [(SOUTH, "up:9S"), (NORTH, "up:KS")])
    assert g.holder == SOUTH and g.trump is not None and g.trump.letter == "H"
    assert AdvancedBidFairPlayer(0).choose(g.view(SOUTH), g.legal(SOUTH)) == "exchange"


def test_keeps_the_hand_when_the_crib_is_worse() -> None:
    g = game_with(NORTH_KQJT, SOUTH_HEARTS, dealer=NORTH, cut="9H")
    # The same cards, but South keeps its five top hearts (trump) and cribs its junk.
    build_crib(g, "TS TD TC JC", "9H AS 9S AD")
    run(g, [(SOUTH, "up:9D"), (NORTH, "up:KS")])
    assert g.holder == SOUTH
    assert AdvancedBidFairPlayer(0).choose(g.view(SOUTH), g.legal(SOUTH)) == "keep"


def test_the_crib_is_built_from_the_least_useful_cards() -> None:
    g = game_with(NORTH_KQJT, SOUTH_HEARTS)
    player = AdvancedBidFairPlayer(0)
    for _ in range(4):
        g.apply(SOUTH, player.choose(g.view(SOUTH), g.legal(SOUTH)))
    # The plans weighed are made of the 6 least useful cards: the aces and nines.
    assert len(g.cribs[SOUTH]) == 4
    assert set(g.cribs[SOUTH]) <= set(cards("AS 9S AD 9D AC 9C 9H AH"))


def test_same_seed_same_decision_and_a_spent_budget_falls_back() -> None:
    g = create("bidfair", seed=4)
    while g.phase != "play":
        seat = min(g.to_act())
        g.apply(seat, BidFairPlayer(seat).choose(g.view(seat), g.legal(seat)))
    seat = min(g.to_act())
    view, legal = g.view(seat), g.legal(seat)
    assert AdvancedBidFairPlayer(3).choose(view, legal) == \
        AdvancedBidFairPlayer(3).choose(view, legal)
    ticks = iter(range(100))
    spent = Budget(0.5, clock=lambda: float(next(ticks)))
    assert AdvancedBidFairPlayer(3).choose(view, legal, spent) == \
        BidFairPlayer(3).choose(view, legal)


def test_returns_a_legal_action_in_every_position_of_whole_matches() -> None:
    for seed in range(3):
        g = create("bidfair", {"target": 300}, seed=seed)
        opponent = RandomPlayer(seed) if seed % 2 else BidFairPlayer(seed)
        players = [AdvancedBidFairPlayer(seed), opponent]
        if seed == 2:
            players = [AdvancedBidFairPlayer(seed), AdvancedBidFairPlayer(seed + 1)]
        assert play_checking_legal(g, players) > 20
        assert g.result() is not None
