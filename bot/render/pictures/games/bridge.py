"""Contract Bridge's deal picture: the four hands around the table, contract and result."""

from __future__ import annotations

from bot.games.bridge_view import DealSummary
from bot.render.games.bridge import vulnerability
from bot.render.games.common import plural, score_lines

from ..board import Board
from ..deals import COMPASS, SIDES4, DealPicture, around, seat_title


def draw(picture: DealPicture) -> Board:
    s: DealSummary = picture.summary  # this game's summary
    vul = vulnerability(s.vulnerable)
    vul = "no one vulnerable" if vul == "neither side" else f"{vul} vulnerable"
    if s.contract is None:
        headline, centre = "Thrown in: all four passed", ["Passed out", vul]
        marked = None
    else:
        won = s.tricks_won[s.contract.declarer % 2]
        headline = (f"{s.contract.label} by {COMPASS[s.contract.declarer]}: "
                    f"{s.contract.result(won)}")
        centre = [s.contract.text(COMPASS), plural(won, "trick") + " to declarer", vul]
        marked = s.contract.declarer
    titles = [seat_title(picture, seat, COMPASS[seat], s.dealer) for seat in range(4)]
    notes = [""] * 4
    if s.contract is not None:
        notes[s.contract.declarer] = "declarer"
        notes[(s.contract.declarer + 2) % 4] = "dummy"
    return around(picture, s.hands, titles, notes, centre, headline,
                  score_lines(s.lines, SIDES4, first_note=False), marked)


DRAW = draw
