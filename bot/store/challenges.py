"""Challenges: the record linking two people's tables that play the same fair deals (its
offer, acceptance, deadline, each person's table, the pings sent as the deadline nears)
and, once over, its totals. The deals' results are the two tables' deal results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .base import StoreBase, Tx
from .codec import now_text

OPEN: Final = ("offered", "accepted")
_OPEN_SQL: Final = "status IN ('offered', 'accepted')"
_COLUMNS: Final = (
    "id, guild_id, channel_id, game, deals, bot_kind, days, challenger_id, challenger_name,"
    " challenged_id, challenged_name, status, secret, client_seed, deadline,"
    " challenger_table, challenged_table, message_id, reminded, score_a, score_b")
# The column of each person's table, by their place (0: the challenger).
_TABLE_COLUMN: Final = ("challenger_table", "challenged_table")


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    deals: int
    bot_kind: str
    days: int
    people: tuple[int, int]  # the challenger's and the challenged person's user ids
    names: tuple[str, str]
    status: str  # offered, accepted, finished, declined, cancelled, expired
    secret: str
    client_seed: str
    deadline: int  # epoch seconds: the offer's expiry, then (accepted) the play's
    tables: tuple[int | None, int | None]  # each person's table, once they started
    message_id: int | None
    reminded: int  # bit 1 << place: that person was pinged as the deadline neared
    scores: tuple[int, int] | None  # the totals, once finished

    @property
    def open(self) -> bool:
        return self.status in OPEN

    def place_of(self, user_id: int) -> int | None:
        """0 for the challenger, 1 for the challenged person, None for anyone else."""
        return self.people.index(user_id) if user_id in self.people else None


def _optional(value: Any) -> int | None:
    return None if value is None else int(value)


def _row(r: Any) -> ChallengeRow:
    scores = None if r[19] is None or r[20] is None else (int(r[19]), int(r[20]))
    return ChallengeRow(int(r[0]), int(r[1]), int(r[2]), str(r[3]), int(r[4]), str(r[5]),
                        int(r[6]), (int(r[7]), int(r[9])), (str(r[8]), str(r[10])),
                        str(r[11]), str(r[12]), str(r[13]), int(r[14]),
                        (_optional(r[15]), _optional(r[16])), _optional(r[17]), int(r[18]),
                        scores)


class OpenLimit(Exception):
    """A person already has as many open challenges as allowed (args: their user id)."""


class ChallengesMixin(StoreBase):
    async def create_challenge(self, guild_id: int, channel_id: int, game: str, deals: int,
                               bot_kind: str, days: int, challenger: tuple[int, str],
                               challenged: tuple[int, str], secret: str, deadline: int,
                               open_limit: int) -> int:
        """Store an offered challenge, in one transaction with the check that neither
        person has `open_limit` open challenges already (OpenLimit names who has)."""
        async def work(tx: Tx) -> int:
            for user_id in (challenger[0], challenged[0]):
                row = await tx.fetchrow(
                    f"SELECT COUNT(*) FROM challenges WHERE {_OPEN_SQL}"
                    " AND (challenger_id = ? OR challenged_id = ?)", (user_id, user_id))
                if row is not None and int(row[0]) >= open_limit:
                    raise OpenLimit(user_id)
            inserted = await tx.fetchrow(
                "INSERT INTO challenges (guild_id, channel_id, game, deals, bot_kind, days,"
                " challenger_id, challenger_name, challenged_id, challenged_name, secret,"
                " deadline, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (guild_id, channel_id, game, deals, bot_kind, days, challenger[0],
                 challenger[1], challenged[0], challenged[1], secret, deadline, now_text()))
            assert inserted is not None
            return int(inserted[0])

        return await self._writing("creating a challenge", work)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._fetchone(f"reading challenge {challenge_id}",
                                   f"SELECT {_COLUMNS} FROM challenges WHERE id = ?",
                                   (challenge_id,))
        return None if row is None else _row(row)

    async def open_challenges(self) -> list[ChallengeRow]:
        """Offered and accepted challenges (the deadline watch and a restart read them)."""
        rows = await self._fetchall(
            "listing the open challenges",
            f"SELECT {_COLUMNS} FROM challenges WHERE {_OPEN_SQL} ORDER BY id")
        return [_row(r) for r in rows]

    async def challenges_of(self, guild_id: int, user_id: int, limit: int = 10
                            ) -> list[ChallengeRow]:
        """A person's challenges on a server, open ones first, then the newest."""
        rows = await self._fetchall(
            f"listing the challenges of user {user_id}",
            f"SELECT {_COLUMNS} FROM challenges WHERE guild_id = ?"
            " AND (challenger_id = ? OR challenged_id = ?)"
            f" ORDER BY CASE WHEN {_OPEN_SQL} THEN 0 ELSE 1 END, id DESC LIMIT ?",
            (guild_id, user_id, user_id, limit))
        return [_row(r) for r in rows]

    async def challenge_tables_hidden_from(self, user_id: int) -> set[int]:
        """The tables of challenges still being played that are not this person's: what
        was played there stays hidden from them (and from everyone but its player) until
        the challenge ends."""
        rows = await self._fetchall(
            "listing the tables of the challenges being played",
            "SELECT challenger_id, challenged_id, challenger_table, challenged_table"
            " FROM challenges WHERE status = 'accepted'")
        return {int(table) for row in rows for person, table in ((row[0], row[2]),
                                                                 (row[1], row[3]))
                if table is not None and int(person) != user_id}

    async def accept_challenge(self, challenge_id: int, client_seed: str, deadline: int,
                               now: int) -> bool:
        """Offered -> accepted, with the deals' client seed and the play's deadline (False:
        it is no longer on offer, or its offer expired; nothing changes)."""
        changed = await self._write(
            f"accepting challenge {challenge_id}",
            "UPDATE challenges SET status = 'accepted', client_seed = ?, deadline = ?"
            " WHERE id = ? AND status = 'offered' AND deadline > ?",
            (client_seed, deadline, challenge_id, now))
        return changed == 1

    async def set_challenge_table(self, challenge_id: int, place: int, table_id: int) -> bool:
        """Record a person's table (False: they have one already, or the challenge is not
        being played; nothing changes)."""
        column = _TABLE_COLUMN[place]
        changed = await self._write(
            f"starting a table of challenge {challenge_id}",
            f"UPDATE challenges SET {column} = ? WHERE id = ? AND {column} IS NULL"
            " AND status = 'accepted'", (table_id, challenge_id))
        return changed == 1

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(f"setting the message of challenge {challenge_id}",
                          "UPDATE challenges SET message_id = ? WHERE id = ?",
                          (message_id, challenge_id))

    async def mark_challenge_reminded(self, challenge_id: int, place: int) -> bool:
        """Note that a person was pinged (False: they were already; nothing changes)."""
        bit = 1 << place
        changed = await self._write(
            f"noting a ping of challenge {challenge_id}",
            f"UPDATE challenges SET reminded = reminded | {bit} WHERE id = ?"
            f" AND (reminded & {bit}) = 0", (challenge_id,))
        return changed == 1

    async def end_challenge(self, challenge_id: int, status: str, from_status: str,
                            scores: tuple[int, int] | None = None) -> bool:
        """Close a challenge that is `from_status` (False: it is not any more, so someone
        else closed it; nothing changes)."""
        score_a, score_b = scores if scores is not None else (None, None)
        changed = await self._write(
            f"ending challenge {challenge_id}",
            "UPDATE challenges SET status = ?, score_a = ?, score_b = ?, finished_at = ?"
            " WHERE id = ? AND status = ?",
            (status, score_a, score_b, now_text(), challenge_id, from_status))
        return changed == 1
