"""Bid Fair's deal picture: both hands, the crib, the bid cards and the cut card."""

from __future__ import annotations

from bot.games.bidfair_view import DealSummary
from bot.render.games.common import score_lines

from ..board import CARD_SIZES, PANEL_HEIGHT, PANEL_WIDTH, Board
from ..deals import (
    MARGIN,
    DealPicture,
    card_row,
    draw_footer,
    draw_header,
    footer_lines,
    seat_title,
)
from ..shapes import INK, MUTED


def draw(picture: DealPicture) -> Board:
    s: DealSummary = picture.summary  # this game's summary
    width = 2 * PANEL_WIDTH + 3 * MARGIN + 40
    top = 72
    crib_top = top + PANEL_HEIGHT + 16
    cards_top = crib_top + 40 + 2 * 74
    footer = footer_lines(score_lines([s.line], picture.names[:2]) if s.line else [], width)
    height = cards_top + 112 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    if s.holder is not None and s.contract_value is not None:
        headline = (f"{picture.names[s.holder]} had to capture {s.contract_value}: "
                    f"took {s.captured[s.holder]}")
    else:
        headline = "No contract"
    draw_header(board, picture, headline)
    for seat in (0, 1):
        x = MARGIN + seat * (PANEL_WIDTH + MARGIN + 40)
        title = seat_title(picture, seat, ("North", "South")[seat], s.dealer)
        board.panel(x, top, title, s.hands[seat], f"captured {s.captured[seat]}",
                    highlight=seat == s.holder)
    board.text((MARGIN, crib_top), "The crib" + (" (exchanged)" if s.exchanged else ""),
               19, INK)
    card_row(board, MARGIN, crib_top + 28, [*s.cribs[0], *s.cribs[1]], CARD_SIZES[0])
    if s.remaining_crib:
        board.text((MARGIN, crib_top + 94), "Not played", 16, MUTED)
        card_row(board, MARGIN + 100, crib_top + 92, s.remaining_crib, CARD_SIZES[0])
    board.text((MARGIN, cards_top), "Bid cards", 19, INK)
    for seat in (0, 1):
        bid = s.bids[seat]
        x = MARGIN + seat * 150
        board.text((x, cards_top + 28), picture.names[seat][:12], 15, MUTED)
        if bid is None:
            board.text((x, cards_top + 56), "passed", 18, INK)
        else:
            board.card(x, cards_top + 48, bid.card, CARD_SIZES[0])
            board.text((x + 62, cards_top + 66), "up" if bid.face_up else "down", 16, INK)
    board.text((MARGIN + 320, cards_top), "Cut card", 19, INK)
    if s.cut is not None:
        board.card(MARGIN + 320, cards_top + 30, s.cut, CARD_SIZES[2])
        trump = "no trumps" if s.trump is None else f"{s.trump.symbol} trumps"
        board.text((MARGIN + 400, cards_top + 56), trump, 18, INK)
    draw_footer(board, footer, cards_top + 112)
    return board


DRAW = draw
