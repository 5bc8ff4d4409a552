"""Tennis' deal picture: each player's Forehand and Backhand with their bid cards and tricks."""

from __future__ import annotations

from bot.games.tennis_rules import bid_value
from bot.games.tennis_views import TennisDealSummary

from ..board import CARD_SIZES, PANEL_HEIGHT, PANEL_WIDTH, Board
from ..deals import MARGIN, DealPicture, draw_footer, draw_header, footer_lines
from ..shapes import MUTED


def errors_line(s: TennisDealSummary, names: tuple[str, ...]) -> str:
    """The game's errors as the text counts them (fewer is better): the panels show the
    bids and tricks they come from."""
    errors = " · ".join(f"{name} {count}" for name, count in zip(names[:2], s.errors,
                                                                 strict=True))
    return f"Errors this game (fewer is better): {errors}"


def bid_card_x(seat: int) -> tuple[int, int]:
    """Where a player's hands and bid cards go (x of the panels, x of the cards): the
    first player's bids right of their hands, the second's left of theirs, so each
    player's bids lie on their own side of the middle."""
    beside = CARD_SIZES[1] + 24
    x = MARGIN if seat == 0 else 2 * MARGIN + PANEL_WIDTH + 2 * beside
    return x, (x + PANEL_WIDTH + 12 if seat == 0 else x - beside + 12)


def draw(picture: DealPicture) -> Board:
    s: TennisDealSummary = picture.summary  # this game's summary
    card = CARD_SIZES[1]
    beside = card + 24  # a bid card's column, next to its own player's hands
    width = 2 * (PANEL_WIDTH + beside) + 3 * MARGIN
    top = 72
    footer = footer_lines([errors_line(s, picture.names)], width)
    height = top + 2 * (PANEL_HEIGHT + 12) + 4 + 24 * len(footer) + MARGIN
    board = Board(width, height)
    trump = "notrump" if s.trump is None else f"{s.trump.symbol} trumps"
    draw_header(board, picture, f"Set {s.set_no}, game {s.game_no} · {trump}")
    for seat in (0, 1):
        x, card_x = bid_card_x(seat)
        for row, (kind, hands, bids, tricks) in enumerate((
                ("Forehand", s.forehands, s.forehand_bids, s.forehand_tricks),
                ("Backhand", s.backhands, s.backhand_bids, s.backhand_tricks))):
            y = top + row * (PANEL_HEIGHT + 12)
            bid = bids[seat]
            made = tricks[seat] == bid_value(bid)
            board.panel(x, y, f"{picture.names[seat]} · {kind}", hands[seat],
                        f"bid {bid_value(bid)} · won {tricks[seat]}", highlight=made)
            board.text((card_x, y + 26), "bid", 16, MUTED)
            board.card(card_x, y + 54, bid, card)
    draw_footer(board, footer, top + 2 * (PANEL_HEIGHT + 12) + 4)
    return board


DRAW = draw
