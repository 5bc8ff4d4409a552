"""The application's card emojis: made sure of at start, and given up when Discord refuses
one (used by the CardFaces cog, the Tables cog and the publisher).

The ids are remembered in the store, so a start that finds all 53 there makes no call to
Discord. Otherwise the application's emojis are listed once and only the missing ones are
created (the faces are drawn off the event loop).
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.games.cards import Card
from bot.render import emojis
from bot.render.pictures.faces import back_png, face_png
from bot.store import Store

log = logging.getLogger(__name__)


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


def refused(error: BaseException) -> bool:
    """Did Discord refuse a message because of an emoji in it (deleted, unknown)?"""
    if not isinstance(error, discord.HTTPException) or not emojis.current().enabled:
        return False
    return error.code == 10014 or (error.code == 50035 and "emoji" in str(error).lower())


async def fall_back(bot: discord.Client, store: Store) -> None:
    """Discord refused an emoji: text from now on, and ask again at the next start."""
    if not emojis.current().enabled:
        return
    emojis.use(emojis.TEXT_ONLY)
    log.warning("Discord refused a card emoji; cards are shown as text until restart")
    application_id = bot.application_id
    if application_id is not None:
        await store.save_app_emojis(application_id, {})
