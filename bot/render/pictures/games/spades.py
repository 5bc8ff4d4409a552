"""Spades' deal picture: the four hands around the table with each seat's bid and tricks."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.spades_scoring import bid_label
from bot.games.spades_view import SpadesDealSummary
from bot.render.games.common import plural, score_lines

from ..board import Board
from ..deals import COMPASS, SIDES4, DealPicture, around, seat_title


def draw(picture: DealPicture) -> Board:
    s: SpadesDealSummary = picture.summary  # this game's summary
    titles = [seat_title(picture, seat, COMPASS[seat], s.dealer) for seat in range(4)]
    notes = [f"bid {bid_label(s.bids[seat])} · won {s.tricks_won[seat]}" for seat in range(4)]
    sides = [f"{SIDES4[side]}: {sum(s.tricks_won[side::2])} tricks, "
             f"{plural(s.bags[side], 'bag')}" for side in (0, 1)]
    centre = ["Spades", *[f"{SIDES4[side][0]}{SIDES4[side].split('-')[1][0]} "
                          f"bid {_side_bid(s.bids, side)}, won {sum(s.tricks_won[side::2])}"
                          for side in (0, 1)]]
    return around(picture, s.hands, titles, notes, centre, " · ".join(sides),
                  score_lines(s.lines, SIDES4))


def _side_bid(bids: Sequence[int], side: int) -> str:
    return str(sum(max(b, 0) for b in bids[side::2]))


DRAW = draw
