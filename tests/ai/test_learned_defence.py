"""The defence's leads learned from our own deals: a card's features worked out by hand, a
bank deal set on a board as dealt, a deal's rows labelled by the solver, and training on a
few deals (as CI keeps the training code working), a saved model loading to the same
values, the defence leading by it as served (the same seed, the same lead), and a broken
model leaving the lead to the card search with one log line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.bidding.rubber import Score
from bot.ai.bridge.bidding.system import context_of
from bot.ai.bridge.learning import bank, defence, defence_training, play_training, trick_play
from bot.ai.bridge.learning.forest import Forest
from bot.ai.bridge.learning.reading import Reading
from bot.ai.bridge.learning.rollouts import Bidders
from bot.ai.bridge.learning.values import card_path
from bot.ai.core.card_search import Outcome
from bot.ai.core.dds import Position, solve
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

# North declares 4♥ (`FOUR_HEARTS`); East leads ♠K, North wins, cashes ♥A and leads ♦3 to
# East's ace: East is on lead to trick 4 with ♠QJ5 ♥7 ♦9842 ♣65, dummy (South) holding
# ♠987 ♥T98 ♦Q ♣KQ7.
PLAY = ("KS", "6S", "3S", "AS", "AH", "3H", "6H", "2H", "3D", "AD", "JD", "5D")


def _east_on_lead():
    return four_hearts_played(*PLAY)


def _context(view):
    return context_of(view.seat, view.calls, Score.of(view))


def test_a_defence_lead_s_features_worked_out_by_hand():
    game = _east_on_lead()
    view = game.view(1)
    assert defence.is_defence_lead(view) and not defence.is_defence_lead(game.view(3))
    # A reading of the others' points and lengths (by relation: LHO dummy, partner, RHO).
    read = Reading(1, ((8.0, 3.0, 2.0, 4.0, 4.0), (3.0, 4.0, 4.0, 2.0, 3.0),
                       (19.0, 4.0, 2.0, 5.0, 2.0)), ((1.0,) * 5,) * 3, (9.0,) * 5, (3.0,) * 5)
    cards = [Card.parse(c) for c in ("QS", "5S", "9D", "7H")]
    # What a search made of them: its averages over 12 layouts, ♠Q chosen, and how often
    # each was a best card and how its tricks spread.
    outcome = Outcome(cards[0], dict(zip(cards, (100.0, -50.0, 100.0, 0.0), strict=True)),
                      dict(zip(cards, (4.0, 3.5, 4.0, 3.75), strict=True)), 12,
                      dict(zip(cards, (1.0, 0.25, 0.75, 0.5), strict=True)),
                      dict(zip(cards, (0.0, 0.5, 0.4, 0.3), strict=True)))
    rows = defence.defence_rows(view, _context(view), cards, read, outcome)
    queen, five, nine, heart = (dict(zip(defence.NAMES, row, strict=True)) for row in rows)
    assert (queen["trick_no"], queen["defence_needs"], queen["declarer_needs"]) == (4, 3, 8)
    assert queen["dummy_on_left"] == 1.0 and queen["hcp"] == 10
    assert (queen["my_trumps"], queen["dummy_trumps"], queen["trumps_out"]) == (1, 3, 5)
    assert (queen["partner_read_hcp"], queen["declarer_read_hcp"]) == (3, 19)
    # ♠Q: the king and ace are gone, so it heads a live sequence and is the master.
    assert (queen["card_rank"], queen["suit_len"], queen["suit_hcp"]) == (12, 3, 3)
    assert (queen["mine_above"], queen["mine_below"], queen["run"], queen["heads_run"]) == (
        0, 2, 2, 1.0)
    assert (queen["out_above"], queen["dummy_above"], queen["master"]) == (0, 0, 1.0)
    assert (queen["dummy_len"], queen["dummy_hcp"], queen["out_len"]) == (3, 0, 3)
    assert (queen["partner_played"], queen["declarer_played"]) == (1, 1)
    assert (queen["partner_high"], queen["declarer_high"]) == (3, 14)
    assert (queen["times_led"], queen["i_led_it"], queen["partner_led_it"],
            queen["declarer_led_it"]) == (1, 1.0, 0.0, 0.0)
    assert (queen["opening_suit"], queen["last_trick_suit"]) == (1.0, 0.0)
    assert (queen["partner_read_left"], queen["declarer_read_left"]) == (3 - 1, 2 - 1)
    assert (five["run"], five["heads_run"], five["out_above"], five["dummy_above"]) == (
        1, 0.0, 1, 3)
    # ♦9: the ace and jack are gone; ♦K and ♦T are out above it, dummy's ♦Q too.
    assert (nine["run"], nine["heads_run"], nine["out_above"], nine["dummy_above"]) == (
        2, 1.0, 2, 1)
    assert (nine["out_len"], nine["declarer_led_it"], nine["last_trick_suit"]) == (4, 1.0, 1.0)
    assert (nine["declarer_high"], nine["partner_high"], nine["opening_suit"]) == (3, 5, 0.0)
    # ♥7: trumps, bid by declarer and raised by dummy.
    assert (heart["card_trump"], heart["card_notrump"], heart["out_len"]) == (1.0, 0.0, 5)
    assert heart["declarer_bid_it"] == 1.0 and heart["dummy_bid_it"] == 1.0
    assert heart["partner_bid_it"] == 0.0 and heart["declarer_min_len"] >= 5
    assert heart["partner_void"] == 0.0 and heart["declarer_void"] == 0.0
    # The search's part: how far short of its best card each one came, and its choice.
    assert [queen[n] for n in defence.SEARCH_NAMES] == [1.0, 12, 0.0, 0.0, 1.0]
    assert [five[n] for n in defence.SEARCH_NAMES] == [1.0, 12, 0.5, 1.5, 0.0]
    assert [nine[n] for n in defence.SEARCH_NAMES] == [1.0, 12, 0.0, 0.0, 0.0]
    assert (heart["search_tricks_short"], heart["search_value_short"]) == (0.25, 1.0)
    # How the layouts split: its share of them as a best card, that short of the highest
    # share (♠Q's, 1), and its tricks' spread.
    assert [queen[n] for n in defence.SPREAD_NAMES] == [1.0, 0.0, 0.0]
    assert [five[n] for n in defence.SPREAD_NAMES] == [0.25, 0.75, 0.5]
    assert [nine[n] for n in defence.SPREAD_NAMES] == [0.75, 0.25, 0.4]
    assert [heart[n] for n in defence.SPREAD_NAMES] == [0.5, 0.5, 0.3]


def test_a_hand_that_showed_out_of_a_suit_is_void_in_it():
    game = _east_on_lead()
    # Trick 4: ♦8 to dummy's ♦Q and North's ♦K; trick 5: North's ♠2 to West's ♠T; trick 6:
    # West leads ♦7, North shows out (♣2), East wins with ♦9, dummy shows out too.
    for card in ("8D", "QD", "6D", "KD", "2S", "5S", "9S", "TS", "7D", "2C", "9D", "7C"):
        seat = next(iter(game.to_act()))
        game.apply(seat, "play:" + card)
    view = game.view(1)
    assert not defence.is_defence_lead(view) and defence.is_defence_lead(view, 7)
    read = Reading(1, ((8.0, 3.0, 2.0, 4.0, 4.0),) * 3, ((1.0,) * 5,) * 3, (9.0,) * 5,
                   (3.0,) * 5)
    rows = defence.defence_rows(view, _context(view), [Card.parse("2D"), Card.parse("QS")],
                                read, None)
    two, queen = (dict(zip(defence.NAMES, row, strict=True)) for row in rows)
    assert (two["declarer_void"], two["partner_void"], two["times_led"]) == (1.0, 0.0, 3)
    assert (two["partner_led_it"], two["i_led_it"], two["declarer_led_it"]) == (1.0, 1.0, 1.0)
    assert (two["out_len"], two["dummy_len"], two["master"]) == (1, 0, 0.0)  # West's ♦T
    assert (queen["declarer_void"], queen["partner_void"], queen["trick_no"]) == (0.0, 0.0, 7)
    assert (queen["defence_needs"], queen["declarer_needs"]) == (1, 7)
    assert (queen["run"], queen["out_above"], queen["master"], queen["times_led"]) == (
        2, 0, 1.0, 2)
    assert all(queen[n] == 0.0 for n in (*defence.SEARCH_NAMES, *defence.SPREAD_NAMES))


def test_a_bank_deal_is_set_on_its_board_as_dealt():
    for deal in bank.read(first=16, limit=4):
        game = play_training.board_game(deal)
        assert game.dealt == deal.hands and game.vulnerable == deal.vulnerable
        assert next(iter(game.to_act())) == deal.dealer


def test_a_deal_s_rows_are_each_defence_lead_s_cards_labelled_by_the_solver():
    deals = list(bank.read(first=40, limit=6))
    positions = 0
    for deal in deals:
        rows = play_training.deal_rows(deal, Bidders(None), defence.DEFENCE_LEADS, think=0.0)
        y = rows.y
        assert len(rows.x) == len(y) == len(rows.deal) == len(rows.group) == len(rows.played)
        assert all(len(row) == len(defence.NAMES) for row in rows.x)
        assert set(rows.deal) <= {deal.number}
        for group in sorted(set(rows.group)):
            mine = [i for i, g in enumerate(rows.group) if g == group]
            assert min(y[i] for i in mine) == 0 and all(y[i] >= 0 for i in mine)
            assert sum(rows.played[i] for i in mine) == 1  # the card the player led
            assert 2 <= group - 16 * deal.number <= play_training.LAST_TRICK
            positions += 1
    assert positions > 0


def test_where_the_player_searched_its_rows_hold_the_search_s_choice():
    searched = 0
    for deal in bank.read(first=40, limit=3):
        rows = play_training.deal_rows(deal, Bidders(None), defence.DEFENCE_LEADS, think=0.3)
        at = defence.NAMES.index
        for row, played in zip(rows.x, rows.played, strict=True):
            if row[at("searched")]:
                searched += 1
                assert row[at("search_pick")] == played and row[at("search_layouts")] >= 4
                assert row[at("search_tricks_short")] >= 0
                assert 0 <= row[at("search_best_share")] <= 1 and row[at("search_spread")] >= 0
                assert row[at("search_best_share_short")] >= 0
        # In every searched position some card is best on the most layouts.
        for group in set(rows.group):
            shorts = [row[at("search_best_share_short")] for row, g in
                      zip(rows.x, rows.group, strict=True) if g == group and row[at("searched")]]
            assert not shorts or min(shorts) == 0
    assert searched > 0


def test_a_defence_lead_s_labels_are_the_solver_s_tricks_given_away():
    game = _east_on_lead()
    at = game.claim_position()
    tricks = solve([Position(at.hands, at.trump, at.leader)])[0]
    best = max(tricks.values())
    assert best - tricks[Card.parse("QS")] == 0  # cashing the master spade costs nothing


@pytest.fixture(scope="module")
def tiny_defence_model(tmp_path_factory) -> tuple[Path, Path, dict]:
    """Training on 50 bank deals, as CI does to keep the training code working: the
    model, its rows and its card."""
    return train_tiny_play(defence_training, tmp_path_factory.mktemp("defence"), 300, 50)


def test_training_on_50_deals_writes_a_model_and_its_card(tiny_defence_model):
    model, rows, card = tiny_defence_model
    assert json.loads(card_path(model).read_text()) == card
    assert card["features"] == list(defence.NAMES)
    assert card["bank_deals"][0] >= 300 and card["bank_deals"][1] <= 349
    data = np.load(rows)
    assert card["rows"] == data["x"].shape[0] and card["positions"] == len(set(data["group"]))
    lost = card["held_out_tricks_lost"]
    assert card["held_out_positions"] > 0 and lost["learned"][0] >= 0
    assert lost["card_search"][0] >= 0 and lost["positions_differing"] >= 0
    assert card["rows_commands"] == [
        f"python -m bot.ai.bridge.learning.defence_training make --first 300 --deals 50 "
        f"--out {rows}"]


def test_a_saved_model_loads_and_gives_the_same_values(tiny_defence_model):
    model_path, rows, _ = tiny_defence_model
    model = defence.load(model_path)
    assert model is not None
    x = np.load(rows)["x"].astype(np.float64)
    assert np.array_equal(model.forest.predict(x), Forest.load(model_path).predict(x))


def test_a_model_of_the_first_features_reads_the_rows_without_the_spread(
        tiny_defence_model, tmp_path):
    _, rows, _ = tiny_defence_model
    out = tmp_path / "first.npz"
    card = defence_training.train([rows], out, trees=5, leaves=3, held_out=5, command="t",
                                  first_features=True)
    assert card["features"] == list(defence.FIRST_NAMES) != list(defence.NAMES)
    model = defence.load(out)
    assert model is not None and model.forest.features == len(defence.FIRST_NAMES)
    # At the table it reads the first columns of the rows the code makes now.
    game = _east_on_lead()
    view = game.view(1)
    cards = [Card.parse(t[5:]) for t in game.legal(1)]
    outcome = Outcome(cards[0], dict.fromkeys(cards, 0.0), dict.fromkeys(cards, 4.0), 8,
                      dict.fromkeys(cards, 0.5), dict.fromkeys(cards, 1.0))
    read = trick_play.read_of(view, _context(view))
    assert read is not None
    full = np.asarray(defence.defence_rows(view, _context(view), cards, read, outcome))
    scores = Forest.load(out).predict(full[:, :len(defence.FIRST_NAMES)])
    assert model.choose(view, cards, outcome) == cards[int(np.argmax(scores))]
    # The command line's switch reaches the training, and its card names it.
    assert defence_training.main(["train", "--rows", str(rows), "--out", str(out), "--trees",
                                  "5", "--leaves", "3", "--first-features"]) == 0
    card = json.loads(card_path(out).read_text())
    assert card["features"] == list(defence.FIRST_NAMES) and "--first-features" in card["command"]
    # Rows of another width are refused.
    narrow = tmp_path / "narrow.npz"
    data = dict(np.load(rows))
    np.savez(narrow, **(data | {"x": data["x"][:, :-1]}))
    with pytest.raises(SystemExit, match="not this code's"):
        defence_training.train([narrow], tmp_path / "no.npz", trees=5, leaves=3,
                               held_out=5, command="t")


def test_the_defence_leads_by_the_model_reading_the_search_as_served_the_same_each_time(
        tiny_defence_model):
    game = _east_on_lead()
    served_by_model(defence.DEFENCE_LEADS, tiny_defence_model[0], game.view(1), game.legal(1))
    # Declarer's cards are not the defence's leads.
    assert not defence.is_defence_lead(game.view(0))


def test_the_shipped_model_loads_with_its_card_and_the_served_player_leads_by_it():
    card = json.loads(card_path(defence.DEFAULT).read_text())
    assert "python -m bot.ai.bridge.learning.defence_training make " in card["rows_commands"][0]
    assert "--out bot/ai/bridge/learning/models/defence_leads.npz" in card["command"]
    lost = card["held_out_tricks_lost"]
    assert lost["learned"][0] < lost["top_of_longest_suit"][0]
    model = defence.load(defence.DEFAULT)
    assert model is not None
    player = make_player("bridge", 5, "bridge-advanced")
    assert isinstance(player, AdvancedBridgePlayer)
    assert player.learned_defence == defence.DEFAULT
    game = _east_on_lead()
    view, legal = game.view(1), game.legal(1)
    action, back = think_as_served(player, view, legal, Budget(0.3))
    assert isinstance(back, AdvancedBridgePlayer) and back.last_outcome is not None
    chosen = model.choose(view, [Card.parse(t[5:]) for t in legal], back.last_outcome)
    assert chosen is not None and action == "play:" + chosen.text


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_broken_model_leaves_the_defence_s_lead_to_the_card_search_with_one_log_line(
        tiny_defence_model, tmp_path, caplog, monkeypatch, damage):
    broken = broken_copy(tiny_defence_model[0], tmp_path / "defence_leads.npz", damage)
    monkeypatch.setattr(defence.SHELF, "loaded", {})
    game = _east_on_lead()
    view, legal = game.view(1), game.legal(1)
    said = broken_model_says_once(defence.DEFENCE_LEADS, broken, view, legal, caplog)
    assert "the defence's leads are the card search's" in said
