"""The suit reading of the play (`learning.suit_reading`): its events and numbers worked
out by hand, its chances, its model on file, and the player reading it."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.learning import played as played_deals
from bot.ai.bridge.learning import suit_reading, suit_reading_training
from bot.ai.bridge.learning.suit_reading import (
    HAND_NAMES,
    NAMES,
    PUBLIC_NAMES,
    SuitReading,
    event_rows,
    suit_masks,
    suits_weigh,
    view_events,
)
from bot.ai.core.trick_masks import mask_of
from bot.games.cards import FULL_DECK, Card, Suit, parse_hand
from bot.tables.thinking import think_as_served

from .helpers import (
    FOUR_HEARTS,
    bridge_play_position,
    broken_copy,
    four_hearts_played,
    searched_with_and_without,
    weighs_asked,
)

SPADES, HEARTS, DIAMONDS, CLUBS = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
ALL = 0x1FFF


def _bits(*ranks: int) -> int:
    return sum(1 << (r - 2) for r in ranks)


@pytest.mark.parametrize(("gone", "held", "masters", "run", "above"), [
    ((), (13, 12, 11, 2), 0, 3, 1),      # KQJ2, the ace out: a run of 3 below it
    ((14,), (13, 12, 11, 2), 3, 3, 0),   # the ace gone: KQJ are masters
    ((), (14, 12), 1, 1, 0),             # AQ, the king out
    ((14, 13, 11), (12, 5), 1, 1, 0),    # Q5, A K J gone: the queen is master, the ten out
    ((), (10, 9, 8), 0, 3, 4),           # T98: four cards out above it
])
def test_the_top_of_a_holding_is_counted_as_worked_out_by_hand(gone, held, masters, run,
                                                                 above):
    tops = suit_reading._tops(ALL & ~_bits(*gone))
    assert [int(t[_bits(*held)]) for t in tops] == [masters, run, above]


def test_the_top_of_a_holding_agrees_with_a_plain_count():
    rng = random.Random(3)
    for _ in range(300):
        live = [r for r in range(2, 15) if rng.random() < 0.7]
        held = [r for r in live if rng.random() < 0.4]
        if not held:
            continue
        down = sorted(live, reverse=True)
        masters = next((i for i, r in enumerate(down) if r not in held), len(down))
        top = down.index(max(held))
        run = next((i for i, r in enumerate(down[top:]) if r not in held), len(down) - top)
        tops = suit_reading._tops(_bits(*live))
        assert [int(t[_bits(*held)]) for t in tops] == [masters, run, top]


def _four_hearts_events():
    # Trick 1: East leads the king of spades, North wins with the ace. Tricks 2-4: North
    # cashes three top hearts; on the third East throws a diamond and West a club.
    game = four_hearts_played("KS", "6S", "3S", "AS", "AH", "3H", "6H", "2H",
                              "KH", "7H", "8H", "4H", "QH", "2D", "9H", "8C")
    seat = next(iter(game.to_act()))
    return game.view(seat), view_events(game.view(seat))


def test_the_events_are_later_leads_and_cards_of_hands_that_could_not_follow():
    _, events = _four_hearts_events()
    # The opening lead is not one (its own model reads it); dummy's cards are seen.
    assert [(e.seat, e.chosen) for e in events] == [
        (0, HEARTS), (0, HEARTS), (0, HEARTS), (1, DIAMONDS), (3, CLUBS)]
    north, east = events[0], events[3]
    assert north.earlier == mask_of([Card.parse("AS")])
    assert east.earlier == mask_of(Card.parse(c) for c in ("KS", "3H", "7H"))


def test_an_event_s_public_numbers_worked_out_by_hand():
    _, events = _four_hearts_events()
    north = dict(zip(PUBLIC_NAMES, events[0].public[HEARTS], strict=True))
    assert north == {
        "trick": 2, "cannot_follow": 0, "trick_position": 0, "declaring": 1,
        "dummy_left": 0, "dummy_right": 0, "notrump": 0, "trump_suit": 1, "dummy_len": 4,
        "dummy_master": 0, "out_len": 9, "times_led": 0, "self_led": 0, "partner_led": 0,
        "opponents_led": 0, "opening_suit": 0, "last_trick_suit": 0, "partner_void": 0,
        "left_void": 0, "right_void": 0, "self_bid": 1, "partner_bid": 1,
        "opponents_bid": 0, "partner_winning": 0, "side_needs": 9}
    spades = dict(zip(PUBLIC_NAMES, events[0].public[SPADES], strict=True))
    # Four spades gone and three on dummy (987): six out; led once, by an opponent.
    assert (spades["out_len"], spades["dummy_len"], spades["times_led"],
            spades["opponents_led"], spades["opening_suit"], spades["last_trick_suit"],
            spades["trump_suit"]) == (6, 3, 1, 1, 1, 1, 0)
    east = dict(zip(PUBLIC_NAMES, events[3].public[DIAMONDS], strict=True))
    # East throws second to the trick, North's queen winning it; dummy (South) on its left.
    assert (east["trick"], east["cannot_follow"], east["trick_position"], east["declaring"],
            east["dummy_left"], east["partner_winning"], east["side_needs"]) == (
        4, 1, 1, 0, 1, 0, 4)
    west = dict(zip(PUBLIC_NAMES, events[4].public[CLUBS], strict=True))
    assert (west["dummy_right"], west["partner_winning"], west["right_void"]) == (1, 0, 0)
    assert dict(zip(PUBLIC_NAMES, events[4].public[HEARTS], strict=True))["right_void"] == 0
    assert dict(zip(PUBLIC_NAMES, events[4].public[HEARTS],
                    strict=True))["left_void"] == 0


def test_a_hand_s_numbers_at_an_event_worked_out_by_hand():
    _, events = _four_hearts_events()
    east = events[3]
    dealt = np.asarray([mask_of(FOUR_HEARTS[1])], dtype=np.int64)
    holdings = suit_masks(dealt & ~np.int64(east.earlier))
    rows, inverse, held = event_rows(east, holdings)
    assert held.tolist() == [[True, True, False, True]]  # clubs, diamonds, spades (by index)
    diamonds = dict(zip(NAMES, rows[inverse[0, DIAMONDS]], strict=True))
    # East holds ♠QJ5 ♦A9842 ♣65 then: five diamonds headed by the ace, all still out.
    assert {name: diamonds[name] for name in HAND_NAMES} == {
        "length": 5, "hcp": 4, "small": 4, "masters": 1, "run": 1, "above": 0,
        "trumps_held": 0, "longest": 1}
    spades = dict(zip(NAMES, rows[inverse[0, SPADES]], strict=True))
    # ♠QJ5 with the king and ace gone: the queen and jack are masters.
    assert {name: spades[name] for name in ("length", "hcp", "masters", "run", "above",
                                            "longest")} == {
        "length": 3, "hcp": 3, "masters": 2, "run": 2, "above": 0, "longest": 0}


def _tiny_model(tmp_path: Path, trees: int = 5) -> tuple[Path, dict]:
    """A model trained on the first 30 played deals of the repository."""
    pytest.importorskip("lightgbm")
    folder = tmp_path / "played"
    folder.mkdir()
    for _, path in played_deals.files()[:3]:
        shutil.copy(path, folder)
    out = tmp_path / "tiny.npz"
    card = suit_reading_training.train(folder, out, trees=trees, leaves=4, held_out=5,
                                       command="test", threads=1)
    return out, card


def test_training_on_a_few_played_deals_writes_a_model_that_loads_and_reads_the_same(
        tmp_path):
    out, card = _tiny_model(tmp_path)
    bid_and_played = [p for p in played_deals.read_played(tmp_path / "played")
                      if any(a.startswith("play:") for a in p.actions)]
    assert card["features"] == list(NAMES) and card["deals"] == len(bid_and_played)
    assert card["events"] > 10 * card["deals"]
    assert 0.1 <= card["temperature"] <= 5 and card["command"] == "test"
    model = suit_reading.load(out)
    assert model is not None and model.temper == card["temperature"]
    _, events = _four_hearts_events()
    dealt = np.asarray([mask_of(FOUR_HEARTS[1]), mask_of(parse_hand(
        "KQJ5.73.A9842.65"))], dtype=np.int64)
    again = suit_reading.load(out)
    assert again is not None
    assert model.log_chances(events[3:4], dealt).tolist() == again.log_chances(
        events[3:4], dealt).tolist()


def test_each_suit_s_chance_at_an_event_adds_up_to_one(tmp_path):
    out, _ = _tiny_model(tmp_path)
    loaded = suit_reading.load(out)
    assert loaded is not None
    model = dataclasses.replace(loaded, weight=1.0)  # the chances themselves, unweighed
    _, events = _four_hearts_events()
    east = events[3]
    hands = np.asarray([mask_of(FOUR_HEARTS[1]), mask_of(parse_hand("KQJ5.73.A98.6542")),
                        mask_of(parse_hand("KQ.73.A9842.6542"))], dtype=np.int64)
    chances = np.exp([model.log_chances([dataclasses.replace(east, chosen=s)], hands)
                      for s in range(4)])
    # East's hands then hold clubs, diamonds and spades, never hearts.
    assert np.allclose(chances.sum(axis=0), 1.0) and np.all(chances[HEARTS] == 0)


def test_a_damaged_model_file_gives_one_log_line_and_no_weight(tmp_path, caplog,
                                                                monkeypatch):
    out, _ = _tiny_model(tmp_path)
    view, _ = _four_hearts_events()
    for damage in ("missing", "truncated", "foreign card", "bad arrays"):
        broken = broken_copy(out, tmp_path / f"broken-{damage.replace(' ', '-')}.npz", damage)
        monkeypatch.setattr(suit_reading.SHELF, "default", broken)
        monkeypatch.setattr(suit_reading.SHELF, "loaded", {})
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger=suit_reading.log.name):
            assert suits_weigh(view) is None and suits_weigh(view) is None
        lines = [r.getMessage() for r in caplog.records if r.name == suit_reading.log.name]
        assert len(lines) == 1 and "the suit reading of the play off" in lines[0]


def test_the_weight_of_a_hidden_hand_is_its_events_log_chances(tmp_path):
    out, _ = _tiny_model(tmp_path)
    model = suit_reading.load(out)
    assert isinstance(model, SuitReading)
    view, events = _four_hearts_events()  # North to lead to trick 5: East and West hidden
    weigh = suits_weigh(view, model)
    assert weigh is not None and view.seat == 0
    for seat in (1, 3):
        hands = [FOUR_HEARTS[seat], FOUR_HEARTS[4 - seat]]
        dealt = np.asarray([mask_of(h) for h in hands], dtype=np.int64)
        own = [e for e in events if e.seat == seat]
        assert len(own) == 1
        assert weigh(seat, hands) == model.log_chances(own, dealt).tolist()


def _in_trick_five(seed: int = 21):
    game = bridge_play_position(seed, cards_played=17)
    seat = next(iter(game.to_act()))
    return game.view(seat), game.legal(seat)


@pytest.mark.parametrize("read_suits", [True, False])
def test_the_player_weighs_by_the_suits_only_when_it_reads_them(monkeypatch, read_suits):
    view, legal = _in_trick_five()
    asked = weighs_asked(monkeypatch, "suits_weigh", "read_suits", read_suits, view, legal)
    assert len(asked) == int(read_suits)
    if read_suits:
        assert asked[0][0].played == view.played  # the view the player was given


def test_reading_the_suits_changes_the_layouts_and_the_same_seed_chooses_the_same(
        tmp_path, monkeypatch):
    out, _ = _tiny_model(tmp_path, trees=40)
    monkeypatch.setattr(suit_reading.SHELF, "default", out)
    monkeypatch.setattr(suit_reading.SHELF, "loaded", {})
    view, legal = _in_trick_five()
    assert suits_weigh(view) is not None  # a hidden hand chose a suit here
    outcomes = searched_with_and_without("read_suits", view, legal)
    assert len(outcomes[True]) == 1 and len(outcomes[False]) == 1  # the same seed, the same
    assert outcomes[True] != outcomes[False]  # other layouts, other averages


def test_the_player_is_served_without_the_suit_reading_until_it_is_measured():
    player = make_player("bridge", 5, "bridge-advanced")
    view, legal = _in_trick_five()
    action, back = think_as_served(player, view, legal, Budget(1.0))
    assert action in legal and isinstance(back, AdvancedBridgePlayer)
    assert back.read_suits is False


def _played_pairs(count: int = 20):
    played = list(itertools.islice(played_deals.read_played(), count))
    return [(deal, suit_reading_training.play_of(deal, one))
            for deal, one in suit_reading_training.with_bank(played)]


def test_the_hands_an_opponent_might_see_keep_to_everything_it_saw():
    rng = np.random.default_rng(5)
    checked = 0
    for deal, play in _played_pairs():
        if play is None:
            continue
        for tricks in (3, 9):
            gone = play.plays[:4 * tricks]
            for seat in {0, 1, 2, 3} - {play.dummy}:
                observer = next(s for s in (seat + 1, seat + 3, seat + 2)
                                if s % 4 != play.dummy) % 4
                other = ({0, 1, 2, 3} - {seat, observer, play.dummy}).pop()
                hands = suit_reading_training.hands_seen_by(deal, play, tricks, seat,
                                                            observer, 30, rng)
                own = mask_of(c for s, c in gone if s == seat)
                seen = mask_of([*deal.hands[observer], *deal.hands[play.dummy],
                                *(c for s, c in gone if s != seat)])
                led = [gone[i - i % 4][1].suit for i in range(len(gone))]
                shown_out = {seat: set(), other: set()}
                for (s, card), suit in zip(gone, led, strict=True):
                    if s in shown_out and card.suit != suit:
                        shown_out[s].add(suit)
                pool = (1 << 52) - 1 & ~seen & ~own & ~mask_of(
                    c for s, c in gone if s == other)
                for hand in map(int, hands):
                    later = hand & ~own
                    assert bin(hand).count("1") == 13 and hand & own == own
                    assert hand & seen == 0
                    assert all(later & mask_of(c for c in FULL_DECK if c.suit == suit) == 0
                               for suit in shown_out[seat])
                    for suit in shown_out[other]:
                        in_pool = pool & mask_of(c for c in FULL_DECK if c.suit == suit)
                        assert later & in_pool == in_pool
                truth = mask_of(deal.hands[seat])  # the real hand keeps to all of it too
                assert truth & seen == 0 and truth & own == own
                if len({int(h) for h in hands}) > 1:
                    checked += 1
    assert checked > 20


def test_the_posterior_gain_worked_out_by_hand():
    # The true hand's chance 1/2, two others' 1/4 each: at weight 1 the true hand is
    # twice as likely as the others' mean; at weight 0 nothing is read.
    cases = [np.log([0.5, 0.25, 0.25])]
    assert suit_reading_training.posterior_gain(cases, 1.0)[0] == pytest.approx(np.log(2))
    assert suit_reading_training.posterior_gain(cases, 0.0)[0] == pytest.approx(0.0)
    # At weight 2: 1/4 against the mean of 1/16, four times.
    assert suit_reading_training.posterior_gain(cases, 2.0)[0] == pytest.approx(np.log(4))


def test_the_weight_scales_a_hand_s_summed_log_chances(tmp_path):
    out, _ = _tiny_model(tmp_path)
    model = suit_reading.load(out)
    assert model is not None
    _, events = _four_hearts_events()
    dealt = np.asarray([mask_of(FOUR_HEARTS[1]), mask_of(parse_hand("KQJ5.73.A98.6542"))],
                       dtype=np.int64)
    half = dataclasses.replace(model, weight=0.5)
    whole = dataclasses.replace(model, weight=1.0)
    assert np.allclose(half.log_chances(events[3:4], dealt),
                       0.5 * whole.log_chances(events[3:4], dealt))


def test_a_card_s_weight_is_read_and_one_out_of_range_refused(tmp_path, caplog):
    out, card = _tiny_model(tmp_path)
    model = suit_reading.load(out)
    assert model is not None and model.weight == card["weight"]
    assert card["weight"] in suit_reading_training.WEIGHTS
    gains = card["held_out_posterior_gain"]
    assert gains["cases"] > 0 and len(gains["at_weight"]) == 2
    assert len(gains["cards_followed_with"]) == 2
    path = suit_reading.card_path(out)
    path.write_text(json.dumps({**card, "weight": -1}))
    with caplog.at_level(logging.ERROR, logger=suit_reading.log.name):
        assert suit_reading.load(out) is None
    assert "weight" in caplog.text


def test_the_yardstick_reading_finds_our_players_true_hands_never_denied():
    # Our players follow with the lowest of equal cards, so the served reading of the
    # cards followed with never denies a card their true hand held, and it does deny
    # some of the hands an opponent might see.
    rng = np.random.default_rng(2)
    cases = [case for deal, play in _played_pairs() if play is not None
             for case in suit_reading_training.posterior_cases(deal, play, rng, 20)]
    weights = suit_reading_training.follows_log_weights(cases)
    assert len(cases) > 30 and len(weights) == len(cases)
    assert all(w.shape == (21,) and w[0] == 0.0 for w in weights)
    assert sum(bool((w[1:] < 0).any()) for w in weights) > len(cases) // 4
