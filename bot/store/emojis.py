"""The application's card-face emojis: their Discord ids by name, per application."""

from __future__ import annotations

from collections.abc import Mapping

from .base import StoreBase, Tx


class EmojisMixin(StoreBase):
    async def app_emojis(self, application_id: int) -> dict[str, int]:
        """The emoji ids remembered for this application, by emoji name."""
        rows = await self._fetchall(
            f"reading the emojis of application {application_id}",
            "SELECT name, emoji_id FROM app_emojis WHERE application_id = ?",
            (application_id,))
        return {str(row[0]): int(row[1]) for row in rows}

    async def save_app_emojis(self, application_id: int, emojis: Mapping[str, int]) -> None:
        """Remember exactly these emojis for the application (the old set is replaced)."""
        rows = [(application_id, name, int(emoji_id)) for name, emoji_id in emojis.items()]

        async def save(tx: Tx) -> None:
            await tx.execute("DELETE FROM app_emojis WHERE application_id = ?",
                             (application_id,))
            if rows:
                await tx.executemany(
                    "INSERT INTO app_emojis (application_id, name, emoji_id) VALUES (?, ?, ?)",
                    rows)

        await self._writing(f"saving the emojis of application {application_id}", save)
