"""A felt board to draw a deal on: text with suit symbols inline, hand panels, small
cards. Drawn at final size (FreeType smooths the letters); suit symbols and card faces
are drawn once, supersampled, and pasted from a cache, so a whole diagram takes a few
milliseconds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.cards import Card, Suit, by_suit, deck

from .faces import face
from .shapes import (
    BLACK,
    FELT,
    FELT_DARK,
    INK,
    MUTED,
    SCALE,
    WHITE,
    Colour,
    canvas,
    draw_suit,
    finish,
    font,
    png,
    suit_colour,
)

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SYMBOLS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
LIGHT_RED = (255, 128, 128)
PANEL_WIDTH = 250
ROW = 27  # one suit's line in a hand panel
TITLE = 44  # a panel's title line and its note line
PANEL_HEIGHT = TITLE + 4 * ROW + 10
# Characters the built-in font lacks, written with ones it has.
_PLAIN = str.maketrans({"—": "-", "–": "-", "…": "...", "’": "'"})


def wrap(text: str, size: int, width: float) -> list[str]:
    """`text` cut into lines no wider than `width` at this font size (suits count as a
    letter's width)."""
    face_font = font(size)
    lines: list[str] = []
    line = ""
    for word in text.translate(_PLAIN).split(" "):
        candidate = f"{line} {word}" if line else word
        if line and face_font.getlength(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


# The caches hold at least what `warm` draws (112 sprites, 159 small cards), with room
# for the previews' other sizes: smaller, each warmed piece pushed an earlier one out.
@lru_cache(maxsize=256)
def suit_sprite(suit: Suit, size: int, colour: Colour | None = None) -> Image.Image:
    image, draw = canvas(size, size)
    draw_suit(draw, suit, (0, 0, size * SCALE, size * SCALE), colour)
    return finish(image)


@lru_cache(maxsize=256)
def small_card(card: Card | None, size: int) -> Image.Image:
    """A card face (or, for None, the back) at `size` pixels square."""
    from .faces import back

    return (back() if card is None else face(card)).resize((size, size),
                                                           Image.Resampling.LANCZOS)


CARD_SIZES = (56, 64, 72)  # the small cards the deal pictures use


def warm() -> None:
    """Draw the cached pieces ahead (about half a second of CPU and 8 MB, once per
    process), so no deal's picture pays for them: call it where the pictures are drawn
    (the workers' set-up), off the event loop."""
    for size in CARD_SIZES:
        small_card(None, size)
        for card in deck():
            small_card(card, size)
    for size in range(14, 25):  # the text sizes used, and suit symbols inline in text
        font(size)
        for suit in Suit:
            for tint in (None, INK, LIGHT_RED):
                suit_sprite(suit, round(size * 0.8), tint)
    for suit in Suit:
        suit_sprite(suit, 18)


class Board:
    """One picture: a felt background and drawing helpers in final pixels."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width, height), FELT)
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def _pieces(text: str, size: int) -> tuple[list[tuple[str, Suit | None]], list[float]]:
        """`text` as runs of letters and single suit symbols, and each one's width."""
        face_font = font(size)
        pieces: list[tuple[str, Suit | None]] = []
        run = ""
        for char in text.translate(_PLAIN):
            if char in SYMBOLS:
                if run:
                    pieces.append((run, None))
                run = ""
                pieces.append((char, SYMBOLS[char]))
            else:
                run += char
        if run:
            pieces.append((run, None))
        symbol = round(size * 0.8)
        return pieces, [symbol + 2 if suit is not None else face_font.getlength(piece)
                        for piece, suit in pieces]

    @classmethod
    def measure(cls, text: str, size: int) -> float:
        """How wide `text` is drawn at `size`."""
        return sum(cls._pieces(text, size)[1])

    @classmethod
    def fit(cls, text: str, size: int, width: float, smallest: int = 15) -> tuple[str, int]:
        """`text` and a size at which it fits in `width`: smaller, down to `smallest`,
        then cut short before its last bracket ("Long Name… (dealer)")."""
        while cls.measure(text, size) > width and size > smallest:
            size -= 1
        if cls.measure(text, size) <= width:
            return text, size
        head, bracket, tail = text.rpartition(" (")
        head, end = (head, bracket + tail) if bracket else (text, "")
        while head and cls.measure(head.rstrip() + "…" + end, size) > width:
            head = head[:-1]
        return head.rstrip() + "…" + end, size

    def text(self, xy: tuple[float, float], text: str, size: int = 20,
             colour: Colour = INK, anchor_right: bool = False) -> float:
        """Write `text` with ♠♥♦♣ drawn as shapes; returns the x where it ends."""
        face_font = font(size)
        symbol = round(size * 0.8)
        pieces, widths = self._pieces(text, size)
        x, y = xy
        if anchor_right:
            x -= sum(widths)
        for (piece, suit), width in zip(pieces, widths, strict=True):
            if suit is None:
                self.draw.text((x, y), piece, font=face_font, fill=colour)
            else:
                # On the felt a black suit would vanish: light symbols there.
                tint = (LIGHT_RED if suit_colour(suit) != BLACK else INK) \
                    if colour == INK else None
                sprite = suit_sprite(suit, symbol, tint)
                self.image.paste(sprite, (round(x), round(y + size * 0.22)), sprite)
            x += width
        return x

    def panel(self, x: int, y: int, title: str, cards: Sequence[Card], note: str = "",
              width: int = PANEL_WIDTH, highlight: bool = False) -> int:
        """A hand: a title and a note line on the felt, then a white panel with a row
        per suit (spades first, high to low). Returns the bottom y. The title stays
        within the panel's width (smaller, or a long name cut short)."""
        title, size = self.fit(title, 19, width - 8)
        self.text((x + 4, y + (19 - size) * 0.6), title, size, INK)
        if note:
            self.text((x + 4, y + 22), note, 16, MUTED)
        top = y + TITLE
        bottom = top + 4 * ROW + 10
        self.draw.rounded_rectangle((x, top, x + width, bottom), radius=10, fill=WHITE,
                                    outline=(246, 196, 68) if highlight else FELT_DARK,
                                    width=3 if highlight else 1)
        groups = by_suit(cards)
        rank_font = font(21)
        for row, suit in enumerate(SUIT_ORDER):
            ry = top + 6 + row * ROW
            sprite = suit_sprite(suit, 18)
            self.image.paste(sprite, (x + 10, ry + 3), sprite)
            ranks = " ".join(c.rank.label for c in groups[suit]) or "-"
            self.draw.text((x + 36, ry), ranks, font=rank_font, fill=BLACK)
        return bottom

    def card(self, x: int, y: int, card: Card | None, size: int = 64) -> None:
        sprite = small_card(card, size)
        self.image.paste(sprite, (x, y), sprite)

    def png(self) -> bytes:
        return png(self.image, fast=True)
