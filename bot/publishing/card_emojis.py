"""The application's card emojis: made sure of at start, and given up when Discord refuses
one (used by the CardFaces cog and the publisher; refusals/`classify` says when).

The ids are remembered in the store, so a start that finds all 53 there makes no call to
Discord. Otherwise the application's emojis are listed once and only the missing ones are
created (the faces are drawn off the event loop).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from typing import Any

import discord

from bot.games.cards import Card
from bot.render import emojis
from bot.render import messages as render
from bot.render.pictures.faces import back_png, face_png
from bot.store import Store

log = logging.getLogger(__name__)

_IN_TEXT = re.compile(r"<a?:(" + emojis.NAME.pattern + r"):\d+>")  # a card emoji in text


def _image(name: str) -> bytes:
    card: Card | None = emojis.card_of_name(name)
    return back_png() if card is None else face_png(card)


async def ensure_card_emojis(bot: discord.Client, store: Store) -> emojis.CardEmojis:
    """The complete emoji set for the bot's application (creating what is missing), or
    text only with one log line when Discord will not give them."""
    application_id = bot.application_id
    if application_id is None:
        return emojis.TEXT_ONLY
    known = await store.app_emojis(application_id)
    found = emojis.complete(known)
    if found.enabled:
        return found
    try:
        owned = {e.name: e.id for e in await bot.fetch_application_emojis()}
        for name in emojis.NAMES:
            if name not in owned:
                image = await asyncio.to_thread(_image, name)
                created = await bot.create_application_emoji(name=name, image=image)
                owned[name] = created.id
    except (discord.HTTPException, ValueError) as error:
        log.warning("card emojis unavailable, cards are shown as text: %s", error)
        return emojis.TEXT_ONLY
    found = emojis.complete(owned)
    await store.save_app_emojis(application_id, dict(found.ids))
    return found


def cards_as_text(message: render.Message) -> None:
    """Write the cards of a message built with the card emojis as text instead, in its
    text and on its buttons (a post built before Discord refused them is sent this way)."""
    if message.content:
        message.content = _text(message.content)
    message.embeds = [discord.Embed.from_dict(_texts(embed.to_dict()))
                      for embed in message.embeds]
    if message.buttons:
        message.buttons = tuple(
            dataclasses.replace(b, emoji=None)
            if b.emoji is not None and emojis.NAME.fullmatch(str(b.emoji.get("name", "")))
            else b for b in message.buttons)


def _text(text: str) -> str:
    def label(found: re.Match[str]) -> str:
        card = emojis.card_of_name(found.group(1))
        return card.label if card is not None else found.group(0)
    return _IN_TEXT.sub(label, text)


def _texts(value: Any) -> Any:
    """Every string of an embed's dict with its cards as text."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, list):
        return [_texts(item) for item in value]
    if isinstance(value, dict):
        return {key: _texts(item) for key, item in value.items()}
    return value


async def fall_back(bot: discord.Client, store: Store) -> None:
    """Discord refused an emoji: text from now on, and ask again at the next start."""
    if not emojis.current().enabled:
        return
    emojis.use(emojis.TEXT_ONLY)
    log.warning("Discord refused a card emoji; cards are shown as text until restart")
    application_id = bot.application_id
    if application_id is not None:
        await store.save_app_emojis(application_id, {})
