"""Sample public tables and end-of-deal posts of every game, drawn as a phone shows them
in both forms (embed, Components V2) side by side: `python -m bot render-samples` writes
them as `compare-<message>-<game>.png` so the forms can be looked at and chosen."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from bot.games import Game, create
from bot.games.events import DealEnded

from . import emojis, ids
from . import messages as render
from .components import button
from .preview import BACKGROUND, WHITE, Preview, draw
from .seating import Seating
from .v2 import v2_body

PEOPLE = ("Ann", "Bob", "Carl", "Dee")
TABLE_ID = 3
FAKE_IDS = {name: 1_000_000 + i for i, name in enumerate(emojis.NAMES)}  # drawn as our faces


@dataclass
class Sample:
    message: render.Message
    files: dict[str, bytes]


def seating(game: Game[Any]) -> Seating:
    """Ann, Carl: people; the others computer players (their names say so)."""
    n = game.SEATS
    bots = tuple(s % 2 == 1 for s in range(n))
    names = tuple(f"{PEOPLE[s]} bot" if bots[s] else PEOPLE[s] for s in range(n))
    return Seating(seat_names=tuple(game.SEAT_NAMES), names=names,
                   user_ids=tuple(None if bots[s] else 1000 + s for s in range(n)), bots=bots)


def into_second_trick(name: str, seed: int = 3) -> tuple[Game[Any], list[str]]:
    """A game played at random until a trick is complete and the next has one card; and
    the latest moves as the table lists them."""
    game = create(name, options={}, seed=seed)
    rng = random.Random(seed)
    recent: list[str] = []
    for _ in range(2000):
        view = game.view(None)
        if view.phase == "play" and view.last_trick is not None and len(view.trick) == 1:
            return game, recent
        seat = min(game.to_act())
        for event in game.apply(seat, rng.choice(list(game.legal(seat)))):
            if isinstance(event, DealEnded):  # as the table service keeps its log
                recent.clear()
            if event.text:
                recent.append(event.text)
    raise AssertionError(f"{name}: no second trick reached")


def public_table(name: str, seed: int = 3) -> Sample:
    game, recent = into_second_trick(name, seed)
    message = render.public_table(TABLE_ID, name, game.TITLE, game.view(None), seating(game),
                                  recent, sorted(game.to_act()))
    return Sample(message, {})


def deal_end(name: str, seed: int = 3) -> Sample:
    game = create(name, options={}, seed=seed)
    rng = random.Random(seed)
    while game.view(None).previous_deal is None:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(list(game.legal(seat))))
    extra = [button(ids.make("rec", TABLE_ID, 1), "Hand record")] \
        if game.HAND_RECORDS else []
    message = render.deal_end(TABLE_ID, name, game.TITLE, game.view(None), seating(game),
                              extra)
    assert message is not None and message.picture is not None
    png = message.picture.render()
    message.attach(png)
    return Sample(message, {message.picture.filename: png})


def both_forms(sample: Sample, picture_first: bool = False) -> tuple[Preview, Preview]:
    """The sample drawn as an embed and as Components V2."""
    return (draw(sample.message.body(), sample.files),
            draw(v2_body(sample.message, picture_first), sample.files))


def side_by_side(left: Preview, right: Preview, title: str) -> Image.Image:
    head = 56
    width = left.image.width + right.image.width + 24
    height = head + max(left.image.height, right.image.height)
    sheet = Image.new("RGB", (width, height), (30, 31, 34))
    pen = ImageDraw.Draw(sheet)
    from .pictures.shapes import font

    pen.text((16, 8), title, font=font(26), fill=WHITE)
    pen.text((16, 34), f"embed: {left.lines} lines, {left.button_rows} button rows",
             font=font(20), fill=(181, 186, 193))
    pen.text((left.image.width + 40, 34),
             f"Components V2: {right.lines} lines, {right.button_rows} button rows",
             font=font(20), fill=(181, 186, 193))
    sheet.paste(left.image, (0, head))
    sheet.paste(right.image, (left.image.width + 24, head))
    pen.rectangle((left.image.width, head, left.image.width + 24, height), fill=BACKGROUND)
    return sheet


def write_previews(out: Path, games: tuple[str, ...]) -> list[Path]:
    """compare-table-<game>.png and compare-deal-end-<game>.png, with card emojis on."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    before = emojis.current()
    emojis.use(emojis.complete(FAKE_IDS))
    try:
        for name in games:
            pairs: list[tuple[str, Any, bool]] = [("table", public_table(name), False),
                                                  ("deal-end", deal_end(name), True)]
            for kind, sample, picture_first in pairs:
                left, right = both_forms(sample, picture_first)
                path = out / f"compare-{kind}-{name}.png"
                what = "public table" if kind == "table" else "end-of-deal post"
                sheet = side_by_side(left, right, f"{name}: the {what} as a phone shows it")
                # 256 colours: a third of the bytes, no difference to the eye
                sheet.quantize(256).save(path, optimize=True)
                written.append(path)
    finally:
        emojis.use(before)
    return written
