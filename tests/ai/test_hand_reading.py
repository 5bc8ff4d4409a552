"""The learned hand reading: its features and targets worked out by hand, a hand's weight,
training on a few deals, a saved model loading to the same values, the shipped model,
a broken model leaving the layouts as they were with one log line, and layouts weighed
by a reading keeping the rules of the cards."""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import random
from pathlib import Path

import numpy as np
import pytest

from bot.ai.bridge.bidding.rules import Hand
from bot.ai.bridge.bidding.simulation import deal_layouts
from bot.ai.bridge.bidding.system import context_of
from bot.ai.bridge.learning import bank, reading, reading_training
from bot.ai.bridge.learning.values import card_path
from bot.ai.core import layouts as layouts_module
from bot.ai.core.hand_range import HandRange
from bot.ai.core.layouts import Knowledge, sample
from bot.games.bridge_auction import CALL_BY_TEXT
from bot.games.cards import FULL_DECK, Suit, parse_hand
from tests.ai.helpers import DAMAGES, broken_copy, train_tiny


def _calls(*texts: tuple[int, str]):
    return [(seat, CALL_BY_TEXT[text]) for seat, text in texts]


def test_what_an_observer_knows_worked_out_by_hand():
    # North opens 1♥, East passes, South raises to 2♥; West holds ♠K43 ♥Q987 ♦A62 ♣854.
    calls = _calls((0, "bid:1H"), (1, "pass"), (2, "bid:2H"))
    facts = Hand.of(parse_hand("K43.Q987.A62.854"))
    row = dict(zip(reading.INPUTS, reading.observed(facts, context_of(3, calls), (True, False)),
                   strict=True))
    assert (row["hcp"], row["len_s"], row["len_h"], row["len_d"], row["len_c"]) == (
        9, 3, 4, 3, 3)
    # West is fourth after the dealer; its side (East-West) is not vulnerable.
    assert (row["calls"], row["position"], row["vul_us"], row["vul_them"]) == (3, 3, 0, 1)
    # From West's side: North (its LHO) opened 1♥, five of them; South (RHO) raised.
    assert (row["lho_min_h"], row["rho_min_h"], row["last_level"], row["last_ours"]) == (
        5, 3, 2, 0)
    assert row["partner_min_hcp"] == 0 and row["their_bids"] == 2


def test_a_hand_s_measures_and_what_the_deal_alone_says():
    hand = parse_hand("AKQJ.T98.765.432")
    assert reading.measures(hand) == [10, 3, 3, 3, 4]
    mean, spread = reading.dealt_alone(hand)
    assert mean[0] == pytest.approx(10)  # (40 - 10) / 3
    assert mean[1:] == pytest.approx([10 / 3, 10 / 3, 10 / 3, 3])
    # 13 of the 39 unseen cards: spades are 9 of them; n p (1-p) (N-n)/(N-1).
    p = 9 / 39
    assert spread[4] == pytest.approx(math.sqrt(13 * p * (1 - p) * 26 / 38))


def test_a_hand_s_weight_is_its_gaussian_log_ratio_worked_out_by_hand():
    read = reading.Reading(
        seat=0, mean=((1, 1, 1, 1, 1), (15.0, 3.0, 3.0, 5.0, 2.0), (1, 1, 1, 1, 1)),
        spread=((1, 1, 1, 1, 1), (2.0, 1.0, 1.0, 1.0, 1.0), (1, 1, 1, 1, 1)),
        alone_mean=(10.0, 3.25, 3.25, 3.25, 3.25), alone_spread=(4.0, 1.5, 1.5, 1.5, 1.5))
    partner = parse_hand("AKQ2.AK2.432.432")  # 16 HCP; clubs 3, diamonds 3, hearts 3, spades 4
    x = [16, 3, 3, 3, 4]
    mean, spread = read.mean[1], read.spread[1]
    want = sum(0.5 * (((v - m0) / s0) ** 2 - ((v - m) / s) ** 2)
               for v, m, s, m0, s0 in zip(x, mean, spread, read.alone_mean, read.alone_spread,
                                          strict=True))
    assert read.log_weight(2, partner) == pytest.approx(reading.TEMPER * want)
    assert read.log_weight(0, partner) == 0.0  # the observer's own hand
    # A spread wider than the deal alone's is taken as the deal alone's (bounded weights).
    wide = reading.Reading(0, read.mean, ((9,) * 5,) * 3, read.alone_mean, read.alone_spread)
    z = [(v - m) / s0 for v, m, s0 in zip(x, mean, read.alone_spread, strict=True)]
    z0 = [(v - m0) / s0 for v, m0, s0 in zip(x, read.alone_mean, read.alone_spread,
                                              strict=True)]
    assert wide.log_weight(2, partner) == pytest.approx(
        reading.TEMPER * sum(0.5 * (b * b - a * a) for a, b in zip(z, z0, strict=True)))


