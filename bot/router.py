"""Every TrickTable button's way in, and every refusal's way out.

A custom id is `tt:<verb>:<subject>:<args...>` (bot/render/ids.py). Each verb is
registered once, by the cog that owns it, with three things: its handler, what the
number after the verb is the id of (its `Subject`: a table, a challenge, a team match,
...), and how a refused click is answered (by default, the refusal privately).

The Tables cog receives every component interaction and hands it to `ClickRouter.click`,
the one path of a click: the handler answers it, or raises. A handler refuses by raising
`TableError` (from bot.tables; its text is written for the person): the verb's refusal
answers it. `ids.BadCustomId` says the button is not ours; anything else is logged and
answered with an apology. Slash commands refuse the same way: the command tree (bot/app.py)
answers a `TableError` with `refuse`, the one private answer.

Adding a button: (1) in bot/render, give it the custom id `ids.make("<verb>", <subject>,
...)` (at most 100 characters); (2) in the cog that owns it, write `async def
on_<verb>(self, interaction, parsed)` that checks `parsed.args`, leaves seat, turn and
staleness checks to the service it asks, raises `TableError` to refuse, and answers;
(3) register it in the cog's `cog_load` with `self.bot.router.register("<verb>",
self.on_<verb>, Subject.<what>)` and unregister it in `cog_unload`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from bot.render import ids
from bot.tables import TableError

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
Handler = Callable[[Interaction, ids.ParsedId], Awaitable[None]]
# How a verb answers a refused click: the interaction, its id, the refusal.
Refuse = Callable[[Interaction, ids.ParsedId, TableError], Awaitable[None]]

NOT_OURS = "That button is not one of TrickTable's (it may be from an older message)."
SORRY = "Something went wrong on our side; nothing was changed. Please try again."


class Subject(StrEnum):
    """What the number after a button's verb is the id of."""

    TABLE = "table"
    CHALLENGE = "challenge"
    TEAM_MATCH = "team match"
    PERSON = "person"  # a Discord user id
    PAGE = "page"  # a page of a listing, from 0
    NONE = "nothing"  # always 0 (the help pages: the page is an argument)


def release(interaction: Interaction) -> None:
    """Drop what an answered interaction holds that points back at it, once nothing of
    the bot will answer it again: its response (`interaction.response`, whose parent it
    is) and the message its answer showed (whose state holds it too). With those cycles
    an interaction, its message and the message's components (some 40 objects a click)
    were freed only by the collector's full passes, which the bot keeps rare
    (bot/runtime.py): at 200 tables over a quarter of the bot's growth. Without them
    the last reference frees it all at once. Later followups still work (they need only
    the token); `interaction.response` is not to be asked again."""
    if getattr(interaction, _RESPONSE_SLOT, None) is not None:
        delattr(interaction, _RESPONSE_SLOT)  # a cached slot is emptied by deleting it
    interaction._original_response = None


_RESPONSE_SLOT = "_cs_response"  # where discord.py caches `Interaction.response`


async def refuse(interaction: Interaction, text: str) -> None:
    """Answer privately with `text`, whether or not the interaction was answered yet."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def refuse_privately(interaction: Interaction, parsed: ids.ParsedId,
                           error: TableError) -> None:
    """The usual refusal of a click: its reason, privately."""
    await refuse(interaction, str(error))


@dataclass(frozen=True, slots=True)
class Verb:
    """A registered verb: who answers it, what its subject is, how it is refused."""

    handler: Handler
    subject: Subject
    refused: Refuse = refuse_privately


class VerbTaken(ValueError):
    """Two handlers for one verb: a programming error, caught when a cog loads."""


class ClickRouter:
    """Verb -> its registration, one per verb; `click` answers every click."""

    def __init__(self) -> None:
        self._verbs: dict[str, Verb] = {}
        # Wraps each handler as it is resolved: bench/tables stamps the stages of a click's
        # answer from inside the click's own task.
        self.around: Callable[[Handler], Handler] | None = None

    def register(self, verb: str, handler: Handler, subject: Subject,
                 refused: Refuse = refuse_privately) -> None:
        self.register_all(subject, {verb: handler}, refused)

    def register_all(self, subject: Subject, handlers: dict[str, Handler],
                     refused: Refuse = refuse_privately) -> None:
        """Verbs of one subject, refused alike; none is registered if one is taken."""
        taken = sorted(set(handlers) & set(self._verbs))
        if taken:
            raise VerbTaken(f"the button verbs {taken} already have handlers")
        self._verbs.update({verb: Verb(handler, subject, refused)
                            for verb, handler in handlers.items()})

    def unregister(self, *verbs: str) -> None:
        for verb in verbs:
            self._verbs.pop(verb, None)

    @property
    def verbs(self) -> dict[str, Verb]:
        return dict(self._verbs)

    def subject_of(self, verb: str) -> Subject | None:
        """What a verb's number is the id of (None: no such verb)."""
        found = self._verbs.get(verb)
        return found.subject if found is not None else None

    def resolve(self, custom_id: str) -> tuple[Verb, ids.ParsedId]:
        """The verb of a custom id and the id parsed; BadCustomId if it is not ours."""
        parsed = ids.parse(custom_id)
        verb = self._verbs.get(parsed.verb)
        if verb is None:
            raise ids.BadCustomId(custom_id)
        return verb, parsed

    async def click(self, interaction: Interaction, custom_id: str) -> None:
        """Answer a click on a component, a refusal included (Discord's 3 seconds)."""
        try:
            verb, parsed = self.resolve(custom_id)
        except ids.BadCustomId:
            await refuse(interaction, NOT_OURS)
            return
        handler = verb.handler if self.around is None else self.around(verb.handler)
        try:
            await handler(interaction, parsed)
        except ids.BadCustomId:
            await refuse(interaction, NOT_OURS)
        except TableError as error:
            await verb.refused(interaction, parsed, error)
        except Exception:
            log.exception("%s %s: unexpected error handling %r for user %s", verb.subject,
                          parsed.subject, custom_id, interaction.user.id)
            await refuse(interaction, SORRY)
