"""Rating math (bot/ratings/model.py) and per-game figures (bot/ratings/figures.py)."""

from __future__ import annotations

import pytest

from bot.ai import make_player, player_kinds
from bot.games import create
from bot.ratings.figures import figure_names, match_figures
from bot.ratings.model import Rating, SeatResult, outcome_of, outcomes, rate


def test_two_player_win_moves_both_ratings():
    after = rate([SeatResult("u:1", 0, 0), SeatResult("u:2", 1, 1)], {})
    assert after["u:1"].mu > Rating().mu > after["u:2"].mu
    assert after["u:1"].sigma < Rating().sigma and after["u:2"].sigma < Rating().sigma
    assert after["u:1"].conservative > after["u:2"].conservative


def test_beating_a_strong_player_is_worth_more_than_beating_a_weak_one():
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    over_strong = rate([SeatResult("u:1", 0, 0), SeatResult("u:9", 1, 1)], {"u:9": strong})
    over_weak = rate([SeatResult("u:1", 0, 0), SeatResult("u:9", 1, 1)], {"u:9": weak})
    assert over_strong["u:1"].mu - Rating().mu > over_weak["u:1"].mu - Rating().mu > 0


def test_partnership_rates_each_partner_from_the_side_result():
    seats = [SeatResult("u:1", 0, 0), SeatResult("u:2", 1, 1), SeatResult("u:3", 0, 0),
             SeatResult("u:4", 1, 1)]
    after = rate(seats, {"u:3": Rating(30.0, 4.0)})
    assert after["u:1"].mu > 25 and after["u:3"].mu > 30
    assert after["u:2"].mu < 25 and after["u:4"].mu < 25
    # The partner with the more certain rating moves less.
    assert after["u:3"].mu - 30 < after["u:1"].mu - 25


def test_draw_keeps_equal_players_level_and_more_certain():
    after = rate([SeatResult("u:1", 0, 0), SeatResult("u:2", 1, 0)], {})
    assert after["u:1"].mu == pytest.approx(after["u:2"].mu)
    assert after["u:1"].mu == pytest.approx(Rating().mu)
    assert after["u:1"].sigma < Rating().sigma
    assert outcome_of(0, [0, 0]) == "draw" and outcome_of(0, [0, 1]) == "win"
    assert outcome_of(1, [0, 1]) == "loss"


def test_draw_with_a_stronger_player_gains():
    after = rate([SeatResult("u:1", 0, 0), SeatResult("u:2", 1, 0)],
                 {"u:2": Rating(35.0, 3.0)})
    assert after["u:1"].mu > 25 and after["u:2"].mu < 35


def test_a_bot_kind_has_its_own_rating_and_partners_of_one_kind_update_once():
    seats = [SeatResult("u:1", 0, 1), SeatResult("b:spades-basic", 1, 0),
             SeatResult("u:2", 0, 1), SeatResult("b:spades-basic", 1, 0)]
    after = rate(seats, {"b:spades-basic": Rating(20.0, 2.0)})
    assert set(after) == {"u:1", "u:2", "b:spades-basic"}
    assert after["b:spades-basic"].mu > 20.0
    assert outcomes(seats) == {"u:1": "loss", "u:2": "loss", "b:spades-basic": "win"}


def test_a_bot_kind_on_both_sides_played_itself_and_is_left_out():
    seats = [SeatResult("u:1", 0, 0), SeatResult("b:k", 1, 1), SeatResult("b:k", 0, 0),
             SeatResult("u:2", 1, 1)]
    before = {"b:k": Rating(30.0, 4.0)}
    after = rate(seats, before)
    assert "b:k" not in after and "b:k" not in outcomes(seats)
    assert outcomes(seats) == {"u:1": "win", "u:2": "loss"}
    assert after["u:1"].mu > 25.0 > after["u:2"].mu, "the people are still rated"

def test_one_side_only_changes_nothing():
    assert rate([SeatResult("u:1", 0, 0)], {"u:1": Rating(30, 2)}) == {"u:1": Rating(30, 2)}


def _played(name: str, seed: int, options: dict | None = None):
    game = create(name, options=options or {}, seed=seed)
    # The rule-based level (the last listed): the figures are counted, not the play judged.
    players = [make_player(name, seed * 7 + s, player_kinds(name)[-1])
               for s in range(game.SEATS)]
    while not game.finished:
        seat = min(game.to_act())
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    return game


@pytest.mark.parametrize("name", ["bridge", "single_dummy", "spades", "tennis", "bidfair"])
def test_figures_count_only_known_figures_and_never_more_successes_than_tries(name):
    game = _played(name, 5, {"target": 200} if name in ("spades", "bidfair") else None)
    figures = match_figures(name, game.options, game.seed, game.history)
    if name != "spades":  # a Spades match may pass without a nil bid
        assert figures, "a whole match has something to count"
    for seat, counts in figures.items():
        assert 0 <= seat < game.SEATS
        assert set(counts) <= set(figure_names(name))
    pairs = {"bridge": [("made", "declared"), ("slams_made", "slams_bid")],
             "single_dummy": [("made", "declared")],
             "spades": [("nil_made", "nil_bids"), ("double_nil_made", "double_nil_bids")],
             "bidfair": [("fulfilled", "contracts")], "tennis": []}[name]
    for seat_counts in figures.values():
        for done, tried in pairs:
            assert seat_counts.get(done, 0) <= seat_counts.get(tried, 0)


def test_tennis_figures_match_the_score_sheet():
    game = _played("tennis", 2)
    figures = match_figures("tennis", game.options, game.seed, game.history)
    sheet = game.scores()
    for seat in (0, 1):
        assert figures[seat]["games"] == len(sheet.lines) == 10
        assert figures[seat]["errors"] == sum(line.points[seat] for line in sheet.lines)


def test_bidfair_figures_match_the_deal_notes():
    game = _played("bidfair", 4, {"target": 300})
    figures = match_figures("bidfair", game.options, game.seed, game.history)
    notes = [line.note for line in game.scores().lines]
    made = sum("made" in n for n in notes)
    held = sum("had to capture" in n for n in notes)
    assert sum(c.get("fulfilled", 0) for c in figures.values()) == made
    assert sum(c.get("contracts", 0) for c in figures.values()) == held


def test_spades_nil_figures_match_the_bids_and_tricks():
    game = _played("spades", 3)
    figures = match_figures("spades", game.options, game.seed, game.history)
    replay = create("spades", options=game.options, seed=game.seed)
    expected: dict[int, dict[str, int]] = {}
    for seat, action in game.history:
        for event in replay.apply(seat, action):
            if event.kind == "deal_end":
                for s, bid in enumerate(event.bids):
                    if bid == "nil":
                        counts = expected.setdefault(s, {})
                        counts["nil_bids"] = counts.get("nil_bids", 0) + 1
                        made = int(event.tricks[s] == 0)
                        counts["nil_made"] = counts.get("nil_made", 0) + made
    assert expected, "this seed has nil bids"
    for seat, counts in expected.items():
        assert figures[seat]["nil_bids"] == counts["nil_bids"]
        assert figures[seat]["nil_made"] == counts["nil_made"]


def test_the_rating_math_imports_only_openskill_and_the_stdlib():
    import ast
    import sys
    from pathlib import Path

    import bot.ratings.model as model

    tree = ast.parse(Path(model.__file__).read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    names |= {node.module or "" for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom)}
    tops = {name.split(".")[0] for name in names}
    assert tops - set(sys.stdlib_module_names) - {"__future__"} == {"openskill"}