def test_a_deal_s_rows_are_every_point_of_the_auction_seen_by_each_seat():
    deal = next(bank.read(first=3))
    x, y, calls = reading_training.deal_rows(deal, None)
    assert len(x) == len(y) == len(calls) and len(x) % 4 == 0
    assert calls[:4] == [0, 0, 0, 0] and calls[-1] == calls[-4] == len(x) // 4 - 1
    for seat in range(4):  # before the first call: each seat's hand, the others' truths
        assert x[seat][:6] == [*map(float, reading.observed(
            Hand.of(deal.hands[seat]), context_of(seat, []), deal.vulnerable)[:6])]
        assert y[seat] == [v for rel in (1, 2, 3)
                           for v in reading.measures(deal.hands[(seat + rel) % 4])]


@pytest.fixture(scope="module")
def tiny_training(tmp_path_factory) -> tuple[Path, Path]:
    """Training on 25 bank deals, as CI does to keep the training code working: the
    model and its rows."""
    pytest.importorskip("lightgbm")  # the "learn" extra; the players need numpy only
    out, rows, card = train_tiny(reading_training, tmp_path_factory.mktemp("reading"), 100,
                                 25)
    assert card["deals"] == 25 and card["targets"] == list(reading.TARGETS)
    assert card["bank_deals"] == [100, 124]
    return out, rows


@pytest.fixture(scope="module")
def tiny_reading(tiny_training) -> Path:
    return tiny_training[0]


def test_training_on_25_deals_writes_a_model_and_its_card(tiny_reading):
    card = json.loads(card_path(tiny_reading).read_text())
    assert card["trees_per_target"] == [5] * 15 and card["rows"] > 25 * 4
    assert card["rows_commands"] == [
        f"python -m bot.ai.bridge.learning.reading_training make --first 100 --deals 25 --out "
        f"{tiny_reading.parent / 'rows.npz'}"]
    assert set(card["held_out_mae"]["partner_hcp"]) == {"reading", "ranges_midpoint",
                                                        "hand_alone"}


def test_a_saved_model_loads_and_gives_the_same_values(tiny_training):
    """The loaded model's held-out errors are those measured on LightGBM's predictions
    when it was made (the training checks the arrays against LightGBM too)."""
    path, rows = tiny_training
    model = reading.load(path)
    assert model is not None
    data = np.load(rows)
    held = data["deal"] % 5 == 0
    means = model.means(data["x"][held].astype(np.float64))
    card = json.loads(card_path(path).read_text())
    for t, name in enumerate(reading.TARGETS):
        mae = float(np.abs(data["y"][held, t] - means[:, t]).mean())
        assert mae == pytest.approx(card["held_out_mae"][name]["reading"], abs=1e-4)
    again = reading.load(path)
    assert again is not None
    assert (again.means(data["x"][:50]) == model.means(data["x"][:50])).all()


def _knowledge(weigh=None) -> Knowledge:
    """West's view after 1♥ by North and 2♥ by South (ranges), South's spade void shown,
    North has played a card (its range is checked on its hand as dealt)."""
    west = tuple(parse_hand("K43.Q987.A62.854"))
    led = next(c for c in FULL_DECK if c.suit == Suit.HEARTS and c.rank == 14)
    played = ((led,), (), (), ())
    unseen = tuple(c for c in FULL_DECK if c not in west and c != led)
    ranges = (HandRange(min_hcp=12, max_hcp=21, min_len=(0, 0, 5, 0)),
              HandRange(max_hcp=11),
              HandRange(min_hcp=6, max_hcp=10, min_len=(0, 0, 3, 0)),
              HandRange())
    voids = (frozenset(), frozenset(), frozenset({Suit.SPADES}), frozenset())
    return Knowledge(known=(None, None, None, west), unseen=unseen, sizes=(12, 13, 13, 13),
                     voids=voids, played=played, ranges=ranges, weigh=weigh)


def _partner_heavy(seat: int, hands) -> list[float]:
    # A made-up reading: North likely strong, the others as dealt.
    return [0.4 * reading.measures(cards)[0] if seat == 0 else 0.0 for cards in hands]


def test_weighed_layouts_keep_the_cards_voids_known_hands_and_ranges():
    know = _knowledge(_partner_heavy)
    for seed in range(5):
        layouts = sample(know, 12, random.Random(seed))
        assert len(layouts.hands) == 12 and layouts.relaxed == 0
        assert len(set(layouts.hands)) == 12  # drawn without replacement
        for hands in layouts.hands:
            assert hands[3] == know.known[3]
            assert sorted(c for s in range(3) for c in hands[s]) == sorted(know.unseen)
            assert [len(h) for h in hands] == list(know.sizes)
            assert not any(c.suit == Suit.SPADES for c in hands[2])
            assert all(know.ranges[s].admits([*hands[s], *know.played[s]]) for s in range(3))


