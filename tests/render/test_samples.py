"""`python -m bot render-samples OUT_DIR`: every picture it promises is written, each a
PNG that opens (cards, an emoji hand, two deals' pictures per game, each game's table
and end-of-deal post drawn as a phone shows them)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.games import GAMES
from bot.render.samples import write_samples


def test_render_samples_writes_every_picture(tmp_path: Path) -> None:
    written = write_samples(tmp_path)
    expected = {"cards.png", "cards-small.png", "emoji-hand.png",
                *(f"deal-{game}-{deal}.png" for game in GAMES for deal in (1, 3)),
                *(f"compare-{kind}-{game}.png" for game in GAMES
                  for kind in ("table", "deal-end"))}
    assert {path.name for path in written} == expected
    for path in written:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 300 and image.height >= 150
