"""Tennis' deal picture: each player's Forehand and Backhand with their bid cards and tricks."""

from __future__ import annotations

from bot.games.tennis_rules import bid_value
from bot.games.tennis_views import TennisDealSummary
from bot.render.games.common import score_lines

from ..board import CARD_SIZES, PANEL_HEIGHT, PANEL_WIDTH, Board
from ..deals import MARGIN, DealPicture, draw_footer, draw_header, footer_lines


def draw(picture: DealPicture) -> Board:
    s: TennisDealSummary = picture.summary  # this game's summary
    width = 2 * PANEL_WIDTH + 3 * MARGIN + 90
    top = 72
    footer = footer_lines(score_lines(s.lines, picture.names[:2]), width)
    height = top + 2 * (PANEL_HEIGHT + 12) + 4 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    trump = "notrump" if s.trump is None else f"{s.trump.symbol} trumps"
    draw_header(board, picture, f"Set {s.set_no}, game {s.game_no} · {trump}")
    for seat in (0, 1):
        x = MARGIN + seat * (PANEL_WIDTH + MARGIN + 90)
        for row, (kind, hands, bids, tricks) in enumerate((
                ("Forehand", s.forehands, s.forehand_bids, s.forehand_tricks),
                ("Backhand", s.backhands, s.backhand_bids, s.backhand_tricks))):
            y = top + row * (PANEL_HEIGHT + 12)
            bid = bids[seat]
            made = tricks[seat] == bid_value(bid)
            board.panel(x, y, f"{picture.names[seat]} · {kind}", hands[seat],
                        f"bid {bid_value(bid)} · won {tricks[seat]}", highlight=made)
            board.card(x + PANEL_WIDTH + 12, y + 54, bid, CARD_SIZES[1])
    draw_footer(board, footer, top + 2 * (PANEL_HEIGHT + 12) + 4)
    return board


DRAW = draw
