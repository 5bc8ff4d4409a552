"""The declaring side's cards learned from our own deals: a lead's and a third-hand card's
features worked out by hand, a deal's rows labelled by the solver, training on a few deals
(as CI keeps the training code working), a saved model loading to the same values, a
player given a model playing by it as served, a broken model leaving the card to the
search with one log line, and the player as served playing the search's card."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.bidding.system import context_of
from bot.ai.bridge.learning import bank, declaring, declaring_training, play_training
from bot.ai.bridge.learning.forest import Forest
from bot.ai.bridge.learning.reading import Reading
from bot.ai.bridge.learning.rollouts import Bidders
from bot.ai.bridge.learning.trick_play import PlayKind
from bot.ai.bridge.learning.values import card_path
from bot.ai.core.card_search import Outcome
from bot.games.cards import Card
from bot.tables.thinking import think_as_served
from tests.ai.helpers import (
    DAMAGES,
    broken_copy,
    broken_model_says_once,
    four_hearts_played,
    served_by_model,
    train_tiny_play,
)

# North declares 4♥ (`FOUR_HEARTS`); East leads ♠K to dummy's ♠6, West's ♠3 and North's
# ♠A: North is on lead to trick 2 with ♠2 ♥AKQJ5 ♦K3 ♣A432, dummy (South) holding ♠987
# ♥T986 ♦QJ ♣KQ7.
# A reading of the others from North (by relation: LHO East, partner, RHO West).
READ = Reading(0, ((8.0, 3.0, 2.5, 4.0, 3.5), (3.0, 4.0, 4.0, 2.0, 3.0),
                   (6.0, 3.5, 4.5, 1.0, 4.0)), ((1.0,) * 5,) * 3, (9.0,) * 5, (3.0,) * 5)


def _played(*cards: str):
    return four_hearts_played("KS", "6S", "3S", "AS", *cards)


def _rows(view, cards, outcome=None):
    ctx = context_of(view.seat, view.calls, Score.of(view))
    rows = declaring.declaring_rows(view, ctx, [Card.parse(c) for c in cards], READ, outcome)
    return [dict(zip(declaring.NAMES, row, strict=True)) for row in rows]


def test_a_declarer_s_lead_s_features_worked_out_by_hand():
    game = _played()
    view = game.view(0)
    assert declaring.is_declaring_play(view) and view.turn == 0
    assert not declaring.is_declaring_play(game.view(1))  # a defender's view
    king, two = _rows(view, ("KD", "2S"))
    assert (king["trick_no"], king["declarer_needs"], king["defence_needs"]) == (2, 9, 4)
    assert (king["from_dummy"], king["place_in_trick"]) == (0.0, 0)
    assert (king["my_trumps"], king["partner_trumps"], king["trumps_out"]) == (5, 4, 4)
    # To a lead: it "follows" and "beats", and nothing wins the trick yet.
    assert [king[n] for n in declaring.TRICK_NAMES] == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    # The defenders on the leader's left (East) and right (West).
    assert (king["left_read_hcp"], king["right_read_hcp"]) == (8.0, 6.0)
    # ♦K: the ace is out (with ten others), dummy holds ♦QJ.
    assert (king["card_rank"], king["suit_len"], king["suit_hcp"]) == (13, 2, 3)
    assert (king["mine_above"], king["mine_below"], king["run"], king["heads_run"]) == (
        0, 1, 1, 0.0)
    assert (king["out_above"], king["partner_above"], king["master"]) == (1, 0, 0.0)
    assert (king["partner_len"], king["partner_hcp"], king["out_len"]) == (2, 3, 9)
    assert (king["left_read_left"], king["right_read_left"]) == (2.5, 4.5)
    assert king["partner_bid_it"] == 0.0
    # ♠2: the suit East led, both defenders having played a spade.
    assert (two["times_led"], two["defence_led_it"], two["i_led_it"]) == (1, 1.0, 0.0)
    assert (two["left_played"], two["right_played"], two["left_high"], two["right_high"]) == (
        1, 1, 13, 3)
    assert (two["opening_suit"], two["out_above"], two["partner_above"]) == (1.0, 5, 3)
    assert (two["left_read_left"], two["right_read_left"]) == (3.5 - 1, 4.0 - 1)


def test_a_third_hand_card_from_dummy_s_features_worked_out_by_hand():
    game = _played("AH", "3H")  # North leads ♥A, East follows: dummy to play
    view = game.view(0)
    assert declaring.is_declaring_play(view) and view.turn == 2
    outcome = Outcome(Card.parse("6H"), {Card.parse("6H"): 420.0, Card.parse("TH"): 420.0},
                      {Card.parse("6H"): 10.0, Card.parse("TH"): 9.5}, 16,
                      {Card.parse("6H"): 1.0, Card.parse("TH"): 0.5},
                      {Card.parse("6H"): 0.0, Card.parse("TH"): 0.5})
    six, ten = _rows(view, ("6H", "TH"), outcome)
    assert (six["from_dummy"], six["place_in_trick"], six["my_trumps"]) == (1.0, 2, 4)
    assert (six["partner_trumps"], six["trumps_out"]) == (4, 3)  # North's ♥KQJ5; ♥742 out
    # Partner's ♥A wins the trick: neither card beats it.
    assert [six[n] for n in declaring.TRICK_NAMES] == [1.0, 0.0, 0.0, 1.0, 14, 0.0]
    # From dummy, the left defender is West and the right one East.
    assert (six["left_read_hcp"], six["right_read_hcp"]) == (6.0, 8.0)
    assert (six["right_played"], six["right_high"], six["left_played"]) == (1, 3, 0)
    assert (six["left_read_left"], six["right_read_left"]) == (1.0, 4.0 - 1)
    # The other hand seen is North's (♥KQJ5), the ♥A and ♥3 in the trick are gone.
    assert (six["partner_len"], six["partner_hcp"], six["partner_above"]) == (4, 6, 3)
    assert (six["out_len"], six["out_above"], six["mine_above"]) == (3, 1, 3)
    assert (ten["run"], ten["heads_run"], ten["out_above"]) == (3, 1.0, 0)
    # North bid hearts, and shows five of them.
    assert six["partner_bid_it"] == 1.0 and six["partner_min_len"] == 5
    assert [six[n] for n in ("search_tricks_short", "search_pick", "search_best_share")] == [
        0.0, 1.0, 1.0]
    assert [ten[n] for n in ("search_tricks_short", "search_pick", "search_spread")] == [
        0.5, 0.0, 0.5]


def test_a_defender_s_card_or_a_card_past_the_learned_tricks_is_not_declarer_s():
    game = _played("AH")
    assert not declaring.is_declaring_play(game.view(0))  # East to play
    game = _played("AH", "3H", "6H", "2H")  # North wins and leads to trick 3
    assert declaring.is_declaring_play(game.view(0)) and not declaring.is_declaring_play(
        game.view(0), 2)


def test_a_kind_refuses_a_name_given_twice():
    kind = declaring.DECLARING
    with pytest.raises(ValueError, match="named twice"):
        PlayKind("twice", kind.applies, kind.rows_of, (*kind.names, "hcp"), kind.names,
                 kind.shelf, kind.attribute, kind.what)


def test_a_deal_s_rows_are_each_declaring_card_labelled_by_the_solver():
    positions = 0
    for deal in bank.read(first=40, limit=6):
        rows = play_training.deal_rows(deal, Bidders(None), declaring.DECLARING, think=0.0)
        assert len(rows.x) == len(rows.y) == len(rows.group) == len(rows.played)
        assert all(len(row) == len(declaring.NAMES) for row in rows.x)
        at = declaring.NAMES.index
        for group in sorted(set(rows.group)):
            mine = [i for i, g in enumerate(rows.group) if g == group]
            assert min(rows.y[i] for i in mine) == 0 and all(rows.y[i] >= 0 for i in mine)
            assert sum(rows.played[i] for i in mine) == 1  # the card the player played
            played = group - 64 * deal.number  # the cards played before it
            assert 4 <= played < 4 * play_training.LAST_TRICK
            assert all(rows.x[i][at("place_in_trick")] == played % 4 for i in mine)
            positions += 1
    assert positions > 0


@pytest.fixture(scope="module")
def tiny_declaring_model(tmp_path_factory) -> tuple[Path, Path, dict]:
    """Training on 20 bank deals, as CI does to keep the training code working: the
    model, its rows and its card."""
    return train_tiny_play(declaring_training, tmp_path_factory.mktemp("declaring"), 400, 20)


def test_training_on_20_deals_writes_a_model_and_its_card(tiny_declaring_model):
    model, rows, card = tiny_declaring_model
    assert json.loads(card_path(model).read_text()) == card
    assert card["features"] == list(declaring.NAMES)
    data = np.load(rows)
    assert card["rows"] == data["x"].shape[0] and card["positions"] == len(set(data["group"]))
    assert card["held_out_positions"] > 0 and card["held_out_tricks_lost"]["learned"][0] >= 0
    assert card["rows_commands"] == [
        f"python -m bot.ai.bridge.learning.declaring_training make --first 400 --deals 20 "
        f"--out {rows}"]
    loaded = declaring.SHELF.load(model)
    assert loaded is not None
    x = data["x"].astype(np.float64)
    assert np.array_equal(loaded.forest.predict(x), Forest.load(model).predict(x))
    # No first features to choose among: the switch is not offered.
    with pytest.raises(SystemExit):
        declaring_training.main(["train", "--rows", str(rows), "--out", str(model),
                                 "--first-features"])


def test_a_player_given_a_model_plays_by_it_as_served_the_same_each_time(
        tiny_declaring_model):
    game = _played("AH", "3H")
    served_by_model(declaring.DECLARING, tiny_declaring_model[0], game.view(0), game.legal(0))


def test_as_served_declarer_plays_the_search_s_card():
    player = make_player("bridge", 5, "bridge-advanced")
    assert isinstance(player, AdvancedBridgePlayer) and player.learned_declaring is None
    game = _played("AH", "3H")
    view, legal = game.view(0), game.legal(0)
    action, back = think_as_served(player, view, legal, Budget(0.3))
    assert isinstance(back, AdvancedBridgePlayer) and back.last_outcome is not None
    assert action == "play:" + back.last_outcome.card.text


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_broken_model_leaves_declarer_s_card_to_the_search_with_one_log_line(
        tiny_declaring_model, tmp_path, caplog, monkeypatch, damage):
    broken = broken_copy(tiny_declaring_model[0], tmp_path / "declaring.npz", damage)
    monkeypatch.setattr(declaring.SHELF, "loaded", {})
    game = _played("AH", "3H")
    view, legal = game.view(0), game.legal(0)
    said = broken_model_says_once(declaring.DECLARING, broken, view, legal, caplog)
    assert "declarer plays the card search's card" in said


def test_a_kind_taking_one_card_a_trick_numbers_its_positions_by_the_trick():
    defence_kind, declaring_kind = play_training.KINDS["defence"], play_training.KINDS["declaring"]
    assert defence_kind.one_a_trick and not declaring_kind.one_a_trick
    # Deal 7, five cards played (trick 2, second card): the defence's lead to trick 2 is
    # position 7 * 16 + 2, the declaring side's card 7 * 64 + 5.
    assert play_training.position_of(defence_kind, 7, 4) == 7 * 16 + 2
    assert play_training.position_of(declaring_kind, 7, 5) == 7 * 64 + 5
    assert play_training.position_of(declaring_kind, 7, 6) != play_training.position_of(
        declaring_kind, 7, 5)
