"""Forgetting a person (Discord's Developer Policy: honour deletion requests).

Their Discord id is replaced everywhere by an anonymous stand-in, a negative number no
Discord id can be, drawn once per request: the matches they played keep their seats,
sides and points, so nobody else's results, places or history change, and those seats
read "a former player". What is theirs alone goes: their ratings, rating changes and
figures, their settings, their open hands' tokens and pings.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Final

from .base import StoreBase, Tx
from .models import ACTIVE_STATUSES

FORMER_PLAYER: Final = "a former player"

# (table, column) holding a person's id that is rewritten to the stand-in; the rows stay.
_REWRITTEN: Final = (
    ("matches", "creator_id"), ("seats", "user_id"), ("seats", "left_user_id"),
    ("actions", "user_id"), ("match_players", "user_id"), ("daily_entries", "user_id"),
    ("daily_standings", "user_id"), ("team_matches", "creator_id"),
    ("challenges", "challenger_id"), ("challenges", "challenged_id"),
)
# Tables whose rows about the person are deleted (theirs alone; others' rows unchanged).
_DELETED: Final = ("skill_ratings", "rating_changes", "user_settings", "hand_tokens",
                   "turn_pings")


class StillPlaying(Exception):
    """The person sits at (or opened) a table that is still open: it holds their id in
    memory, so they are forgotten once it has ended."""


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting changed: rows rewritten to the stand-in, rows deleted."""

    rewritten: int
    deleted: int


def _holds(members: str, user_id: int) -> bool:
    """Whether a team match's members (JSON: team -> [[user id, name], ...]) name them."""
    try:
        teams = json.loads(members)
    except ValueError:
        return False
    return isinstance(teams, dict) and any(
        isinstance(person, list) and person and person[0] == user_id
        for people in teams.values() if isinstance(people, list) for person in people)


def _anonymised(members: str, user_id: int, anonymous: int) -> str:
    teams = json.loads(members)
    return json.dumps({team: [[anonymous, FORMER_PLAYER] if person and person[0] == user_id
                              else person for person in people]
                       for team, people in teams.items()})


def stand_in() -> int:
    """A fresh anonymous id: negative, so it is never a Discord id (those are positive)."""
    return -1 - secrets.randbelow(2**62)


class PrivacyMixin(StoreBase):
    async def open_tables_of(self, user_id: int) -> list[int]:
        """The unfinished matches that hold the person's id (seated, stood in for, opened)."""
        statuses = ", ".join(f"'{s}'" for s in ACTIVE_STATUSES)
        rows = await self._fetchall(
            f"looking for the open tables of user {user_id}",
            f"SELECT m.id FROM matches m WHERE m.status IN ({statuses}) AND (m.creator_id = ?"
            " OR EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id"
            " AND (s.user_id = ? OR s.left_user_id = ?))) ORDER BY m.id",
            (user_id, user_id, user_id))
        return [int(row[0]) for row in rows]

    async def forget_person(self, user_id: int) -> Forgotten:
        """Remove the person's id, name and ratings (one transaction). Raises StillPlaying
        if a table that holds them is still open (nothing is changed then)."""
        if user_id <= 0:
            raise ValueError("only a Discord id (positive) can be forgotten")
        anonymous = stand_in()
        player = f"u:{user_id}"
        statuses = ", ".join(f"'{s}'" for s in ACTIVE_STATUSES)

        async def work(tx: Tx) -> Forgotten:
            open_ = await tx.fetchrow(
                f"SELECT m.id FROM matches m WHERE m.status IN ({statuses}) AND"
                " (m.creator_id = ? OR EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id"
                " AND (s.user_id = ? OR s.left_user_id = ?)))", (user_id, user_id, user_id))
            if open_ is not None:
                raise StillPlaying(int(open_[0]))
            teams = await tx.fetch(
                "SELECT id, status, creator_id, members FROM team_matches"
                " WHERE creator_id = ? OR members LIKE ?", (user_id, f"%{user_id}%"))
            for team_id, status, creator, members in teams:
                if status in ACTIVE_STATUSES and (creator == user_id
                                                  or _holds(members, user_id)):
                    raise StillPlaying(int(team_id))
            challenge = await tx.fetchrow(
                "SELECT id FROM challenges WHERE status IN ('offered', 'accepted')"
                " AND (challenger_id = ? OR challenged_id = ?)", (user_id, user_id))
            if challenge is not None:  # its other person has yet to see it end
                raise StillPlaying(int(challenge[0]))
            deleted = 0
            for table in _DELETED:
                deleted += await tx.execute(f"DELETE FROM {table} WHERE user_id = ?",
                                            (user_id,))
            deleted += await tx.execute("DELETE FROM player_figures WHERE player = ?",
                                        (player,))
            # Names first, while the rows can still be found by the id.
            rewritten = await tx.execute(
                "UPDATE seats SET display_name = ? WHERE user_id = ?", (FORMER_PLAYER, user_id))
            rewritten += await tx.execute(  # a computer player that stood in for them
                "UPDATE seats SET display_name = ? WHERE left_user_id = ?",
                (f"A computer player for {FORMER_PLAYER}", user_id))
            rewritten += await tx.execute(
                "UPDATE daily_entries SET display_name = ? WHERE user_id = ?",
                (FORMER_PLAYER, user_id))
            for place in ("challenger", "challenged"):
                rewritten += await tx.execute(
                    f"UPDATE challenges SET {place}_name = ? WHERE {place}_id = ?",
                    (FORMER_PLAYER, user_id))
            for table, column in _REWRITTEN:
                rewritten += await tx.execute(
                    f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (anonymous, user_id))
            for team_id, _status, _creator, members in teams:  # [user id, name] pairs
                if _holds(members, user_id):
                    rewritten += await tx.execute(
                        "UPDATE team_matches SET members = ? WHERE id = ?",
                        (_anonymised(members, user_id, anonymous), team_id))
            return Forgotten(rewritten, deleted)

        forgotten = await self._writing(f"forgetting user {user_id}", work)
        await self._drop_old_copies()
        return forgotten
