"""Single Dummy's deal picture: both players and both dummies, the contract and result."""

from __future__ import annotations

from bot.games.single_dummy_view import DealSummary
from bot.render.games.common import plural, score_lines

from ..board import Board
from ..deals import DealPicture, around

NAMES = ("South", "West", "North (dummy)", "East (dummy)")


def headline_of(s: DealSummary, players: tuple[str, ...]) -> str:
    """`7NTX by West (Bob): down 6`: declarer named as the text names them, the seat
    then who sits there."""
    if s.contract is None:
        return "Thrown in: both passed"
    declarer = s.contract.declarer
    won = s.tricks[declarer]
    return (f"{s.contract.label} by {NAMES[declarer]} ({players[declarer]}): "
            f"{s.contract.result(won)}")


def draw(picture: DealPicture) -> Board:
    s: DealSummary = picture.summary  # this game's summary
    # Hands by index 0 South, 1 West, 2 North, 3 East; hand h belongs to player h % 2.
    order = (2, 3, 0, 1)  # top, right, bottom, left
    names = NAMES
    titles = [f"{names[h]} · {picture.names[h % 2]}" for h in order]
    if s.contract is None:
        headline, centre, marked = "Thrown in: both passed", ["Passed out"], None
    else:
        won = s.tricks[s.contract.declarer]
        headline = headline_of(s, picture.names)
        centre = [s.contract.label, plural(won, "trick") + " to declarer"]
        if s.dummy_choice is not None:
            centre.append(f"took the {s.dummy_choice} dummy")
        marked = order.index(s.contract.declarer)
    notes = [f"tricks {s.tricks[h % 2]}" if h < 2 else "" for h in order]
    # The headline says the result: the footer gives the points (by seat, as the text).
    return around(picture, [s.hands[h] for h in order], titles, notes, centre, headline,
                  score_lines([s.line], names[:2], first_note=False), marked)


DRAW = draw
