"""The comparison picture of team matches and challenges (bot/render/pictures/
score_table.py): a side's result never runs into its score."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.team_scoring import ComparedBoard, ScoreCard, TableBoard
from bot.render.pictures.score_table import (
    CELL_GAP,
    COLUMNS,
    SCORE_SIZE,
    fit_note,
    text_width,
)
from bot.render.teams import card_png

LONG = ("5♦ redoubled by North, down 3", "5♦ redoubled N-3")


def test_a_result_is_written_in_full_where_it_fits_and_shorter_where_not() -> None:
    side = COLUMNS[2] - COLUMNS[1]
    # as the picture lays a cell out: the score right-aligned, the note left of it
    room_beside_a_score = side - 3 * CELL_GAP - text_width("+100", SCORE_SIZE)
    note, size = fit_note(("3NT by West, down 2", "3NT W-2"), room_beside_a_score)
    assert note == "3NT by West, down 2" and size == 20
    for room in (room_beside_a_score, 150.0, 90.0, 40.0):
        note, size = fit_note(LONG, room)
        assert text_width(note, size) <= room, (room, note)
    assert fit_note(LONG, room_beside_a_score)[0] == "5♦ redoubled N-3"
    assert fit_note(LONG, 40.0)[0].endswith("…")


def test_the_team_card_picture_draws_every_board() -> None:
    card = ScoreCard(2, (ComparedBoard(1, TableBoard(-100, "3NT by West, down 2"),
                                       TableBoard(-600, "3NT by West, made")),
                         ComparedBoard(2, TableBoard(-1100, "5♦XX by North, down 3"),
                                       TableBoard(0, ""))), (2, 2))
    image = Image.open(io.BytesIO(card_png(2, card, {"A": ["Ann"], "B": ["Bob"]})))
    assert image.width == 800 and image.height > 150 + 44 * 2
