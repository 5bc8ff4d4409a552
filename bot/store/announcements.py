"""Rating-change posts still owed: a finished, rated match gets a row in the transaction
that stores its result, and the row goes once the post is sent. A bot killed between the
two finds the row on its next start and posts then, so no announcement is lost."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Params, StoreBase, placeholders
from .models import Shards


@dataclass(frozen=True, slots=True)
class OwedPost:
    """A finished match whose rating changes have not been posted yet."""

    match_id: int
    game: str
    guild_id: int
    channel_id: int  # its thread if it had one: where the table's messages went


# Written inside finish_match's transaction (results.py) when the match is rated.
OWE_POST_SQL = "INSERT INTO owed_rating_posts (match_id) VALUES (?)"


class AnnouncementsMixin(StoreBase):
    async def owed_rating_posts(self, shards: Shards | None = None) -> list[OwedPost]:
        """The rating posts still owed (only of the servers on `shards`), oldest first."""
        where: str = ""
        params: Params = ()
        if shards is not None:  # the rule of Shards.owns, as actions.py says it in SQL
            where = f" WHERE ((m.guild_id >> 22) % ?) IN ({placeholders(shards.ids)})"
            params = (shards.count, *shards.ids)
        rows = await self._fetchall(
            "reading the rating posts still owed",
            "SELECT m.id, m.game, m.guild_id, COALESCE(m.thread_id, m.channel_id)"
            " FROM owed_rating_posts o JOIN matches m ON m.id = o.match_id"
            f"{where} ORDER BY m.id", params)
        return [OwedPost(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def rating_post_sent(self, match_id: int) -> None:
        """The match's rating changes were posted (or there were none to post)."""
        await self._write(f"forgetting the rating post of match {match_id}",
                          "DELETE FROM owed_rating_posts WHERE match_id = ?", (match_id,))
