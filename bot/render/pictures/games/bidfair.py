"""Bid Fair's deal picture: each of the deal's 24 cards once, where it ended (what each
player played, the bid cards, the cut card, the cards nobody played), and the score in
plain words."""

from __future__ import annotations

from dataclasses import replace

from bot.games.bidfair_view import DealSummary
from bot.render.games.bidfair import card_places, contract_result, score_words
from bot.render.games.common import score_lines
from bot.render.text import clip

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

GAP = 40  # between the two players' panels
WIDTH = 2 * PANEL_WIDTH + 3 * MARGIN + GAP
FOOTER = 6  # lines: the points, then what they are made of
NAME = 14  # the most of a name the picture's sentences hold (the panels' titles fit theirs)


def draw(picture: DealPicture) -> Board:
    s: DealSummary = picture.summary  # this game's summary

    def name(seat: int) -> str:
        return clip(picture.names[seat], NAME)

    places = card_places(s, name)
    top = 72
    cards_top = top + PANEL_HEIGHT + 16  # the bid cards and the cut card
    unplayed_top = cards_top + 112  # the cards nobody played
    # The points, their note said in the headline and in words below.
    said = score_lines([replace(s.line, note="")], (name(0), name(1))) if s.line else []
    if s.cut is not None:
        said.append(score_words(s, name))
    footer = footer_lines(said, WIDTH, FOOTER)
    footer_top = unplayed_top + 32 + CARD_SIZES[0] + 16
    board = Board(WIDTH, footer_top + 24 * len(footer) + MARGIN)
    draw_header(board, picture, contract_result(s, name) if s.cut is not None
                else "Both passed: thrown in")
    verb = "played" if s.tricks else "held"
    for seat in (0, 1):
        x = MARGIN + seat * (PANEL_WIDTH + MARGIN + GAP)
        title = seat_title(picture, seat, ("North", "South")[seat], s.dealer)
        note = (f"{verb} · captured {s.captured[seat]}" if s.tricks else verb)
        board.panel(x, top, title, places.played[seat], note, highlight=seat == s.holder)
    board.text((MARGIN, cards_top), "Bid cards", 19, INK)
    for seat in (0, 1):
        bid = s.bids[seat]
        x = MARGIN + seat * 150
        board.text((x, cards_top + 28), clip(picture.names[seat], 14), 15, MUTED)
        if bid is None or bid.card is None:
            board.text((x, cards_top + 56), "passed", 18, INK)
        else:
            board.card(x, cards_top + 48, bid.card, CARD_SIZES[0])
            board.text((x + 62, cards_top + 66), "up" if bid.face_up else "down", 16, INK)
    if s.cut is not None:
        board.text((MARGIN + 320, cards_top), "Cut card", 19, INK)
        board.card(MARGIN + 320, cards_top + 30, s.cut, CARD_SIZES[2])
        trump = "no trumps" if s.trump is None else f"{s.trump.symbol} trumps"
        board.text((MARGIN + 400, cards_top + 56), trump, 18, INK)
    if places.unplayed:
        title, size = board.fit(places.unplayed_title, 19, WIDTH - 2 * MARGIN)
        board.text((MARGIN, unplayed_top), title, size, INK)
        card_row(board, MARGIN, unplayed_top + 30, places.unplayed, CARD_SIZES[0])
    draw_footer(board, footer, footer_top)
    return board


DRAW = draw
