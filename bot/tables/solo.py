"""A person's own match: they sit at one seat with computer players in the others, and it
starts at once (daily deals, challenges). The caller's `enter` records what the match is
for before it starts; if it says no (the person has one already), the table is closed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from .model import Person, Table, TableError, TableSettings
from .service import TableService


async def open_solo(service: TableService, game: str, options: Mapping[str, object], *,
                    guild_id: int, channel_id: int, person: Person, seat: int,
                    settings: TableSettings, enter: Callable[[Table], Awaitable[bool]],
                    refused: str, bot_kind: str | None = None) -> Table:
    """Open the person's table in `channel_id` (their private thread), seat them at `seat`
    and computer players of `bot_kind` (None: the game's default) in the other seats,
    `enter` it, and start it. Refused with `refused` when `enter` returns False."""
    table = await service.lobby.create(game, dict(options), guild_id=guild_id,
                                       channel_id=channel_id, creator=person,
                                       settings=settings, seat_creator=False)
    try:
        await service.lobby.join(table.id, person, seat=seat)
        while not table.is_full():
            await service.lobby.add_bot(table.id, person.user_id, kind=bot_kind)
        if not await enter(table):
            raise TableError(refused)
        await service.lobby.start(table.id, person.user_id)
    except BaseException:
        if not table.closed:
            await service.lobby.abandon(table.id, person.user_id, can_manage=True)
        raise
    return table
