"""Tennis bids chosen by playing sampled layouts out."""

from __future__ import annotations

import dataclasses
import random

from bot.ai.tennis.advanced import AdvancedTennisPlayer
from bot.ai.tennis.bid_search import bid_candidates, choose_bid_by_simulation
from bot.games import create
from bot.games.cards import FULL_DECK, Card, cards
from bot.games.tennis import Tennis
from bot.games.tennis_rules import bid_value


def _tennis_at_bid(seed: int) -> Tennis:
    game = create("tennis", {}, seed)
    assert isinstance(game, Tennis)
    return game


def test_tennis_bid_candidates_are_one_card_per_value_near_the_estimate() -> None:
    game = _tennis_at_bid(4)
    view = game.view(0)
    candidates = bid_candidates(list(view.hand), view.trump)
    values = [bid_value(c) for c in candidates]
    assert len(values) == len(set(values)) >= 2
    assert set(candidates) <= set(view.hand)


def test_tennis_bids_come_from_simulation_for_both_hands() -> None:
    for seed in range(3):
        game = _tennis_at_bid(seed)
        players = [AdvancedTennisPlayer(1), AdvancedTennisPlayer(2)]
        for _ in range(2):  # the Backhand bids, then the Forehand bids
            for seat in sorted(game.to_act()):
                view = game.view(seat)
                legal = game.legal(seat)
                action = players[seat].choose(view, legal)
                assert action in legal
                rng = random.Random(f"{players[seat].seed}:{view.deal_no}:{seat}:"
                                    f"{view.bidding}")
                backhand = sorted(players[seat]._seen["Backhand"]) \
                    if view.bidding == "Forehand" else None
                assert action == choose_bid_by_simulation(view, backhand, rng)
                game.apply(seat, action)
        assert game.view(0).phase == "play"


def test_a_hand_of_top_trumps_bids_high_and_a_hand_of_low_cards_bids_low() -> None:
    game = _tennis_at_bid(0)
    view = game.view(0)
    trump = view.trump
    strong = [c for c in FULL_DECK if trump is None or c.suit == trump][-13:]
    weak = cards("2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S KC")
    rng = random.Random(0)
    high = choose_bid_by_simulation(dataclasses.replace(view, hand=tuple(strong)), None, rng)
    low = choose_bid_by_simulation(dataclasses.replace(view, hand=tuple(weak)), None, rng)
    assert high is not None and low is not None
    assert bid_value(Card.parse(high[4:])) >= 6
    assert bid_value(Card.parse(low[4:])) <= 2
