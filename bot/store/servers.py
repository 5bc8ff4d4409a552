"""Each server's own settings, chosen by its admins with /server settings: the defaults of
new tables, the channels tables may be opened in, whether computer players may fill seats.
A server with no row has the bot's defaults."""

from __future__ import annotations

from dataclasses import dataclass

from .base import StoreBase, Tx


@dataclass(frozen=True, slots=True)
class ServerSettingsRow:
    guild_id: int
    turn_timeout: int | None = None  # seconds (0: no timer); None: the bot's default
    ping_after: int | None = None  # seconds (0: never); None: the bot's default
    pace: str | None = None  # "normal" or "slow"; None: normal
    bot_level: str | None = None  # a level label ("advanced", "basic"); None: the strongest
    computer_players: bool = True  # whether people may seat computer players
    channels: tuple[int, ...] = ()  # where tables may be opened; empty: everywhere

    @property
    def is_default(self) -> bool:
        return self == ServerSettingsRow(self.guild_id)


_COLUMNS = "turn_timeout, ping_after, pace, bot_level, computer_players"


class ServersMixin(StoreBase):
    async def server_settings(self, guild_id: int) -> ServerSettingsRow:
        async with self._reading(f"reading the settings of server {guild_id}") as tx:
            row = await tx.fetchrow(
                f"SELECT {_COLUMNS} FROM server_settings WHERE guild_id = ?", (guild_id,))
            channels = await tx.fetch(
                "SELECT channel_id FROM server_channels WHERE guild_id = ? ORDER BY channel_id",
                (guild_id,))
        allowed = tuple(int(c[0]) for c in channels)
        if row is None:
            return ServerSettingsRow(guild_id, channels=allowed)
        timeout, ping, pace, level, computers = row
        return ServerSettingsRow(
            guild_id, None if timeout is None else int(timeout),
            None if ping is None else int(ping), pace, level, bool(computers), allowed)

    async def save_server_settings(self, row: ServerSettingsRow) -> None:
        """Replace the server's settings with `row` (one transaction)."""

        async def work(tx: Tx) -> None:
            await tx.execute(
                f"INSERT INTO server_settings (guild_id, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout,"
                " ping_after = excluded.ping_after, pace = excluded.pace,"
                " bot_level = excluded.bot_level,"
                " computer_players = excluded.computer_players",
                (row.guild_id, row.turn_timeout, row.ping_after, row.pace, row.bot_level,
                 int(row.computer_players)))
            await tx.execute("DELETE FROM server_channels WHERE guild_id = ?", (row.guild_id,))
            await tx.executemany(
                "INSERT INTO server_channels (guild_id, channel_id) VALUES (?, ?)",
                [(row.guild_id, channel) for channel in sorted(set(row.channels))])

        await self._writing(f"saving the settings of server {row.guild_id}", work)

    async def reset_server_settings(self, guild_id: int) -> None:
        """Back to the bot's defaults: every table option, every channel, computer players."""

        async def work(tx: Tx) -> None:
            await tx.execute("DELETE FROM server_channels WHERE guild_id = ?", (guild_id,))
            await tx.execute("DELETE FROM server_settings WHERE guild_id = ?", (guild_id,))

        await self._writing(f"resetting the settings of server {guild_id}", work)
