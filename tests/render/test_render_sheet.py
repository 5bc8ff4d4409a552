"""The whole score sheet at a match's end: every line, or a clear note where it is cut."""

from __future__ import annotations

from bot.games import ScoreSheet
from bot.games.base import ScoreLine
from bot.render.messages import SHEET_BUDGET, sheet_fields


def _sheet(deals: int) -> ScoreSheet:
    lines = tuple(ScoreLine(f"Deal {n}", (10 * n, -n), "a note") for n in range(1, deals + 1))
    return ScoreSheet(("North-South", "East-West"), lines,
                      (sum(line.points[0] for line in lines), -deals))


def test_a_short_sheet_is_shown_whole():
    fields = sheet_fields(_sheet(10), 7)
    text = "\n".join(value for _name, value, _inline in fields)
    assert all(f"Deal {n}: " in text for n in range(1, 11))
    assert "left out" not in text and fields[0][0] == "Score sheet"


def test_the_sheet_says_each_thing_once():
    """One "Score sheet" heading (later parts are its continuation); the totals are the
    standings' (not a second "Final score"); a long note (a Tennis game's bids and
    tricks, in the deal's own post) is left out of the final sheet."""
    long_note = "First player: Forehand bid 6 won 3, Backhand bid 3 won 4; Second player: x"
    lines = tuple(ScoreLine(f"Set 1 game {n}", (n, 2 * n), long_note) for n in range(1, 60))
    fields = sheet_fields(ScoreSheet(("First", "Second"), lines, (1, 2)), 7)
    names = [name for name, _value, _inline in fields]
    assert names.count("Score sheet") == 1 and "Final score" not in names
    assert all(name == "Score sheet, continued" for name in names[1:] if name != "Earlier lines")
    assert long_note not in "\n".join(value for _name, value, _inline in fields)


def test_a_long_sheet_keeps_its_last_lines_and_says_where_the_whole_one_is():
    fields = sheet_fields(_sheet(400), 7)
    assert all(len(value) <= 1024 for _name, value, _inline in fields)
    text = "\n".join(value for _name, value, _inline in fields)
    assert "Deal 400: " in text and "Deal 1: " not in text
    assert sum(len(value) for _name, value, _inline in fields) < SHEET_BUDGET + 400
    assert "the whole sheet is under **Sheet #7** in `/history`" in fields[-1][1]
    assert len(fields) <= 25
