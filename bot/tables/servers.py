"""Each server's rules for its tables, set by its admins (/server settings): what a new
table's options default to, which channels take tables, whether computer players may sit
and at which level. Read once per server and kept (a server is served by one process)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.ai import level_label, player_kinds
from bot.store import ServerSettingsRow, Store

from .model import PACES, TableError

LEVELS: tuple[str, ...] = ("advanced", "basic")  # the level of each game's computer players


class ServerRules:
    """The servers' settings, cached per server; every change goes through here."""

    def __init__(self, store: Store,
                 changed: Callable[[ServerSettingsRow], None] | None = None) -> None:
        self.store = store
        self._known: dict[int, ServerSettingsRow] = {}
        self.changed = changed  # told of each saved or reset row (open lobbies redraw)

    async def get(self, guild_id: int) -> ServerSettingsRow:
        known = self._known.get(guild_id)
        if known is None:
            known = self._known[guild_id] = await self.store.server_settings(guild_id)
        return known

    async def save(self, row: ServerSettingsRow) -> ServerSettingsRow:
        if row.pace is not None and row.pace not in PACES:
            raise TableError(f"`{row.pace}` is not a pace; choose one of {', '.join(PACES)}.")
        if row.bot_level is not None and row.bot_level not in LEVELS:
            raise TableError(f"`{row.bot_level}` is not a level; choose one of "
                             f"{', '.join(LEVELS)}.")
        await self.store.save_server_settings(row)
        self._known[row.guild_id] = row
        if self.changed is not None:
            self.changed(row)
        return row

    async def reset(self, guild_id: int) -> ServerSettingsRow:
        await self.store.reset_server_settings(guild_id)
        row = self._known[guild_id] = ServerSettingsRow(guild_id)
        if self.changed is not None:
            self.changed(row)
        return row

    def forget(self, guild_id: int) -> None:
        """Drop the cached row (the bot left the server, or a test changed the store)."""
        self._known.pop(guild_id, None)


def table_defaults(row: ServerSettingsRow, bot_defaults: Mapping[str, object]
                   ) -> dict[str, object]:
    """The defaults of a new table's options: the server's where set, else the bot's."""
    defaults = dict(bot_defaults)
    for name in ("turn_timeout", "ping_after", "pace"):
        value = getattr(row, name)
        if value is not None:
            defaults[name] = value
    return defaults


def channel_refusal(row: ServerSettingsRow, channel_ids: tuple[int, ...]) -> str | None:
    """Why a table may not open in this channel (`channel_ids`: the channel, and the
    parent of a thread), or None when it may."""
    if not row.channels or any(c in row.channels for c in channel_ids):
        return None
    listed = ", ".join(f"<#{c}>" for c in row.channels)
    return f"This server's admins allow tables only in {listed}. Open yours there."


def computer_kind(row: ServerSettingsRow, game: str, asked: str | None) -> str | None:
    """The computer player to seat when someone presses Add bot (`asked`: the kind of the
    button, None for the plain one): refused when the server turned them off; the plain
    button seats the server's level."""
    if not row.computer_players:
        raise TableError("This server's admins have turned computer players off: invite "
                         "people to fill the seats.")
    return asked if asked is not None else offered_kinds(row, game)[0]


def offered_kinds(row: ServerSettingsRow | None, game: str) -> list[str]:
    """The computer players a lobby offers, Add bot's first: the server's level, then the
    game's others (strongest first); none when the server turned them off (None: a table
    that never read its server's settings, the bot's defaults)."""
    kinds = list(player_kinds(game))
    if row is not None and not row.computer_players:
        return []
    if row is None or row.bot_level is None:
        return kinds
    chosen = [kind for kind in kinds if level_label(kind).lower() == row.bot_level]
    return chosen[:1] + [kind for kind in kinds if kind not in chosen[:1]]
