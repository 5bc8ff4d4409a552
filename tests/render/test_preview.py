"""The phone previewer: message bodies (embed and Components V2) drawn as a phone shows
them, their lines counted; and the public table of every game about 15 lines."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import create, replay
from bot.games.events import DealEnded
from bot.render import emojis
from bot.render import messages as m
from bot.render.games import text_for
from bot.render.preview import draw
from bot.render.sample_tables import FAKE_IDS, TABLE_ID, deal_end, public_table, seating
from bot.render.v2 import (
    CONTAINER,
    IS_COMPONENTS_V2,
    MAX_COMPONENTS,
    MAX_TEXT,
    MEDIA_GALLERY,
    count_components,
    text_length,
    v2_body,
)

GAMES = ("bridge", "spades", "single_dummy", "tennis", "bidfair")
# The public table mid-play, text lines as a phone lays them out (wrapped at its width,
# the ping line counted): the aim is about 15. Measured with this previewer on these deals
# (seed 3): 23 (Bridge) to 27 (Single Dummy) before one latest move, no footer and shorter
# status lines; 19 (Bridge) to 23 (Single Dummy) since; 15 (Spades) to 19 (Single Dummy)
# with the latest move and the score in the footer's small print (no field names), Spades'
# bids once (by side, with who bid what), people by name where the seat's name made lines
# wrap. Single Dummy shows both dummies (six lines): the one game above 18.
PHONE_LINES = 19
# Every moment of a deal (bidding, mid-trick, last trick, between deals), as measured on
# these deals: bidding 9-16, mid-trick 15-19, last trick 14-18, between deals 10-16 (before
# the footer and the shorter lines: 11-18, 19-23, 16-22, 12-19).
MOMENT_LINES = 19


@pytest.fixture
def card_faces():
    before = emojis.current()
    emojis.use(emojis.complete(FAKE_IDS))
    yield
    emojis.use(before)


def test_lines_are_counted_as_wrapped_at_a_phone_width() -> None:
    short = draw({"content": "one line"})
    assert short.lines == 1
    long = draw({"content": "word " * 60})
    assert long.lines >= 4, "300 characters wrap on a phone"
    assert long.image.height > short.image.height
    assert draw({"content": "a\n\nb"}).lines == 3
    assert draw({"content": "```\nN  E\n1C ?\n```"}).lines == 2


def test_an_embed_counts_its_title_fields_and_footer() -> None:
    body = {"embeds": [{"title": "T", "description": "d1\nd2", "color": 0x1F8B4C,
                        "fields": [{"name": "F", "value": "v", "inline": False}],
                        "footer": {"text": "foot"}}]}
    assert draw(body).lines == 1 + 2 + 2 + 1
    rows = {"components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": f"Button {i}", "custom_id": f"b{i}"}
        for i in range(5)]}]}
    assert draw(rows).button_rows >= 2, "five labelled buttons wrap on a phone"


@pytest.mark.parametrize("name", GAMES)
def test_the_public_table_fits_a_phone_in_both_forms(name: str, card_faces: None) -> None:
    sample = public_table(name)
    embed = draw(sample.message.body())
    v2 = draw(v2_body(sample.message))
    assert embed.lines <= PHONE_LINES, f"{name}: {embed.lines} lines as an embed"
    assert embed.button_rows >= 1 and v2.button_rows >= 1
    assert v2.lines >= 1


def _moments(name: str, seed: int = 3) -> dict[str, tuple[Any, list[str]]]:
    """The game (and the latest moves, as the table keeps them) at four moments of a
    match played at random: early in the bidding, mid-trick (the second trick's first
    card), the last trick of the first deal (its first card), and between deals (the
    second deal's start)."""
    game = create(name, options={}, seed=seed)
    rng = random.Random(seed)
    recent: list[str] = []
    snapshots: list[tuple[Any, list[str]]] = []  # before each action of the first deal
    found: dict[str, tuple[Any, list[str]]] = {}
    for _ in range(3000):
        view = game.view(None)
        if view.phase != "play" and len(game.history) == 2 and view.deal_no == 1:
            found["bidding"] = (replay(create(name, {}, seed), game.history), list(recent))
        if view.phase == "play" and view.last_trick is not None and len(view.trick) == 1 \
                and "mid-trick" not in found:
            found["mid-trick"] = (replay(create(name, {}, seed), game.history), list(recent))
        snapshots.append((list(game.history), list(recent)))
        seat = min(game.to_act())
        ended = False
        for event in game.apply(seat, rng.choice(list(game.legal(seat)))):
            if isinstance(event, DealEnded):
                ended = True
                recent.clear()
            if event.text:
                recent.append(event.text)
        if ended:
            # the last trick's first card: the newest snapshot with one card in a trick
            for history, moves in reversed(snapshots):
                last = replay(create(name, {}, seed), history)
                if last.view(None).phase == "play" and len(last.view(None).trick) == 1:
                    found["last trick"] = (last, moves)
                    break
            found["between deals"] = (replay(create(name, {}, seed), game.history),
                                      list(recent))
            return found
    raise AssertionError(f"{name}: the first deal did not end")


@pytest.mark.parametrize("name", GAMES)
def test_every_moment_of_a_deal_fits_a_phone(name: str, card_faces: None) -> None:
    """Bidding, mid-trick, the last trick, between deals: each public table as a phone
    lays it out (wrapped lines, the ping line counted) keeps to MOMENT_LINES, and the
    first line of the embed says whose turn it is."""
    moments = _moments(name)
    assert set(moments) == {"bidding", "mid-trick", "last trick", "between deals"}
    for moment, (game, recent) in moments.items():
        view = game.view(None)
        message = m.public_table(TABLE_ID, name, game.TITLE, view, seating(game), recent,
                                 sorted(game.to_act()))
        preview = draw(message.body())
        assert preview.lines <= MOMENT_LINES, f"{name}, {moment}: {preview.lines} lines"
        first = message.embeds[0].description.splitlines()[0]
        assert first == text_for(name).turn_line(view, seating(game))


@pytest.mark.parametrize("name", GAMES)
def test_the_v2_form_keeps_within_discords_rules(name: str, card_faces: None) -> None:
    for sample in (public_table(name), deal_end(name)):
        body = v2_body(sample.message, picture_first=True)
        assert body["flags"] == IS_COMPONENTS_V2
        assert "content" not in body and "embeds" not in body
        assert count_components(body["components"]) <= MAX_COMPONENTS
        assert text_length(body["components"]) <= MAX_TEXT
        container = next(c for c in body["components"] if c["type"] == CONTAINER)
        assert container["accent_color"] == m.COLOUR.value
        galleries = [c for c in container["components"] if c["type"] == MEDIA_GALLERY]
        if sample.files:  # the end of a deal: its picture, by the attachment's name
            (gallery,) = galleries
            (url,) = [item["media"]["url"] for item in gallery["items"]]
            assert url.removeprefix("attachment://") in sample.files
            assert draw(body, sample.files).image.height > 400
        else:
            assert not galleries
