"""Card emojis: the application's emoji for each card face (and the back), and how a card
is written with one in text and on a button.

The bot sets the emoji set in use once it has made sure the emojis exist (cogs/cards.py);
until then, and whenever Discord refuses them, cards are written as text (`Q♥`) exactly
as before. A message that should stay plain text for screen readers (the end of a deal,
whose picture carries the cards) is rendered inside `plain_cards()`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bot.games.cards import Card, deck

# The prefix names the style: a new look gets new names, so old emojis are never reused.
PREFIX = "tt1_"
BACK = PREFIX + "back"
NAME = re.compile(re.escape(PREFIX) + r"([2-9TJQKA][CDHS]|back)")


def emoji_name(card: Card | None) -> str:
    """`tt1_QH` for the queen of hearts; the back (None) is `tt1_back`."""
    return BACK if card is None else PREFIX + str(card)


def card_of_name(name: str) -> Card | None:
    """The card an emoji name stands for (None for the back or another name)."""
    found = NAME.fullmatch(name)
    if found is None or found.group(1) == "back":
        return None
    return Card.parse(found.group(1))


NAMES: tuple[str, ...] = (*(emoji_name(c) for c in deck()), BACK)


@dataclass(frozen=True, slots=True)
class CardEmojis:
    """Emoji ids by name; complete (all 53) or empty (text only)."""

    ids: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def enabled(self) -> bool:
        return bool(self.ids)

    def text(self, card: Card) -> str:
        """The card in message text: its emoji, or `Q♥`."""
        name = emoji_name(card)
        emoji_id = self.ids.get(name)
        return f"<:{name}:{emoji_id}>" if emoji_id is not None else card.label

    def component(self, card: Card) -> dict[str, Any] | None:
        """The card's emoji as a button's `emoji` field, or None."""
        name = emoji_name(card)
        emoji_id = self.ids.get(name)
        return None if emoji_id is None else {"id": str(emoji_id), "name": name}


TEXT_ONLY = CardEmojis()


def complete(ids: Mapping[str, int]) -> CardEmojis:
    """The set for these ids if every card and the back has one, else text only."""
    if all(name in ids for name in NAMES):
        return CardEmojis(MappingProxyType({name: int(ids[name]) for name in NAMES}))
    return TEXT_ONLY


_in_use: CardEmojis = TEXT_ONLY
_plain: ContextVar[bool] = ContextVar("plain_cards", default=False)


def use(emojis: CardEmojis) -> None:
    """Set the emojis every message is rendered with from now on (bot-wide)."""
    global _in_use
    _in_use = emojis


def current() -> CardEmojis:
    """The emojis to render with here: none inside `plain_cards()`."""
    return TEXT_ONLY if _plain.get() else _in_use


@contextmanager
def plain_cards() -> Iterator[None]:
    """Render cards as text within this block (messages read aloud by screen readers)."""
    token = _plain.set(True)
    try:
        yield
    finally:
        _plain.reset(token)


def card_text(card: Card) -> str:
    return current().text(card)
