"""Single Dummy's deal picture: both players and both dummies, the contract and result."""

from __future__ import annotations

from bot.games.single_dummy_view import DealSummary
from bot.render.games.common import outcome, plural, score_lines

from ..board import Board
from ..deals import DealPicture, around


def draw(picture: DealPicture) -> Board:
    s: DealSummary = picture.summary  # this game's summary
    # Hands by index 0 South, 1 West, 2 North, 3 East; hand h belongs to player h % 2.
    order = (2, 3, 0, 1)  # top, right, bottom, left
    names = ("South", "West", "North (dummy)", "East (dummy)")
    titles = [f"{names[h]} · {picture.names[h % 2]}" for h in order]
    if s.contract is None:
        headline, centre, marked = "Thrown in: both passed", ["Passed out"], None
    else:
        won = s.tricks[s.contract.declarer]
        declarer = picture.names[s.contract.declarer]
        headline = f"{s.contract.label} by {declarer}: {outcome(s.contract, won)}"
        centre = [s.contract.label, plural(won, "trick") + " to declarer"]
        if s.dummy_choice is not None:
            centre.append(f"{s.dummy_choice} dummy taken")
        marked = order.index(s.contract.declarer)
    notes = [f"tricks {s.tricks[h % 2]}" if h < 2 else "" for h in order]
    return around(picture, [s.hands[h] for h in order], titles, notes, centre, headline,
                  score_lines([s.line], picture.names[:2]), marked)


DRAW = draw
