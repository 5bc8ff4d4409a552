"""Team matches: the match record that links two bridge tables playing the same boards,
its teams' members, its score card message and, once over, its IMPs."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .base import StoreBase
from .codec import now_text

_COLUMNS = ("id, guild_id, channel_id, creator_id, boards, bot_kind, status, members,"
            " first_table, second_table, message_id, imps_a, imps_b")


@dataclass(frozen=True, slots=True)
class TeamMatchRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    boards: int
    bot_kind: str
    status: str
    # Each team's people, as (user id, name), in the order of their places.
    members: dict[str, list[tuple[int, str]]] = field(hash=False)
    first_table: int | None
    second_table: int | None
    message_id: int | None
    imps_a: int | None
    imps_b: int | None


def _members(text: object) -> dict[str, list[tuple[int, str]]]:
    """A row's members, or no one for a corrupt cell (the tables still hold the seats)."""
    try:
        data = json.loads(str(text))
        return {team: [(int(user), str(name)) for user, name in data.get(team, [])]
                for team in ("A", "B")}
    except (ValueError, TypeError, AttributeError):
        return {"A": [], "B": []}


def _row(r: Any) -> TeamMatchRow:
    return TeamMatchRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]),
                        str(r[6]), _members(r[7]),
                        None if r[8] is None else int(r[8]),
                        None if r[9] is None else int(r[9]),
                        None if r[10] is None else int(r[10]),
                        None if r[11] is None else int(r[11]),
                        None if r[12] is None else int(r[12]))


def _dump(members: dict[str, list[tuple[int, str]]]) -> str:
    return json.dumps({team: [[user, name] for user, name in people]
                       for team, people in members.items()})


class TeamMatchesMixin(StoreBase):
    async def create_team_match(self, guild_id: int, channel_id: int, creator_id: int,
                                boards: int, bot_kind: str,
                                members: dict[str, list[tuple[int, str]]]) -> int:
        inserted = await self._writing(
            "creating a team match",
            lambda tx: tx.fetchrow(
                "INSERT INTO team_matches (guild_id, channel_id, creator_id, boards,"
                " bot_kind, status, members, created_at)"
                " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
                (guild_id, channel_id, creator_id, boards, bot_kind, _dump(members),
                 now_text())))
        assert inserted is not None
        return int(inserted[0])

    async def team_table_beside(self, table_id: int) -> int | None:
        """The other table of the team match `table_id` plays in (None: it plays in none)."""
        row = await self._fetchone(
            f"reading the team match of table {table_id}",
            "SELECT first_table, second_table FROM team_matches"
            " WHERE first_table = ? OR second_table = ?", (table_id, table_id))
        if row is None or row[0] is None or row[1] is None:
            return None
        return int(row[1]) if int(row[0]) == table_id else int(row[0])

    async def team_match(self, team_match_id: int) -> TeamMatchRow | None:
        row = await self._fetchone(f"reading team match {team_match_id}",
                                   f"SELECT {_COLUMNS} FROM team_matches WHERE id = ?",
                                   (team_match_id,))
        return None if row is None else _row(row)

    async def open_team_matches(self) -> list[TeamMatchRow]:
        """Team matches in their lobby or being played (a restart takes them up again)."""
        rows = await self._fetchall(
            "listing the open team matches",
            f"SELECT {_COLUMNS} FROM team_matches WHERE status IN ('lobby', 'playing')"
            " ORDER BY id")
        return [_row(r) for r in rows]

    async def set_team_members(self, team_match_id: int,
                               members: dict[str, list[tuple[int, str]]]) -> None:
        await self._write(f"setting the teams of team match {team_match_id}",
                          "UPDATE team_matches SET members = ? WHERE id = ?",
                          (_dump(members), team_match_id))

    async def start_team_match(self, team_match_id: int, first_table: int,
                               second_table: int) -> None:
        await self._write(f"starting team match {team_match_id}",
                          "UPDATE team_matches SET status = 'playing', first_table = ?,"
                          " second_table = ? WHERE id = ?",
                          (first_table, second_table, team_match_id))

    async def set_team_message(self, team_match_id: int, message_id: int) -> None:
        await self._write(f"setting the score card of team match {team_match_id}",
                          "UPDATE team_matches SET message_id = ? WHERE id = ?",
                          (message_id, team_match_id))

    async def end_team_match(self, team_match_id: int, status: str,
                             imps: tuple[int, int] | None = None) -> bool:
        """Close an open team match (False: it was closed already; nothing changes)."""
        imps_a, imps_b = imps if imps is not None else (None, None)
        # A match that was playing owes its last score card; one ended in its lobby not.
        changed = await self._write(
            f"ending team match {team_match_id}",
            "UPDATE team_matches SET status = ?, imps_a = ?, imps_b = ?, finished_at = ?,"
            " final_posted = CASE WHEN status = 'playing' THEN 0 ELSE 1 END"
            " WHERE id = ? AND status IN ('lobby', 'playing')",
            (status, imps_a, imps_b, now_text(), team_match_id))
        return changed == 1

    async def unposted_team_matches(self) -> list[TeamMatchRow]:
        """Ended team matches whose last score card was not posted (the bot stopped
        between ending the match and posting it)."""
        rows = await self._fetchall(
            "listing the team matches whose last score card is owed",
            f"SELECT {_COLUMNS} FROM team_matches WHERE final_posted = 0 ORDER BY id")
        return [_row(r) for r in rows]

    async def team_card_posted(self, team_match_id: int) -> None:
        """The ended match's last score card was posted (or could not be: no retries)."""
        await self._write(f"noting the last score card of team match {team_match_id}",
                          "UPDATE team_matches SET final_posted = 1 WHERE id = ?",
                          (team_match_id,))

    async def finished_team_matches(self, guild_id: int, limit: int = 500
                                    ) -> list[TeamMatchRow]:
        """A server's finished team matches, newest first (history, leaderboard)."""
        rows = await self._fetchall(
            f"reading the team matches of server {guild_id}",
            f"SELECT {_COLUMNS} FROM team_matches WHERE guild_id = ? AND status = 'finished'"
            " ORDER BY finished_at DESC, id DESC LIMIT ?", (guild_id, limit))
        return [_row(r) for r in rows]
