"""Duplicate boards (team matches, daily deals, challenges) are called boards in every
text and picture a player sees, a thrown-in one included, and show no running total of
points (each board is compared elsewhere, in IMPs or against a field); rubber bridge keeps
its deals and its running score."""

from __future__ import annotations

import re

from bot.games import create
from bot.games.base import Game
from bot.render import messages as m
from bot.render.pictures.deals import DealPicture
from bot.render.seating import Seating

SEATING = Seating(seat_names=("North", "East", "South", "West"),
                  names=("Ann", "Bob", "Cy", "Di"), user_ids=(1, 2, 3, 4), bots=(False,) * 4)
DEAL = re.compile(r"\bdeal (\d|is)", re.IGNORECASE)


def _thrown_in(options: dict[str, object]) -> tuple[Game, list[str]]:
    """A bridge match whose first deal all four passed (the second is being bid), and
    what its events said (the table's log of moves)."""
    game = create("bridge", options=options, seed=3)
    said = []
    for _ in range(4):
        said += [event.text for event in game.apply(min(game.to_act()), "pass")]
    return game, said


def _everything_shown(game: Game, said: list[str]) -> list[str]:
    view, seat = game.view(None), min(game.to_act())
    table = m.public_table(7, "bridge", game.TITLE, view, SEATING, said, [seat])
    hand = m.hand(7, "bridge", game.TITLE, seat, game.view(seat), game.legal(seat), 0,
                  SEATING)
    ended = m.deal_end(7, "bridge", game.TITLE, view, SEATING)
    assert ended is not None and ended.picture is not None
    texts = [str(e.to_dict()) for msg in (table, ended) for e in msg.embeds]
    texts += [*said, hand.content or "",
              *(f"{line.label}: {line.note}" for line in view.score.lines),
              f"{ended.picture.deal_word} {ended.picture.summary.deal_no}",
              m.last_trick(7, "bridge", game.TITLE, view, SEATING).content or ""]
    return texts


def test_a_duplicate_board_is_called_a_board_everywhere_a_thrown_in_one_too() -> None:
    game, said = _thrown_in({"boards": 4})
    shown = _everything_shown(game, said)
    assert game.scores().lines[0].label == "Board 1"
    assert any("board 1 is over" in text for text in shown)
    assert any("board 2" in text for text in shown)
    assert "All four passed: the board is thrown in." in said
    for text in shown:
        assert not DEAL.search(text), text
    drawn = DealPicture("bridge", game.TITLE, 7, SEATING.names, game.view(None).previous_deal,
                        deal_word=game.view(None).deal_word)
    assert drawn.render().startswith(b"\x89PNG")


def test_duplicate_boards_show_no_running_score_and_rubber_bridge_does() -> None:
    for options, running in (({"boards": 4}, False), ({}, True)):
        game, _ = _thrown_in(options)
        view = game.view(None)
        table = m.public_table(7, "bridge", game.TITLE, view, SEATING, [], [])
        ended = m.deal_end(7, "bridge", game.TITLE, view, SEATING)
        assert ended is not None
        footer = table.embeds[0].footer.text or ""
        fields = [f.name for f in ended.embeds[0].fields]
        assert ("Score:" in footer) is running and ("Score" in fields) is running
    rubber = _everything_shown(*_thrown_in({}))
    assert any("deal 1 is over" in text for text in rubber)


def test_a_duplicate_tables_end_names_no_winner_by_points() -> None:
    game = create("bridge", options={"boards": 1}, seed=3)
    for _ in range(4):
        game.apply(min(game.to_act()), "pass")
    result = game.result()
    assert result is not None
    ended = m.match_end(7, game.TITLE, result, game.scores(), SEATING)
    text = str(ended.embeds[0].to_dict())
    assert "every board played" in text and "Board 1: 0 / 0 — thrown in" in text
    assert "final standings" not in text and "🏆" not in text
    closed = m.public_table(7, "bridge", game.TITLE, game.view(None), SEATING, [], [],
                            closed_note="The match is over.")
    assert closed.embeds[0].footer.text is None
