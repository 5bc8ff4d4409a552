"""A message body drawn as Discord lays it out on a phone, to look at it without Discord.

`draw(body, files)` takes the JSON body the bot sends (an embed message: content, colour
bar, title, description, fields, image, footer, button rows; or a Components V2 one:
text displays, a container with its accent colour, separators, a media gallery, action
rows) and draws it in Discord's dark theme at a phone's width, with the card emojis as
our own card faces. It also counts the text lines as laid out (wrapped at that width),
which is what "the table fits a phone screen" is measured in.

The sizes are Discord's mobile app's as seen on a 390-point-wide phone (message text 16,
embed text 14, the avatar's column on the left); Pillow's built-in font stands in for
Discord's, so a wrapped line can fall a word earlier or later than on a real phone.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.games.cards import Suit

from .emojis import card_of_name
from .pictures.board import small_card, suit_sprite
from .pictures.shapes import font

S = 2  # drawn at twice the phone's points, to be looked at
PHONE = 390  # points across a common phone
LEFT, RIGHT = 68, 12  # the message column: after the avatar (16 + 40 + 12), to the edge
COLUMN = PHONE - LEFT - RIGHT
BACKGROUND = (49, 51, 56)  # Discord's dark theme
BOX = (43, 45, 49)  # an embed's or a container's background
TEXT = (219, 222, 225)
WHITE = (242, 243, 245)
MUTED = (148, 155, 164)
CODE = (30, 31, 34)
MENTION = (60, 66, 112)
BUTTONS = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60),
           5: (78, 80, 88)}
SUITS = {s.symbol: s for s in Suit}
PLAIN = re.compile(r"[\u0020-\u00ff]")  # the font draws these; dashes are drawn as lines
STAND_INS = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "…": "..."})
TOKEN = re.compile(r"<a?:(\w+):(\d+)>|<@!?(\d+)>|\*\*|`|\s+|[^\s<*`]+|[<*]")


@dataclass
class Preview:
    image: Image.Image
    lines: int  # text lines as laid out, wrapped ones, field names and blank lines counted
    button_rows: int  # rows of buttons as laid out (a row too wide wraps on a phone)


@dataclass
class _Piece:
    kind: str  # "text", "emoji", "suit", "symbol", "mention", "space"
    value: str
    width: float
    bold: bool = False


@dataclass
class _Canvas:
    image: Image.Image
    draw: ImageDraw.ImageDraw
    y: float = 12
    lines: int = 0
    button_rows: int = 0
    files: Mapping[str, bytes] = field(default_factory=dict)


def _pieces(line: str, size: int) -> list[_Piece]:
    out: list[_Piece] = []
    bold = False
    face = font(size * S)
    for m in TOKEN.finditer(line):
        token = m.group(0)
        if token == "**":
            bold = not bold
        elif token == "`":
            continue
        elif m.group(1):
            out.append(_Piece("emoji", m.group(1), size * 1.375))
        elif m.group(3):
            out.append(_Piece("mention", "@player", face.getlength("@player") / S + 6, bold))
        elif token.isspace():
            out.append(_Piece("space", " ", face.getlength(" ") / S))
        else:
            run = ""
            for char in token.replace("\ufe0f", "").translate(STAND_INS):
                if PLAIN.fullmatch(char):
                    run += char
                    continue
                if run:
                    out.append(_Piece("text", run, face.getlength(run) / S, bold))
                    run = ""
                kind = "suit" if char in SUITS else "symbol"
                wide = {"—": 0.9, "–": 0.55, "→": 0.9}.get(char, 0.9)
                out.append(_Piece(kind, char, size * wide))
            if run:
                out.append(_Piece("text", run, face.getlength(run) / S, bold))
    return out


def _wrap(pieces: list[_Piece], width: float) -> list[list[_Piece]]:
    """Lines of pieces at most `width` wide, broken at spaces."""
    words: list[list[_Piece]] = [[]]
    for piece in pieces:
        if piece.kind == "space":
            words.append([])
        else:
            words[-1].append(piece)
    space = pieces[0].width if pieces and pieces[0].kind == "space" else 4.0
    lines: list[list[_Piece]] = [[]]
    used = 0.0
    for word in words:
        w = sum(p.width for p in word)
        gap = space if lines[-1] else 0.0
        if lines[-1] and used + gap + w > width:
            lines.append([])
            used, gap = 0.0, 0.0
        if gap:
            lines[-1].append(_Piece("space", " ", gap))
        lines[-1].extend(word)
        used += gap + w
    return lines


def _draw_line(c: _Canvas, x: float, pieces: Sequence[_Piece], size: int,
               colour: tuple[int, int, int]) -> None:
    height = round(size * 1.375)
    face = font(size * S)
    for p in pieces:
        px, py = round(x * S), round(c.y * S)
        if p.kind in ("text", "mention"):
            if p.kind == "mention":
                c.draw.rounded_rectangle((px, py, px + round(p.width * S), py + height * S),
                                         radius=3 * S, fill=MENTION)
                px += 3 * S
            c.draw.text((px, py + (height - size) * S // 2), p.value, font=face,
                        fill=colour if p.kind == "text" else WHITE,
                        stroke_width=1 if p.bold else 0,
                        stroke_fill=colour if p.kind == "text" else WHITE)
        elif p.kind == "emoji":
            card = card_of_name(p.value)
            side = round(p.width * S)
            image = small_card(card, side) if card is not None or p.value.endswith("back") \
                else Image.new("RGBA", (side, side), MUTED)
            c.image.paste(image, (px, py + (height * S - side) // 2), image)
        elif p.kind == "suit":
            side = round(p.width * S)
            suit = SUITS[p.value]
            sprite = suit_sprite(suit, side, colour if suit.letter in "SC" else None)
            c.image.paste(sprite, (px, py + (height * S - side) // 2), sprite)
        elif p.kind == "symbol":
            side = round(p.width * S * 0.8)
            top = py + (height * S - side) // 2
            if p.value in "—–→":
                mid = py + height * S // 2
                c.draw.line((px + S, mid, px + round(p.width * S) - S, mid), fill=colour,
                            width=max(1, size * S // 12))
            elif p.value in "◀◄":
                c.draw.polygon([(px + side, top), (px + side, top + side),
                                (px, top + side // 2)], fill=colour)
            else:
                c.draw.ellipse((px, top, px + side, top + side), fill=MUTED)
        x += p.width


def _text(c: _Canvas, x: float, width: float, content: str, size: int,
          colour: tuple[int, int, int] = TEXT) -> None:
    """Markdown as Discord shows it: headings, subtext, quotes, code blocks, bold."""
    code = False
    for raw in content.split("\n"):
        if raw.startswith("```"):
            code = not code
            continue
        if code:
            advance = size * 0.6
            height = round(size * 1.3)
            c.draw.rectangle((round(x * S), round(c.y * S), round((x + width) * S),
                              round((c.y + height) * S)), fill=CODE)
            for i, char in enumerate(raw):
                left = round((x + 4 + i * advance) * S)
                if char in SUITS:
                    sprite = suit_sprite(SUITS[char], round(size * 0.8 * S),
                                         TEXT if char in "♠♣" else None)
                    c.image.paste(sprite, (left, round((c.y + 2) * S)), sprite)
                else:
                    c.draw.text((left, round(c.y * S)), char, font=font(size * S), fill=TEXT)
            c.y += height
            c.lines += 1
            continue
        line_size, line_colour, indent, line = size, colour, 0.0, raw
        for mark, heading in (("### ", 20), ("## ", 24), ("# ", 28)):
            if raw.startswith(mark):
                line_size, line_colour, line = heading, WHITE, "**" + raw[len(mark):] + "**"
        if raw.startswith("-# "):
            line_size, line_colour, line = 12, MUTED, raw[3:]
        if raw.startswith("> "):
            indent, line = 12.0, raw[2:]
        for wrapped in _wrap(_pieces(line, line_size), width - indent) if line else [[]]:
            if indent:
                c.draw.rectangle((round(x * S), round(c.y * S), round((x + 3) * S),
                                  round((c.y + line_size * 1.375) * S)), fill=MUTED)
            _draw_line(c, x + indent, wrapped, line_size, line_colour)
            c.y += round(line_size * 1.375)
            c.lines += 1


def _picture(c: _Canvas, x: float, width: float, url: str) -> None:
    name = url.removeprefix("attachment://")
    data = c.files.get(name)
    if data is None:
        height = width * 0.6
        c.draw.rectangle((round(x * S), round(c.y * S), round((x + width) * S),
                          round((c.y + height) * S)), fill=MUTED)
        c.y += height + 8
        return
    image = Image.open(io.BytesIO(data)).convert("RGBA")
    scale = width * S / image.width
    image = image.resize((round(width * S), round(image.height * scale)),
                         Image.Resampling.LANCZOS)
    c.image.paste(image, (round(x * S), round(c.y * S)), image)
    c.y += image.height / S + 8


def _buttons(c: _Canvas, x: float, width: float, row: dict[str, Any]) -> None:
    """A row of buttons; on a phone one that does not fit goes on to the next line."""
    size, height, gap = 14, 32, 8
    face = font(size * S)
    cx = x
    c.button_rows += 1
    for button in row.get("components", []):
        label = str(button.get("label") or "")
        emoji = button.get("emoji")
        w = 24 + face.getlength(label) / S + (24 if emoji else 0)
        if cx > x and cx + w > x + width:
            cx, c.y = x, c.y + height + gap
            c.button_rows += 1
        colour = BUTTONS.get(int(button.get("style", 2)), BUTTONS[2])
        if button.get("disabled"):
            colour = tuple(v // 2 + 20 for v in colour)  # type: ignore[assignment]
        c.draw.rounded_rectangle((round(cx * S), round(c.y * S), round((cx + w) * S),
                                  round((c.y + height) * S)), radius=4 * S, fill=colour)
        lx = cx + 12
        if emoji:
            card = card_of_name(str(emoji.get("name", "")))
            side = 20 * S
            image = small_card(card, side)
            c.image.paste(image, (round(lx * S), round((c.y + 6) * S)), image)
            lx += 24
        _draw_line(c, lx, [_Piece("text", label, 0, True)], size, WHITE)
        cx += w + gap
    c.y += height + gap


def _boxed(c: _Canvas, accent: int | None, fill: Callable[[_Canvas], None]) -> None:
    """An embed or a container: `fill` draws what is inside on a clear layer, then the
    box (its height now known) goes under it, with the colour bar on its left."""
    inner = _Canvas(Image.new("RGBA", c.image.size, (0, 0, 0, 0)), c.draw, y=c.y,
                    files=c.files)
    inner.draw = ImageDraw.Draw(inner.image)
    fill(inner)
    top, bottom = c.y, inner.y
    c.draw.rounded_rectangle((LEFT * S, round(top * S), (LEFT + COLUMN) * S,
                              round(bottom * S)), radius=4 * S, fill=BOX)
    if accent is not None:
        rgb = ((accent >> 16) & 255, (accent >> 8) & 255, accent & 255)
        c.draw.rounded_rectangle((LEFT * S, round(top * S), (LEFT + 4) * S,
                                  round(bottom * S)), radius=2 * S, fill=rgb)
    c.image.alpha_composite(inner.image)
    c.y = bottom + 8
    c.lines += inner.lines
    c.button_rows += inner.button_rows


def _embed(c: _Canvas, embed: dict[str, Any]) -> None:
    _boxed(c, embed.get("color"), lambda inner: _embed_inside(inner, embed))


def _embed_inside(c: _Canvas, embed: dict[str, Any]) -> None:
    c.y += 10
    x, width = LEFT + 16, COLUMN - 28
    if embed.get("title"):
        _text(c, x, width, f"**{embed['title']}**", 16, WHITE)
    if embed.get("description"):
        _text(c, x, width, str(embed["description"]), 14)
    fields = embed.get("fields", [])
    i = 0
    while i < len(fields):  # inline fields side by side, up to three
        group = [fields[i]]
        while (fields[i].get("inline") and i + len(group) < len(fields)
               and fields[i + len(group)].get("inline") and len(group) < 3):
            group.append(fields[i + len(group)])
        c.y += 6
        start, bottom, lines = c.y, c.y, c.lines
        column = (width - 8 * (len(group) - 1)) / len(group)
        most = 0
        for k, f in enumerate(group):
            c.y, c.lines = start, lines
            _text(c, x + k * (column + 8), column, f"**{f['name']}**", 14, WHITE)
            _text(c, x + k * (column + 8), column, str(f["value"]), 14)
            bottom, most = max(bottom, c.y), max(most, c.lines - lines)
        c.y, c.lines = bottom, lines + most
        i += len(group)
    image = (embed.get("image") or {}).get("url")
    if image:
        c.y += 8
        _picture(c, x, width, image)
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        c.y += 6
        _text(c, x, width, footer, 12, MUTED)
    c.y += 10


def _component(c: _Canvas, item: dict[str, Any], x: float, width: float) -> None:
    kind = item.get("type")
    if kind == 1:
        _buttons(c, x, width, item)
    elif kind == 10:
        _text(c, x, width, str(item.get("content", "")), 16)
        c.y += 4
    elif kind == 14:
        space = 16 if item.get("spacing") == 2 else 8
        c.y += space / 2
        if item.get("divider", True):
            c.draw.line((round(x * S), round(c.y * S), round((x + width) * S), round(c.y * S)),
                        fill=(63, 65, 71), width=S)
        c.y += space / 2
    elif kind == 12:
        for media in item.get("items", []):
            _picture(c, x, width, str(media.get("media", {}).get("url", "")))
    elif kind == 17:
        def inside(inner: _Canvas) -> None:
            inner.y += 14
            for part in item.get("components", []):
                _component(inner, part, LEFT + 18, COLUMN - 32)
            inner.y += 4

        _boxed(c, item.get("accent_color"), inside)
    elif kind == 9:  # a section: its texts, the accessory beside them
        for inner in item.get("components", []):
            _component(c, inner, x, width - 90)


def draw(body: Mapping[str, Any], files: Mapping[str, bytes] | None = None,
         name: str = "TrickTable") -> Preview:
    """Draw a message body as a phone shows it; `files` are its attachments by name."""
    image = Image.new("RGBA", (PHONE * S, 3000 * S), (*BACKGROUND, 255))
    c = _Canvas(image, ImageDraw.Draw(image), files=files or {})
    c.draw.ellipse((16 * S, 12 * S, 56 * S, 52 * S), fill=(88, 101, 242))
    _draw_line(c, LEFT, [_Piece("text", name, 0, True)], 16, WHITE)
    c.y += 24
    lines_before = c.lines
    if body.get("content"):
        _text(c, LEFT, COLUMN, str(body["content"]), 16)
        c.y += 4
    for embed in body.get("embeds") or []:
        _embed(c, embed)
    for item in body.get("components") or []:
        _component(c, item, LEFT, COLUMN)
    height = round((c.y + 12) * S)
    return Preview(c.image.crop((0, 0, PHONE * S, height)).convert("RGB"),
                   c.lines - lines_before,
                   c.button_rows)
