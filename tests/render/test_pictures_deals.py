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
