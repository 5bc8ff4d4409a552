"""Card faces and the card back at 128x128, made to be read at emoji size.

Discord shows an emoji at about 22 pixels in text and on buttons, so a face is not a
miniature playing card: the rank and the suit fill the card, large and in the suit's
colour (red hearts and diamonds, black spades and clubs) on white.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.cards import Card, Rank

from .shapes import SCALE, WHITE, canvas, draw_suit, finish, font, png, suit_colour

SIZE = 128
BACK_BLUE = (38, 84, 160)
BACK_LIGHT = (120, 164, 228)

# The card's outline inside the square, in final pixels: a little narrower than tall.
_CARD = (10, 2, 118, 126)
_RADIUS = 14


def _blank(fill: tuple[int, int, int], border: tuple[int, int, int]
           ) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image, draw = canvas(SIZE, SIZE)
    box = tuple(v * SCALE for v in _CARD)
    draw.rounded_rectangle(box, radius=_RADIUS * SCALE, fill=fill, outline=border,
                           width=3 * SCALE)
    return image, draw


def _rank_text(draw: ImageDraw.ImageDraw, rank: Rank, colour: tuple[int, int, int]) -> None:
    """The rank, big, centred in the card's upper part ("10" a little narrower)."""
    text = rank.label
    size = (58 if text == "10" else 66) * SCALE
    face = font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face, stroke_width=2 * SCALE)
    width, height = right - left, bottom - top
    spare_x = (_CARD[0] + _CARD[2]) * SCALE / 2 - width / 2
    spare_y = 10 * SCALE + (60 * SCALE - height) / 2
    draw.text((spare_x - left, spare_y - top), text, font=face, fill=colour,
              stroke_width=2 * SCALE, stroke_fill=colour)


@lru_cache(maxsize=64)
def face(card: Card) -> Image.Image:
    """The card's face: big rank above, big suit symbol below."""
    colour = suit_colour(card.suit)
    image, draw = _blank(WHITE, (150, 150, 150))
    _rank_text(draw, card.rank, colour)
    s = SCALE
    draw_suit(draw, card.suit, (34 * s, 74 * s, 94 * s, 121 * s))
    return finish(image)


@lru_cache(maxsize=1)
def back() -> Image.Image:
    """The back: a blue lattice in a white frame, nothing like any face."""
    image, draw = _blank(WHITE, (150, 150, 150))
    s = SCALE
    inner = (18 * s, 10 * s, 110 * s, 118 * s)
    draw.rounded_rectangle(inner, radius=8 * s, fill=BACK_BLUE)
    step = 14 * s
    lattice = Image.new("RGBA", image.size, (0, 0, 0, 0))
    lines = ImageDraw.Draw(lattice)
    for offset in range(-SIZE * s, 2 * SIZE * s, step):
        lines.line([(offset, 0), (offset + SIZE * s, SIZE * s)], fill=BACK_LIGHT, width=3 * s)
        lines.line([(offset, SIZE * s), (offset + SIZE * s, 0)], fill=BACK_LIGHT, width=3 * s)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=8 * s, fill=255)
    image.paste(lattice, (0, 0), Image.composite(lattice, Image.new("RGBA", image.size),
                                                 mask).getchannel("A"))
    draw.rounded_rectangle(inner, radius=8 * s, outline=WHITE, width=2 * s)
    return finish(image)


def face_png(card: Card) -> bytes:
    return png(face(card))


def back_png() -> bytes:
    return png(back())
