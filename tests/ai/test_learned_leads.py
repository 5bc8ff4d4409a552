"""The learned opening lead: a card's features worked out by hand, a deal's rows and their
labels against the solver, training on a few deals, a saved model loading to the same
values, the player leading by it as served (the same seed, the same lead), and a broken
model leaving the lead to the card search with one log line."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from bot.ai import Budget, make_player
from bot.ai.bridge.advanced import AdvancedBridgePlayer
from bot.ai.bridge.bidding.system import context_of
from bot.ai.bridge.learning import bank, leads, leads_training
from bot.ai.bridge.learning.forest import Forest
from bot.ai.bridge.learning.reading import Reading
from bot.ai.bridge.learning.values import card_path
from bot.ai.core.dds import Position, solve
from bot.games.bridge_auction import CALL_BY_TEXT, Contract, Strain
from bot.games.cards import Card, parse_hand
from bot.tables.thinking import think_as_served
from tests.ai.helpers import DAMAGES, bridge_play_position, broken_copy, steady, train_tiny


def _calls(*texts: tuple[int, str]):
    return [(seat, CALL_BY_TEXT[text]) for seat, text in texts]


def test_a_lead_s_features_worked_out_by_hand():
    # North opens 1♥, South raises to 4♥ and East leads (declarer North, dummy South):
    # East holds ♠KQJ5 ♥73 ♦A9842 ♣65. LHO is South (dummy), RHO North (declarer).
    calls = _calls((0, "bid:1H"), (1, "pass"), (2, "bid:4H"), (3, "pass"),
                   (0, "pass"), (1, "pass"), (2, "pass"))
    hand = parse_hand("KQJ5.73.A9842.65")
    ctx = context_of(1, calls)
    contract = Contract(4, Strain.HEARTS, 0)
    king, queen, five = Card.parse("KS"), Card.parse("QS"), Card.parse("5S")
    # A reading of the others' points and lengths (LHO dummy, partner, RHO declarer).
    read = Reading(1, ((11.0, 2.0, 3.0, 4.0, 4.0), (6.0, 4.0, 3.0, 1.5, 4.5),
                       (14.0, 3.0, 2.0, 5.5, 2.5)), ((1.0,) * 5,) * 3, (9.0,) * 5, (3.0,) * 5)
    rows = leads.lead_rows(hand, ctx, contract, (True, False), [king, queen, five], read)
    k, q, low = (dict(zip(leads.NAMES, row, strict=True)) for row in rows)
    assert (k["contract_level"], k["contract_strain"], k["contract_doubled"]) == (4, 2, 0)
    assert k["declarer_vulnerable"] == 1.0 and k["contract_game"] == 1.0
    assert k["contract_slam"] == 0.0 and k["hcp"] == 10
    assert (k["dummy_read_hcp"], k["partner_read_hcp"], k["declarer_read_hcp"]) == (11, 6, 14)
    assert (k["dummy_read_len"], k["partner_read_len"], k["declarer_read_len"]) == (4, 4.5, 2.5)
    assert (k["card_rank"], k["card_trump"], k["card_notrump"]) == (13, 0.0, 0.0)
    assert (k["suit_len"], k["suit_hcp"]) == (4, 6)
    assert (k["suit_a"], k["suit_k"], k["suit_q"], k["suit_j"], k["suit_t"]) == (0, 1, 1, 1, 0)
    assert (k["from_top"], k["below"], k["sequence_len"]) == (0, 3, 3)
    assert (k["heads_sequence"], k["inside_sequence"]) == (1.0, 0.0)
    assert (q["from_top"], q["heads_sequence"], q["inside_sequence"], q["sequence_len"]) == (
        1, 0.0, 1.0, 2)
    assert (low["from_top"], low["below"], low["heads_sequence"], low["sequence_len"]) == (
        3, 0, 0.0, 1)
    assert k["trump_len"] == 2 and k["singleton"] == 0.0 and k["doubleton"] == 0.0
    assert k["dummy_bid_it"] == 0.0 and k["declarer_bid_it"] == 0.0
    # In hearts, declarer bid the suit and shows five or more; dummy raised it.
    heart = dict(zip(leads.NAMES, leads.lead_rows(hand, ctx, contract, (True, False),
                                                  [Card.parse("7H")], read)[0], strict=True))
    assert heart["declarer_read_len"] == 5.5 and heart["partner_read_len"] == 1.5
    assert heart["card_trump"] == 1.0 and heart["doubleton"] == 1.0
    assert heart["declarer_bid_it"] == 1.0 and heart["dummy_bid_it"] == 1.0
    assert heart["declarer_min_len"] >= 5 and heart["dummy_min_len"] >= 3
    assert heart["partner_bid_it"] == 0.0


def test_a_deal_s_rows_are_the_leader_s_13_cards_labelled_by_the_solver():
    deals = list(bank.read(first=3, limit=4))
    x, y, numbers = leads_training.deal_rows(deals, None)
    assert len(x) == len(y) == len(numbers) and len(x) % 13 == 0 and x
    assert all(len(row) == len(leads.NAMES) for row in x)
    for number in sorted(set(numbers)):
        mine = [i for i, n in enumerate(numbers) if n == number]
        assert len(mine) == 13 and min(y[i] for i in mine) == 0  # the best lead loses none
    # The first labelled deal again by hand: the tables bid it, the solver scores the leads.
    deal = next(d for d in deals if d.number == numbers[0])
    first = [i for i, n in enumerate(numbers) if n == deal.number]
    rank = leads.NAMES.index("card_rank")
    contract = _contract_by_tables(deal)
    leader = (contract.declarer + 1) % 4
    tricks = solve([Position(deal.hands, contract.trump, leader)])[0]
    best = max(tricks.values())
    for i, card in zip(first, deal.hands[leader], strict=True):
        assert x[i][rank] == card.rank and y[i] == best - tricks[card]


def _contract_by_tables(deal: bank.BankDeal) -> Contract:
    from bot.ai.bridge.learning.rollouts import Bidders
    contract = Bidders(None).finish(deal, [])
    assert contract is not None
    return contract


@pytest.fixture(scope="module")
def tiny_lead_model(tmp_path_factory) -> tuple[Path, Path]:
    """Training on 50 bank deals, as CI does to keep the training code working: the model
    and its rows."""
    pytest.importorskip("lightgbm")  # the "learn" extra; the players need numpy only
    out, rows, card = train_tiny(leads_training, tmp_path_factory.mktemp("leads"), 200, 50)
    assert card["bank_deals"][0] >= 200 and card["bank_deals"][1] <= 249
    assert card["features"] == list(leads.NAMES) and card["rows"] == 13 * card["deals"]
    return out, rows


def test_training_on_50_deals_writes_a_model_and_its_card(tiny_lead_model):
    model, rows = tiny_lead_model
    card = json.loads(card_path(model).read_text())
    assert card["rows_commands"] == [
        f"python -m bot.ai.bridge.learning.leads_training make --first 200 --deals 50 "
        f"--out {rows}"]
    lost = card["held_out_tricks_lost"]
    assert card["held_out_deals"] > 0 and lost["learned"][0] >= 0
    assert lost["top_of_longest_suit"][0] >= 0


def test_a_saved_model_loads_and_gives_the_same_values(tiny_lead_model):
    model_path, rows = tiny_lead_model
    model = leads.load(model_path)
    assert model is not None
    data = np.load(rows)
    again = Forest.load(model_path).predict(data["x"].astype(np.float64))
    assert np.array_equal(model.forest.predict(data["x"].astype(np.float64)), again)


def test_the_player_leads_by_the_model_as_served_and_the_same_seed_leads_the_same(
        tiny_lead_model, monkeypatch):
    monkeypatch.setattr(leads.SHELF, "default", tiny_lead_model[0])
    monkeypatch.setattr(leads.SHELF, "loaded", {})
    game = bridge_play_position(1)
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    assert leads.is_opening_lead(view)
    model = leads.shared()
    assert model is not None
    chosen = model.choose(view, [Card.parse(t[5:]) for t in legal])
    assert chosen is not None
    wanted = "play:" + chosen.text
    for _ in range(2):
        player = make_player("bridge", 5, "bridge-advanced")
        action, back = think_as_served(player, view, legal, Budget(0.3))
        assert action == wanted and isinstance(back, AdvancedBridgePlayer)
        assert back.last_layouts == 0  # no layout was solved for it
    # After the lead nobody else's card is the opening lead.
    game.apply(seat, wanted)
    assert not leads.is_opening_lead(game.view(next(iter(game.to_act()))))


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_broken_model_leaves_the_lead_to_the_card_search_with_one_log_line(
        tiny_lead_model, tmp_path, caplog, monkeypatch, damage):
    broken = broken_copy(tiny_lead_model[0], tmp_path / "opening_leads.npz", damage)
    monkeypatch.setattr(leads.SHELF, "default", broken)
    monkeypatch.setattr(leads.SHELF, "loaded", {})
    game = bridge_play_position(1)
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    searching = make_player("bridge", 5, "bridge-advanced")
    assert isinstance(searching, AdvancedBridgePlayer)
    searching.learned_leads = False
    with caplog.at_level(logging.ERROR, logger=leads.__name__):
        for _ in range(2):
            player = make_player("bridge", 5, "bridge-advanced")
            assert player.choose(view, legal, steady(0.3)) == searching.choose(
                view, legal, steady(0.3))
    lines = [r for r in caplog.records if r.name == leads.__name__]
    assert len(lines) == 1 and "the lead is searched like any card" in lines[0].getMessage()


def test_without_the_hand_reading_the_lead_is_searched(tiny_lead_model, monkeypatch):
    from bot.ai.bridge.learning import reading
    monkeypatch.setattr(leads.SHELF, "default", tiny_lead_model[0])
    monkeypatch.setattr(leads.SHELF, "loaded", {})
    monkeypatch.setattr(reading.SHELF, "loaded", {reading.DEFAULT: None})  # it did not load
    game = bridge_play_position(1)
    seat = next(iter(game.to_act()))
    view, legal = game.view(seat), game.legal(seat)
    model = leads.shared()
    assert model is not None and model.choose(view, [Card.parse(t[5:]) for t in legal]) is None
    searching = make_player("bridge", 5, "bridge-advanced")
    assert isinstance(searching, AdvancedBridgePlayer)
    searching.learned_leads = False
    player = make_player("bridge", 5, "bridge-advanced")
    assert player.choose(view, legal, steady(0.3)) == searching.choose(view, legal, steady(0.3))


def test_the_shipped_model_loads_with_its_card_and_leads_from_a_solid_suit():
    card = json.loads(card_path(leads.DEFAULT).read_text())
    assert "python -m bot.ai.bridge.learning.leads_training make " in card["command"]
    assert "--out bot/ai/bridge/learning/models/opening_leads.npz" in card["command"]
    assert card["deals"] > 0 and card["rows"] == 13 * card["deals"]
    lost = card["held_out_tricks_lost"]
    assert lost["learned"][0] < lost["top_of_longest_suit"][0]
    model = leads.load(leads.DEFAULT)
    assert model is not None
    # 1NT - 3NT, and East holds ♠KQJT9 ♥732 ♦84 ♣652: a spade honour.
    calls = _calls((0, "bid:1NT"), (1, "pass"), (2, "bid:3NT"), (3, "pass"), (0, "pass"),
                   (1, "pass"))
    hand = parse_hand("KQJT9.732.84.652")
    ctx = context_of(1, calls)
    read = leads.read_of(hand, ctx, (False, False))
    assert read is not None
    scores = model.scores(hand, ctx, Contract(3, Strain.NOTRUMP, 0), (False, False), hand, read)
    best = hand[int(np.argmax(scores))]
    assert best.text in ("KS", "QS", "JS")
