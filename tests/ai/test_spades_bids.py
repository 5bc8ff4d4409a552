"""Spades: sampled layouts honour the bids, and double nil only where it pays."""

from __future__ import annotations

import dataclasses
import random

from bot.ai import Budget
from bot.ai.spades.advanced import AdvancedSpadesPlayer
from bot.ai.spades.bid_search import double_nil_pays
from bot.ai.spades.search import TOP_SPADES, bid_misfit, read_knowledge, sample_hands
from bot.games import create
from bot.games.cards import cards
from bot.games.spades import Spades
from tests.games.spades_helpers import bid_round


def _spades_after_bids(seed: int, bids: dict[int, str]) -> Spades:
    game = create("spades", {}, seed)
    assert isinstance(game, Spades)
    bid_round(game, bids)
    return game


def test_a_nil_bidder_is_dealt_no_top_spade_and_numbers_fit_the_bids() -> None:
    rng = random.Random(2)
    nil_holds_top = fits = blind_fits = total = 0
    for seed in range(6):
        game = _spades_after_bids(seed, {0: "3", 1: "nil", 2: "4", 3: "6"})
        if any(c.text in ("AS", "KS") for c in game.view(0).hand):
            continue  # we hold a top spade ourselves: nothing to learn about it
        know = read_knowledge(game.view(0))
        blind = dataclasses.replace(know, bids=(None, None, None, None))
        for _ in range(30):
            hands = sample_hands(know, rng)
            nil_holds_top += bool(hands[1] & TOP_SPADES)
            fits += all(bid_misfit(hands[s], know.bids[s]) == 0 for s in (1, 2, 3))
            hands = sample_hands(blind, rng)
            blind_fits += all(bid_misfit(hands[s], know.bids[s]) == 0 for s in (1, 2, 3))
            total += 1
    # Unconstrained, a seat holds the ace or king of spades in about 45% of layouts.
    assert total >= 60 and nil_holds_top == 0
    assert fits >= 1.5 * blind_fits + 0.1 * total


def test_a_double_nil_says_nothing_and_an_unknown_bid_constrains_nothing() -> None:
    hand = sum(1 << c.index for c in cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"))
    assert bid_misfit(hand, -1) == 0 and bid_misfit(hand, None) == 0
    assert bid_misfit(hand, 0) > 0 and bid_misfit(hand, 1) > 0
    assert bid_misfit(hand, 13) == 0


def test_double_nil_is_not_bid_blind_at_the_start_of_a_match() -> None:
    game = create("spades", {}, 3)
    seat = game.view(None).turn
    assert seat is not None and "bid:double_nil" in game.legal(seat)
    view = game.view(seat)
    assert double_nil_pays(view, random.Random(1)) is False
    assert AdvancedSpadesPlayer(1).choose(view, game.legal(seat)) == "look"
    ticks = iter(range(100))
    assert double_nil_pays(view, random.Random(1),
                           Budget(0.5, clock=lambda: float(next(ticks)))) is None
