"""Deal pictures: every game's finished deals draw as PNGs of a sensible size, built only
from the deal's public summary. (Their drawing time is measured by bench/pictures.py.)"""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from bot.render.pictures.deals import DealPicture
from tests.render.pictures_helpers import GAMES, NAMES, finished_deal

BYTES_MAX = 400 * 1024
SIDE_MAX = 1000
GENEROUS_SECONDS = 2.0  # CPU per picture, only to catch a runaway (target: 50 ms)


@pytest.mark.parametrize("game", GAMES)
def test_random_finished_deals_draw_within_bounds(game: str) -> None:
    for seed in range(3):
        summary = finished_deal(game, seed)
        picture = DealPicture(game, game.title(), 7, NAMES[game], summary)
        started = time.process_time()
        data = picture.render()
        assert time.process_time() - started < GENEROUS_SECONDS
        assert len(data) <= BYTES_MAX
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        assert 400 <= image.width <= SIDE_MAX and 300 <= image.height <= SIDE_MAX
        assert picture.filename == f"deal-7-{summary.deal_no}.png"


def test_different_deals_draw_differently() -> None:
    drawn = {DealPicture("bridge", "Bridge", 1, NAMES["bridge"],
                         finished_deal("bridge", seed)).render() for seed in range(3)}
    assert len(drawn) == 3


def test_a_long_name_and_unusual_letters_still_draw() -> None:
    names = ("Zoë — the very long name of somebody 🎉", "B", "C", "D")
    data = DealPicture("spades", "Spades", 1, names, finished_deal("spades", 1)).render()
    assert Image.open(io.BytesIO(data)).width <= SIDE_MAX


# -- the pictures say what the text says ---------------------------------------------------

def test_tennis_picture_shows_errors_as_errors_and_each_players_bids_beside_them() -> None:
    from bot.render.pictures.board import CARD_SIZES, PANEL_WIDTH
    from bot.render.pictures.games.tennis import bid_card_x, errors_line

    summary = finished_deal("tennis", 5)
    line = errors_line(summary, ("Ann", "Bob"))
    assert line.startswith("Errors this game (fewer is better): ")
    assert f"Ann {summary.errors[0]}" in line and "+" not in line
    (left, left_card), (right, right_card) = bid_card_x(0), bid_card_x(1)
    assert left + PANEL_WIDTH < left_card < left_card + CARD_SIZES[1] < right_card < right
    assert right_card + CARD_SIZES[1] <= right, "the second player's bids left of their hands"
    image = Image.open(io.BytesIO(DealPicture("tennis", "Tennis", 3, ("Ann", "Bob"),
                                              summary).render()))
    assert right + PANEL_WIDTH < image.width, "every bid card inside the picture"


def test_single_dummy_picture_names_declarer_as_the_text_does() -> None:
    from bot.render.games import text_for
    from bot.render.pictures.games import single_dummy
    from bot.render.seating import Seating

    summary = finished_deal("single_dummy", 5)
    seating = Seating(seat_names=("South", "West"), names=("Ann", "Bob bot"),
                      user_ids=(1, None), bots=(False, True))
    board = single_dummy.draw(DealPicture("single_dummy", "Single Dummy Bridge", 3,
                                          ("Ann", "Bob bot"), summary))
    assert board.image.width > 0
    said = text_for("single_dummy").deal_lines(summary, seating)[0]
    declarer = seating.who(summary.contract.declarer)  # "West (Bob bot)"
    assert f"by {declarer}" in said.replace("**", "")
    picture_headline = (f"{summary.contract.label} by {declarer}")
    assert picture_headline in single_dummy.headline_of(summary, ("Ann", "Bob bot"))


def test_no_centre_box_line_runs_over_its_edge() -> None:
    from bot.render.pictures.board import font
    from bot.render.pictures.deals import CENTRE_INSIDE, centre_lines

    lines = centre_lines(["7NT redoubled by North", "13 tricks to declarer",
                          "took the revealed dummy"])
    assert " ".join(text for text, first in lines if first) == "7NT redoubled by North"
    for text, first in lines:
        assert font(22 if first else 19).getlength(text) <= CENTRE_INSIDE, text
    assert len(lines) <= 4
