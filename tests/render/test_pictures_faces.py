"""Card faces and the back: 128x128 PNGs small enough to be Discord emojis, all distinct."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.cards import Suit, card, deck
from bot.render.pictures.faces import SIZE, back_png, face, face_png
from bot.render.pictures.shapes import RED

EMOJI_BYTES_MAX = 256 * 1024


def test_every_face_and_the_back_are_distinct_128px_pngs_within_the_emoji_limit() -> None:
    images = [face_png(c) for c in deck()] + [back_png()]
    assert len(images) == 53
    pixels = set()
    for data in images:
        assert len(data) <= EMOJI_BYTES_MAX
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and image.size == (SIZE, SIZE) == (128, 128)
        pixels.add(image.convert("RGBA").tobytes())
    assert len(pixels) == 53


def _reddish(pixel: tuple[int, ...]) -> bool:
    r, g, b, a = pixel
    return a > 200 and r > 150 and g < 90 and b < 90


def test_hearts_and_diamonds_are_red_spades_and_clubs_are_not() -> None:
    for text in ("AH", "7D", "AS", "7C"):
        image = face(card(text)).convert("RGBA")
        raw = image.tobytes()
        red = sum(1 for i in range(0, len(raw), 4) if _reddish(tuple(raw[i:i + 4])))
        if card(text).suit in (Suit.HEARTS, Suit.DIAMONDS):
            assert red > 1000, text
        else:
            assert red == 0, text
    assert _reddish((*RED, 255))
