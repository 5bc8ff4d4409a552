"""The Bid Fair computer player: legal, sensible, and better than random."""

from __future__ import annotations

from bot.ai import RandomPlayer, make_player
from bot.ai.bidfair.basic import BidFairPlayer
from bot.games import create
from bot.games.bidfair import BidFair
from bot.games.cards import cards
from tests.games.bidfair_helpers import (
    A_NORTH,
    A_SOUTH,
    NORTH,
    SOUTH,
    build_crib,
    deal_b,
    game_with,
    run,
)


def test_the_registry_makes_the_bidfair_player() -> None:
    player = make_player("bidfair", 3, "bidfair-basic")
    assert isinstance(player, BidFairPlayer) and player.kind == "bidfair-basic"


def _match(seed: int, players: dict[int, object]) -> BidFair:
    g = create("bidfair", seed=seed)
    assert isinstance(g, BidFair)
    while not g.finished:
        seat = min(g.to_act())
        legal = g.legal(seat)
        action = players[seat].choose(g.view(seat), legal)  # type: ignore[attr-defined]
        assert action in legal
        g.apply(seat, action)
    return g


def test_bidfair_player_outscores_random_player() -> None:
    wins, margin = 0, 0
    for seed in range(6):
        smart = seed % 2
        g = _match(seed, {smart: BidFairPlayer(seed), 1 - smart: RandomPlayer(seed)})
        result = g.result()
        assert result is not None
        wins += result.winner == smart
        margin += result.totals[smart] - result.totals[1 - smart]
    assert wins >= 5 and margin > 0


def test_two_bidfair_players_finish_a_match() -> None:
    g = _match(11, {NORTH: BidFairPlayer(1), SOUTH: BidFairPlayer(2)})
    assert g.result() is not None


def test_crib_gets_the_least_useful_cards() -> None:
    hand = cards("9H TH AH JH QH KS QS KD QD KC QC AC")
    assert set(BidFairPlayer.crib_plan(hand)) == set(cards("AH AC 9H TH"))


def test_player_builds_the_crib_one_planned_card_at_a_time() -> None:
    g = game_with(A_NORTH, A_SOUTH)
    player = BidFairPlayer(0)
    for _ in range(4):
        g.apply(NORTH, player.choose(g.view(NORTH), g.legal(NORTH)))
    assert set(g.cribs[NORTH]) == set(BidFairPlayer.crib_plan(cards(A_NORTH)))


def test_player_wins_with_an_ace_played_second_when_nothing_else_wins() -> None:
    g = deal_b(cut="9C")
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep"), (NORTH, "play:JH")])
    # The jack is the high rank: only the ace, played second, beats it.
    assert BidFairPlayer(0).choose(g.view(SOUTH), g.legal(SOUTH)) == "play:AH"


def test_player_wins_a_led_ace_with_its_cheapest_card() -> None:
    g = deal_b(cut="9C")
    run(g, [(SOUTH, "up:JD"), (NORTH, "down:9H"), (NORTH, "keep"), (NORTH, "play:AS")])
    # Every spade beats an ace led; the nine costs least.
    assert BidFairPlayer(0).choose(g.view(SOUTH), g.legal(SOUTH)) == "play:9S"


def test_player_throws_an_ace_when_it_cannot_win() -> None:
    g = game_with(A_NORTH, A_SOUTH, dealer=NORTH, cut="9D")
    build_crib(g, "9S TS 9H TH", "9D TD 9C TC")
    run(g, [(SOUTH, "down:JD"), (NORTH, "down:KS"), (SOUTH, "play:KD")])
    # No diamond and no trump in North's hand: give away a 1-point ace, not a picture.
    assert BidFairPlayer(0).choose(g.view(NORTH), g.legal(NORTH)) in ("play:AS", "play:AH")


def test_holder_exchanges_when_the_crib_is_better() -> None:
    g = game_with(A_NORTH, A_SOUTH, dealer=NORTH, cut="KS")
    build_crib(g, "KS QS KH QH", "KD QD KC QC")  # South knows its kings and queens are there
    run(g, [(SOUTH, "up:9D"), (NORTH, "up:AS")])
    assert g.holder == SOUTH
    assert BidFairPlayer(0).choose(g.view(SOUTH), g.legal(SOUTH)) == "exchange"


def test_holder_keeps_when_the_crib_is_worse() -> None:
    g = game_with(A_NORTH, A_SOUTH, dealer=NORTH, cut="9S")
    build_crib(g, "9S TS 9H TH", "9D TD 9C TC")
    run(g, [(SOUTH, "up:QD"), (NORTH, "up:KS")])
    assert BidFairPlayer(0).choose(g.view(SOUTH), g.legal(SOUTH)) == "keep"


def test_player_decides_the_same_from_the_same_view() -> None:
    g = create("bidfair", seed=5)
    seat = min(g.to_act())
    view, legal = g.view(seat), g.legal(seat)
    assert BidFairPlayer(1).choose(view, legal) == BidFairPlayer(2).choose(view, legal)