def test_weighing_draws_the_likelier_layouts_and_the_same_seed_the_same_ones():
    plain = sample(_knowledge(), 30, random.Random(4))
    weighed = sample(_knowledge(_partner_heavy), 30, random.Random(4))
    again = sample(_knowledge(_partner_heavy), 30, random.Random(4))
    assert weighed.hands == again.hands
    def north(layouts) -> float:
        return sum(reading.measures(h[0])[0] for h in layouts.hands) / len(layouts.hands)
    assert north(weighed) > north(plain) + 1


def test_more_layouts_dealt_per_layout_kept_follow_the_weight_more_closely(monkeypatch):
    dealt: list[int] = []
    real = layouts_module._sample

    def counted(know, count, rng, extra=1):
        out = real(know, count, rng, extra)
        dealt.append(len(out.hands))
        return out

    monkeypatch.setattr(layouts_module, "_sample", counted)

    def sharp(seat: int, hands) -> list[float]:  # North's points all but decide
        return [5.0 * reading.measures(cards)[0] if seat == 0 else 0.0 for cards in hands]

    def north(oversample: int) -> float:
        know = dataclasses.replace(_knowledge(sharp), oversample=oversample)
        kept = [sample(know, 30, random.Random(seed)).hands for seed in range(4)]
        assert all(len(hands) == 30 for hands in kept)
        return sum(reading.measures(h[0])[0] for hands in kept for h in hands) / 120

    assert _knowledge().oversample == layouts_module.OVERSAMPLE
    light, heavy = north(layouts_module.OVERSAMPLE), north(4 * layouts_module.OVERSAMPLE)
    assert dealt == [30 * layouts_module.OVERSAMPLE] * 4 + [120 * layouts_module.OVERSAMPLE] * 4
    assert heavy > light + 1  # the best 30 of 480 layouts, not of 120


def test_without_a_reading_the_layouts_are_as_before():
    # The same seed deals the same layouts with no weight, whatever the reading module.
    know = _knowledge()
    assert sample(know, 10, random.Random(9)).hands == sample(know, 10, random.Random(9)).hands


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_broken_model_leaves_the_layouts_as_before_with_one_log_line(
        tiny_reading, tmp_path, caplog, monkeypatch, damage):
    broken = broken_copy(tiny_reading, tmp_path / "hand_reading.npz", damage)
    monkeypatch.setattr(reading.SHELF, "default", broken)
    monkeypatch.setattr(reading.SHELF, "loaded", {})
    calls = _calls((0, "bid:1H"), (1, "pass"), (2, "bid:3H"), (3, "pass"))
    ctx = context_of(0, calls)
    mine = parse_hand("AK432.AKQ32.2.32")
    with caplog.at_level(logging.ERROR, logger=reading.__name__):
        weigh = reading.weigh(Hand.of(mine), ctx, (False, False))
        assert weigh is None
        assert reading.weigh(Hand.of(mine), ctx, (False, False)) is None  # not said again
    lines = [r for r in caplog.records if r.name == reading.__name__]
    assert len(lines) == 1 and "ranges alone" in lines[0].getMessage()
    assert deal_layouts(ctx, mine, 8, random.Random(3), weigh).hands == deal_layouts(
        ctx, mine, 8, random.Random(3)).hands


def test_the_shipped_model_loads_with_its_card_and_reads_cheaply():
    card = json.loads(card_path(reading.DEFAULT).read_text())
    assert "python -m bot.ai.bridge.learning.reading_training train" in card["command"]
    assert card["deals"] > 0 and card["rows"] > 0
    model = reading.load(reading.DEFAULT)
    assert model is not None
    size = sum(p.stat().st_size for p in reading.MODELS.iterdir())
    assert size < 20 * 1024 * 1024
    # Its reading of a strong 1♥ opening by partner: more points than the deal alone says.
    calls = _calls((0, "bid:1H"), (1, "pass"))
    facts = Hand.of(parse_hand("K43.Q987.A62.854"))
    read = model.read(facts, context_of(2, calls), (False, False))
    assert read.mean[1][0] > read.alone_mean[0] + 2 and read.mean[1][3] > 4.5
    hearts = parse_hand("AJ2.AKJ65.K54.32")
    flat = parse_hand("5432.32.QJ2.QJ32")
    assert read.log_weight(0, hearts) > read.log_weight(0, flat)
    # Many hands read at once read as each alone.
    many = model.read_all([facts, Hand.of(hearts)], context_of(2, calls), (False, False))
    assert many[0] == read
    assert many[1] == model.read(Hand.of(hearts), context_of(2, calls), (False, False))
    assert read.log_weights(0, [hearts, flat]) == [read.log_weight(0, hearts),
                                                   read.log_weight(0, flat)]
