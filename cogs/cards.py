"""Card emojis at start-up: make sure the application owns an emoji for every card face
and the back (bot/publishing/card_emojis.py) and render cards with them. It runs in the
background: until the emojis are ready, and whenever Discord refuses one later, messages
write cards as text. (The deal pictures' cached pieces are drawn ahead where the pictures
are drawn, in the computer players' workers: `TableService`'s `worker_setup`.)
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from discord.ext import commands

from bot.publishing.card_emojis import ensure_card_emojis
from bot.render import emojis

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)


class CardFaces(commands.Cog):
    """Sets the card emojis up in the background when the bot starts."""

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.ready: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        if getattr(self.bot.settings, "card_emojis", True):
            self.ready = asyncio.create_task(self._set_up(), name="card-emojis")

    async def cog_unload(self) -> None:
        if self.ready is not None:
            self.ready.cancel()
        emojis.use(emojis.TEXT_ONLY)

    async def _set_up(self) -> None:
        try:
            emojis.use(await ensure_card_emojis(self.bot, self.bot.store))
        except Exception:
            log.exception("card emojis: set-up failed; cards are shown as text")


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(CardFaces(bot))
