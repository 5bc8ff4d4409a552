"""One registry for every TrickTable button: the verb of a custom id
(`tt:<verb>:<id>:...`) names one handler, registered by the cog that owns it.

The Tables cog receives every component interaction and routes it here; a handler gets
the interaction and the parsed id and must answer it. Refusals are raised, not sent:
`TableError` (from bot.tables) for a refused request and `ids.BadCustomId` for an id we
did not make; the Tables cog turns both into a private answer.

Adding a button: (1) in bot/render, give it the custom id `ids.make("<verb>", <id>, ...)`
(at most 100 characters); (2) in the cog that owns it, write `async def on_<verb>(self,
interaction, parsed)` that checks `parsed.args`, leaves seat, turn and staleness checks to
the table service, and answers; (3) register it in the cog's `cog_load` with
`self.bot.router.register("<verb>", self.on_<verb>)` and unregister it in `cog_unload`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.render import ids

Handler = Callable[[discord.Interaction[Any], ids.ParsedId], Awaitable[None]]


class VerbTaken(ValueError):
    """Two handlers for one verb: a programming error, caught when a cog loads."""


class ClickRouter:
    """Verb -> handler, one handler per verb."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        # Wraps each handler as it is resolved: bench/tables stamps the stages of a click's
        # answer from inside the click's own task.
        self.around: Callable[[Handler], Handler] | None = None

    def register(self, verb: str, handler: Handler) -> None:
        if verb in self._handlers:
            raise VerbTaken(f"the button verb {verb!r} already has a handler")
        self._handlers[verb] = handler

    def register_all(self, handlers: dict[str, Handler]) -> None:
        taken = sorted(set(handlers) & set(self._handlers))
        if taken:
            raise VerbTaken(f"the button verbs {taken} already have handlers")
        self._handlers.update(handlers)

    def unregister(self, *verbs: str) -> None:
        for verb in verbs:
            self._handlers.pop(verb, None)

    @property
    def verbs(self) -> frozenset[str]:
        return frozenset(self._handlers)

    def resolve(self, custom_id: str) -> tuple[Handler, ids.ParsedId]:
        """The handler of a custom id and the id parsed; BadCustomId if it is not ours."""
        parsed = ids.parse(custom_id)
        handler = self._handlers.get(parsed.verb)
        if handler is None:
            raise ids.BadCustomId(custom_id)
        return (handler if self.around is None else self.around(handler)), parsed
