"""`python -m bot render-samples OUT_DIR`: the pictures the bot draws, to look at them.

Writes every card face and the back on one sheet (`cards.png`) and at the size Discord
shows emojis (`cards-small.png`), a private hand as it reads with the card emojis
(`emoji-hand.png`), and each game's deal picture at the end of two deals of one match
(`deal-<game>-<deal>.png`, played at random from a fixed seed), and each game's public
table and end-of-deal post drawn as a phone shows them, as an embed and as Components V2
side by side
(`compare-table-<game>.png`, `compare-deal-end-<game>.png`; see sample_tables.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from bot.games import GAMES, create, game_class
from bot.games.cards import Card, by_suit, deck

from .pictures.board import SUIT_ORDER, suit_sprite
from .pictures.deals import DealPicture
from .pictures.faces import SIZE, back, face
from .pictures.shapes import font
from .sample_tables import write_previews

DISCORD_DARK = (49, 51, 56)  # Discord's dark theme, where most people will see them
# The sample players, seat by seat, of every game.
NAMES = {game: ("Ann", "Bob bot", "Carl", "Dee bot")[:game_class(game).SEATS]
         for game in GAMES}
DEALS_DRAWN = (1, 3)  # each game's picture at the end of these deals of one match
EMOJI_PX = 22  # an emoji in a line of text
BUTTON_EMOJI_PX = 20


def finished_deal(game: str, seed: int, deal_no: int = 1) -> Any:
    """The public summary of deal `deal_no` of a match played at random (legal moves)."""
    engine = create(game, options={}, seed=seed)
    rng = random.Random(seed)
    while (engine.view(None).previous_deal is None
           or engine.view(None).previous_deal.deal_no < deal_no):
        seat = min(engine.to_act())
        engine.apply(seat, rng.choice(list(engine.legal(seat))))
    return engine.view(None).previous_deal


def card_sheet(size: int = SIZE, gap: int = 8) -> Image.Image:
    """All 52 faces, a suit per row, and the back at the end of the first row."""
    step = size + gap
    sheet = Image.new("RGB", (gap + 14 * step, gap + 4 * step), DISCORD_DARK)
    for row, suit in enumerate(SUIT_ORDER):
        cards = sorted((c for c in deck() if c.suit == suit), reverse=True)
        for column, card in enumerate(cards):
            image = _sized(face(card), size)
            sheet.paste(image, (gap + column * step, gap + row * step), image)
    image = _sized(back(), size)
    sheet.paste(image, (gap + 13 * step, gap), image)
    return sheet


def _sized(image: Image.Image, size: int) -> Image.Image:
    return image if image.size == (size, size) else image.resize(
        (size, size), Image.Resampling.LANCZOS)


def emoji_hand(hand: list[Card], legal: list[Card]) -> Image.Image:
    """A private hand as Discord shows it with the card emojis: a row of emojis per
    suit, and the card buttons below (drawn at Discord's sizes, then doubled so the
    picture can be looked at)."""
    width, height = 420, 250
    image = Image.new("RGB", (width, height), DISCORD_DARK)
    draw = ImageDraw.Draw(image)
    text = font(15)
    draw.text((12, 8), "Spades · table #3 · deal 2 · you are North", font=text,
              fill=(219, 222, 225))
    draw.text((12, 30), "Play a card (follow hearts)", font=font(15), fill=(255, 255, 255))
    groups = by_suit(hand)
    for row, suit in enumerate(SUIT_ORDER):
        y = 56 + row * 26
        sprite = suit_sprite(suit, 14, (219, 222, 225) if suit.letter in "SC" else None)
        image.paste(sprite, (14, y + 4), sprite)
        for i, card in enumerate(groups[suit]):
            small = _sized(face(card), EMOJI_PX)
            image.paste(small, (36 + i * (EMOJI_PX + 2), y), small)
    for i, card in enumerate(legal[:5]):
        x, y = 12 + i * 80, 170
        draw.rounded_rectangle((x, y, x + 74, y + 32), radius=4, fill=(78, 80, 88))
        small = _sized(face(card), BUTTON_EMOJI_PX)
        image.paste(small, (x + 8, y + 6), small)
        label = card.rank.label
        draw.text((x + 34, y + 7), label, font=font(15), fill=(255, 255, 255))
        symbol = suit_sprite(card.suit, 12, (255, 255, 255))
        image.paste(symbol, (x + 36 + round(font(15).getlength(label)), y + 11), symbol)
    return image.resize((width * 2, height * 2), Image.Resampling.LANCZOS)


def write_samples(out: Path, seed: int = 5) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def save(name: str, image: Image.Image) -> None:
        path = out / name
        image.save(path, format="PNG", optimize=True)
        written.append(path)

    save("cards.png", card_sheet())
    save("cards-small.png", card_sheet(EMOJI_PX * 2, 4))
    rng = random.Random(seed)
    hand = sorted(rng.sample(deck(), 13), reverse=True)
    hearts = [c for c in hand if c.suit.letter == "H"] or hand[:3]
    save("emoji-hand.png", emoji_hand(hand, hearts))
    for game in GAMES:
        for deal_no in DEALS_DRAWN:
            summary = finished_deal(game, seed, deal_no)
            picture = DealPicture(game, game_class(game).TITLE, 3, NAMES[game], summary)
            path = out / f"deal-{game}-{summary.deal_no}.png"
            path.write_bytes(picture.render())
            written.append(path)
    written += write_previews(out, tuple(GAMES))
    return written
