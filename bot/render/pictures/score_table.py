"""A comparison score card as a picture (team matches, challenges): a title, a few
heading lines, then a row per deal with each side's result and score and who won it.
Suit symbols in the text are drawn as shapes (the picture font has none)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.games.cards import Suit

from .shapes import FELT, GOLD, INK, MUTED, SCALE, WHITE, canvas, draw_suit, finish
from .shapes import font as picture_font
from .shapes import png as encode_png

WIDTH = 800
ROW = 44
COLUMNS = (24, 100, 380, 680)  # the deal's number, the two sides, who won it
SYMBOLS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
_PLAIN = str.maketrans({"–": "-", "−": "-", "×": "x"})  # not in the picture font

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A heading line under the title."""

    text: str
    size: int
    colour: Colour


@dataclass(frozen=True, slots=True)
class Row:
    """One compared deal: its number, each side's (result notes, score) and who won it
    (`won` False draws the result muted: a tie). A side's notes are the same result
    written ever shorter (`3NT by West, down 2`, `3NT W-2`): the first that fits beside
    its score is drawn."""

    number: int
    sides: tuple[tuple[Sequence[str], str], tuple[Sequence[str], str]]
    result: str
    won: bool


NOTE_SIZES = (20, 18, 16)  # a side's note, in the largest of these that fits
SCORE_SIZE = 22
CELL_GAP = 12  # at least this much between a note and its score


def fit_note(notes: Sequence[str], room: float) -> tuple[str, int]:
    """The note to draw in `room` picture units, and its size: the longest wording at the
    largest size that fits, else the shortest wording at the smallest size, cut short
    with an ellipsis so it still fits."""
    for size in NOTE_SIZES:
        for note in notes:
            if text_width(note, size) <= room:
                return note, size
    note, size = notes[-1], NOTE_SIZES[-1]
    while note and text_width(note + "…", size) > room:
        note = note[:-1]
    return (note.rstrip() + "…" if note else ""), size


def draw_text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int,
              fill: Colour) -> float:
    """Draw `text` at (x, y) in picture units, suit symbols as shapes; returns the end x."""
    face = picture_font(size * SCALE)
    for run in _runs(text.translate(_PLAIN)):
        if run in SYMBOLS:
            side = size * 0.8
            box = (x * SCALE, (y + size * 0.15) * SCALE, (x + side) * SCALE,
                   (y + size * 0.15 + side) * SCALE)
            suit = SYMBOLS[run]
            colour = (232, 64, 64) if suit in (Suit.HEARTS, Suit.DIAMONDS) else WHITE
            draw_suit(draw, suit, box, colour)
            x += side + 2
        else:
            draw.text((x * SCALE, y * SCALE), run, font=face, fill=fill)
            x += face.getlength(run) / SCALE
    return x


def text_width(text: str, size: int) -> float:
    """How wide `draw_text` draws `text` (suit symbols as shapes), in picture units."""
    face = picture_font(size * SCALE)
    return sum(size * 0.8 + 2 if run in SYMBOLS else face.getlength(run) / SCALE
               for run in _runs(text.translate(_PLAIN)))


def _runs(text: str) -> list[str]:
    out: list[str] = []
    for char in text:
        if char in SYMBOLS or not out or out[-1] in SYMBOLS:
            out.append(char)
        else:
            out[-1] += char
    return out


def score_table_png(title: str, lines: Sequence[Line], headings: Sequence[str],
                    rows: Sequence[Row], result_size: int) -> bytes:
    """The picture: `title`, then up to two `lines`, the column `headings` and a row per
    compared deal, every other row on a lighter stripe."""
    height = 150 + ROW * (len(rows) + 1) + 24
    image, draw = canvas(WIDTH, height, (*FELT, 255))
    draw_text(draw, 24, 16, title, 34, GOLD)
    for i, line in enumerate(lines):
        draw_text(draw, 24, 64 + 30 * i, line.text, line.size, line.colour)
    y = 150
    for x, label in zip(COLUMNS, headings, strict=True):
        draw_text(draw, x, y, label, 20, MUTED)
    for row in rows:
        y += ROW
        if row.number % 2 == 0:
            draw.rectangle((0, (y - 6) * SCALE, WIDTH * SCALE, (y + ROW - 6) * SCALE),
                           fill=(18, 80, 50, 255))
        draw_text(draw, COLUMNS[0] + 16, y, str(row.number), 24, INK)
        for x, right, (notes, score) in zip(COLUMNS[1:3], COLUMNS[2:4], row.sides,
                                            strict=True):
            # The score is right-aligned at the column's end; the note gets what is left.
            score_x = right - 2 * CELL_GAP - text_width(score, SCORE_SIZE)
            draw_text(draw, score_x, y, score, SCORE_SIZE, WHITE)
            if any(notes):
                note, size = fit_note(notes, score_x - CELL_GAP - x)
                draw_text(draw, x, y + (SCORE_SIZE - size) * 0.6, note, size, INK)
        draw_text(draw, COLUMNS[3], y, row.result, result_size, GOLD if row.won else MUTED)
    return encode_png(finish(image), fast=True)
