"""A match of a fixed number of deals (daily deals, challenges) says which deal of how
many is being played, not a target it does not play to."""

from __future__ import annotations

import random

import pytest

from bot.games import create, game_class
from bot.render.games import text_for
from bot.render.seating import Seating


@pytest.mark.parametrize("name", ["spades", "single_dummy", "bidfair"])
def test_a_fixed_number_of_deals_is_shown_as_deal_k_of_n(name: str) -> None:
    cls = game_class(name)
    seating = Seating(seat_names=tuple(cls.SEAT_NAMES), names=("Ann", "Bob", "Cy", "Di")
                      [:cls.SEATS], user_ids=(None,) * cls.SEATS, bots=(True,) * cls.SEATS)
    text = text_for(name)
    game = create(name, options={"deals": 3}, seed=6)
    rng = random.Random(6)
    seen = set()
    while not game.finished:
        view = game.view(None)
        line = text.status_lines(view, seating)[0]
        assert f"deal {view.deal_no} of 3" in line and "first" not in line
        seen.add(view.deal_no)
        seat = min(game.to_act())
        game.apply(seat, rng.choice([str(m) for m in game.legal(seat)
                                     if not str(m).startswith(("claim", "undo"))]))
    assert seen == {1, 2, 3}
    assert "deal 3 of 3" in text.status_lines(game.view(None), seating)[0]
    to_target = create(name, seed=6).view(None)
    assert "first" in text.status_lines(to_target, seating)[0]
