"""A picture of a finished deal, for the end-of-deal message: every hand as dealt, who sat
where, and what the deal was about (contract, bids, result). Built only from the deal's
public summary (`view.previous_deal`), which exists once the deal is over.

`DealPicture` holds plain frozen data, so it can be rendered in a worker process. Each
game's drawer is `DRAW` in `bot.render.pictures.games.<name>` (found by the game's name);
the layouts they share (four hands around a table, a header, a footer) are here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.cards import Card

from .board import PANEL_HEIGHT, PANEL_WIDTH, Board, wrap
from .shapes import GOLD, INK, MUTED

MARGIN = 16
FOOTER_LINES = 4
CENTRE_LINES = 4  # lines in the box at the table's centre
SIDES4 = ("North-South", "East-West")
COMPASS = ("North", "East", "South", "West")


@dataclass(frozen=True, slots=True)
class DealPicture:
    """What a deal's picture shows: the game, the table, who sat where, the summary."""

    game: str
    title: str
    table_id: int
    names: tuple[str, ...]  # per seat, as the messages name the players
    summary: Any  # the game's frozen deal summary
    description: str = ""  # the picture's text for screen readers (Discord's alt text)
    deal_word: str = "deal"  # what the match calls its deals ("board": duplicate bridge)

    @property
    def filename(self) -> str:
        return f"deal-{self.table_id}-{self.summary.deal_no}.png"

    def render(self) -> bytes:
        draw: Callable[[DealPicture], Board] = importlib.import_module(
            f"bot.render.pictures.games.{self.game}").DRAW
        return draw(self).png()


def draw_header(board: Board, picture: DealPicture, headline: str) -> None:
    """The picture's first lines: which table and deal, then the headline (smaller, or
    cut short, rather than run over the picture's edge)."""
    board.text((MARGIN, 10), f"{picture.title} · table #{picture.table_id} · "
               f"{picture.deal_word} {picture.summary.deal_no}", 18, MUTED)
    headline, size = board.fit(headline, 24, board.image.width - 2 * MARGIN, smallest=18)
    board.text((MARGIN, 34 + (24 - size) * 0.6), headline, size, INK)


def footer_lines(lines: Sequence[str], width: int, most: int = FOOTER_LINES) -> list[str]:
    """The deal's score lines, wrapped to the picture's width (at most `most` lines)."""
    out = [part for line in lines for part in wrap(line, 18, width - 2 * MARGIN)]
    return out[:most]


def draw_footer(board: Board, lines: Sequence[str], y: int) -> None:
    for i, line in enumerate(lines):
        board.text((MARGIN, y + i * 24), line, 18, MUTED)


def around(picture: DealPicture, hands: Sequence[Sequence[Card]], titles: Sequence[str],
           notes: Sequence[str], centre: Sequence[str], headline: str,
           footer: Sequence[str], marked: int | None = None) -> Board:
    """Four hands around a table: 0 on top, 1 right, 2 bottom, 3 left."""
    width = 3 * PANEL_WIDTH + 4 * MARGIN
    top = 72
    footer = footer_lines(footer, width)
    height = top + 3 * (PANEL_HEIGHT + 8) + 8 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    draw_header(board, picture, headline)
    middle_x = 2 * MARGIN + PANEL_WIDTH
    spots = [(middle_x, top), (middle_x + PANEL_WIDTH + MARGIN, top + PANEL_HEIGHT + 8),
             (middle_x, top + 2 * (PANEL_HEIGHT + 8)), (MARGIN, top + PANEL_HEIGHT + 8)]
    for index, (x, y) in enumerate(spots):
        board.panel(x, y, titles[index], hands[index], notes[index],
                    highlight=index == marked)
    box_top = top + PANEL_HEIGHT + 8 + 30
    board.draw.rounded_rectangle((middle_x + 20, box_top, middle_x + PANEL_WIDTH - 20,
                                  box_top + PANEL_HEIGHT - 36), radius=12,
                                 outline=MUTED, width=2)
    for i, (line, first) in enumerate(centre_lines(centre)):
        board.text((middle_x + 34, box_top + 10 + i * 26), line, 22 if first else 19,
                   GOLD if first else INK)
    draw_footer(board, footer, top + 3 * (PANEL_HEIGHT + 8) + 8)
    return board


CENTRE_INSIDE = PANEL_WIDTH - 40 - 2 * 14  # the width of the centre box's text


def centre_lines(centre: Sequence[str]) -> list[tuple[str, bool]]:
    """The centre box's lines (and whether each is the first line's, drawn larger): each
    wrapped to the box's inside, at most CENTRE_LINES in all, so none runs over its edge."""
    return [(part, i == 0) for i, line in enumerate(centre)
            for part in wrap(line, 22 if i == 0 else 19, CENTRE_INSIDE)][:CENTRE_LINES]


def seat_title(picture: DealPicture, seat: int, seat_name: str, dealer: int) -> str:
    name = picture.names[seat]
    title = name if name.startswith(seat_name) else f"{seat_name} · {name}"
    return title + (" (dealer)" if seat == dealer else "")


def card_row(board: Board, x: int, y: int, cards: Sequence[Card], size: int) -> None:
    for i, card in enumerate(cards):
        board.card(x + i * (size - 8), y, card, size)
