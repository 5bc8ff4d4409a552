"""The phone previewer: message bodies (embed and Components V2) drawn as a phone shows
them, their lines counted; and the public table of every game about 15 lines."""

from __future__ import annotations

import pytest

from bot.render import emojis
from bot.render import messages as m
from bot.render.preview import draw
from bot.render.sample_tables import FAKE_IDS, deal_end, public_table
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
# status lines; 19 (Bridge) to 23 (Single Dummy) since. Not yet 15: see docs/components-v2.md.
PHONE_LINES = 23


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
