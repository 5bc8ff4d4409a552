"""Drawing primitives: suit symbols as shapes, fonts, colours, PNG encoding.

Suits are drawn as polygons and circles (no font needed for ♠♥♦♣); text uses Pillow's
built-in font (Aileron, released into the public domain, shipped inside Pillow), so
nothing depends on the fonts a host happens to have. Drawing happens at SCALE times the
final size and is then reduced, which gives smooth edges.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.games.cards import Suit

SCALE = 4  # supersampling factor for smooth edges
RED = (200, 16, 40)
BLACK = (20, 20, 24)
WHITE = (255, 255, 255)
FELT = (22, 92, 58)
FELT_DARK = (14, 66, 41)
INK = (240, 240, 232)  # text on the felt
MUTED = (176, 208, 186)
GOLD = (246, 196, 68)

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom


def suit_colour(suit: Suit) -> Colour:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; card pictures need it")
    return loaded


def _heart(draw: ImageDraw.ImageDraw, box: Box, fill: Colour, flip: bool = False) -> None:
    """A heart filling `box`; `flip` turns it upside down (the body of a spade)."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    r = w * 0.27
    lobe_y = top + h * 0.30 if not flip else bottom - h * 0.30
    tip_y = bottom if not flip else top
    for cx in (left + r, right - r):
        draw.ellipse((cx - r, lobe_y - r, cx + r, lobe_y + r), fill=fill)
    # The lower body: from the outer edges of the lobes down to the tip.
    side_y = lobe_y + r * 0.35 if not flip else lobe_y - r * 0.35
    draw.polygon([(left + w * 0.005, side_y), (right - w * 0.005, side_y),
                  (left + w / 2, tip_y)], fill=fill)
    # Fill the notch between the lobes' lower halves.
    draw.rectangle((left + r, lobe_y - (0 if not flip else r * 0.2),
                    right - r, lobe_y + (r * 0.2 if not flip else 0)), fill=fill)


def _stem(draw: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    cx = left + w / 2
    draw.polygon([(cx - w * 0.05, top + h * 0.55), (cx + w * 0.05, top + h * 0.55),
                  (cx + w * 0.22, bottom), (cx - w * 0.22, bottom)], fill=fill)


def draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, box: Box, fill: Colour | None = None
              ) -> None:
    """The suit's symbol filling `box` (best square), in its colour unless `fill` says."""
    colour = fill or suit_colour(suit)
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    if suit is Suit.HEARTS:
        _heart(draw, (left, top + h * 0.04, right, bottom - h * 0.02), colour)
    elif suit is Suit.DIAMONDS:
        cx, cy = left + w / 2, top + h / 2
        draw.polygon([(cx, top), (right - w * 0.1, cy), (cx, bottom), (left + w * 0.1, cy)],
                     fill=colour)
    elif suit is Suit.SPADES:
        _heart(draw, (left, top, right, top + h * 0.80), colour, flip=True)
        _stem(draw, box, colour)
    else:  # clubs
        r = w * 0.235
        cx = left + w / 2
        centres = [(cx, top + r), (left + r, top + h * 0.52), (right - r, top + h * 0.52)]
        for x, y in centres:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        draw.polygon([(cx, top + r), (left + r * 1.2, top + h * 0.52),
                      (right - r * 1.2, top + h * 0.52)], fill=colour)
        _stem(draw, box, colour)


def canvas(width: int, height: int, background: tuple[int, ...] = (0, 0, 0, 0)
           ) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A supersampled RGBA canvas for a picture of width x height."""
    image = Image.new("RGBA", (width * SCALE, height * SCALE), background)
    return image, ImageDraw.Draw(image)


def finish(image: Image.Image) -> Image.Image:
    """The supersampled canvas reduced to its final size."""
    return image.resize((image.width // SCALE, image.height // SCALE), Image.Resampling.LANCZOS)


def png(image: Image.Image, fast: bool = False) -> bytes:
    """PNG bytes: smallest for emojis (made once); `fast` for pictures made per deal
    (zlib level 3: a third of the time of the default for a few percent more bytes)."""
    out = io.BytesIO()
    if fast:
        image.save(out, format="PNG", compress_level=3)
    else:
        image.save(out, format="PNG", optimize=True)
    return out.getvalue()
