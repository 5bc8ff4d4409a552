"""The append-only action log, and loading whole tables in bulk for a restart."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from .base import Dialect, DuplicateKey, MissingParent, StoreBase, Tx, missing_match, placeholders
from .codec import (
    ACTION_COLUMNS,
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    action_row,
    load_time,
    match_row,
    now_text,
    seat_row,
    time_text,
)
from .errors import StoreConflict, StoreError
from .models import ACTORS, ActionRow, Actor, MatchBundle, MatchRow, SeatRow, Shards

# Far below SQLite's limit on bound parameters (32766 since 3.32, 999 before) and
# PostgreSQL's (32767).
_CHUNK = 500

Loaded = dict[int, MatchBundle | StoreError]


# The values are cast: in a SELECT list PostgreSQL would otherwise take them as text.
_APPEND_SQL = (
    f"INSERT INTO actions ({ACTION_COLUMNS})"
    " SELECT CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT),"
    " CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT)"
    " WHERE (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = ?) = ?")
_INSERT_SQL = f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"


_NEXT_SEQ_SQL = "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = ?"


class ActionsMixin(StoreBase):
    async def append_action(
        self, match_id: int, seq: int, seat: int, action: str, actor: Actor,
        user_id: int | None = None, at: datetime | None = None,
    ) -> None:
        """Append action number seq (0-based) to the match's log, committed on return.
        `at` is when it was made (default now): turn timers count from it after a restart.

        seq must be exactly the next number; otherwise StoreConflict and nothing is
        written. The check and the insert are one statement, so two writers (tasks or
        processes) can never both append the same seq.
        """
        if actor not in ACTORS:
            raise ValueError(f"Unknown actor {actor!r}; expected one of {ACTORS}")
        doing = f"appending action {seq} to match {match_id}"
        try:
            inserted = await self._write(
                doing, _APPEND_SQL,
                (match_id, seq, seat, action, actor, user_id, time_text(at), match_id, seq))
        except MissingParent as error:
            raise missing_match(match_id) from error
        except DuplicateKey as error:
            raise StoreConflict(f"Action {seq} of match {match_id} was already written; "
                                "nothing was written.") from error
        if inserted != 1:
            # Read after the fact: only the message needs it, and the write is one statement
            # (one round trip on PostgreSQL).
            row = await self._fetchone(doing, _NEXT_SEQ_SQL, (match_id,))
            raise StoreConflict(
                f"Action {seq} of match {match_id} is out of order: the log's next number is "
                f"{row[0] if row else 0}; nothing was written.")

    async def append_actions(self, match_id: int, first_seq: int,
                             actions: Sequence[tuple[int, str]], actor: Actor) -> None:
        """Append a whole run of (seat, action) from first_seq on, in one transaction
        (importing a log, setting up a benchmark); the same checks as append_action."""
        if actor not in ACTORS:
            raise ValueError(f"Unknown actor {actor!r}; expected one of {ACTORS}")
        now = now_text()
        rows = [(match_id, first_seq + n, seat, action, actor, None, now)
                for n, (seat, action) in enumerate(actions)]

        async def append(tx: Tx) -> None:
            found = await tx.fetchrow(_NEXT_SEQ_SQL, (match_id,))
            if (found[0] if found else 0) != first_seq:
                raise StoreConflict(f"Match {match_id}'s log does not end at {first_seq}; "
                                    "nothing was written.")
            await tx.executemany(_INSERT_SQL, rows)

        try:
            await self._writing(f"appending {len(rows)} actions to match {match_id}", append)
        except MissingParent as error:
            raise missing_match(match_id) from error

    async def actions(self, match_id: int) -> list[ActionRow]:
        """The match's log in replay order."""
        rows = await self._fetchall(
            f"reading the actions of match {match_id}",
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE match_id = ? ORDER BY seq",
            (match_id,))
        return [action_row(row) for row in rows]

    async def next_seq(self, match_id: int) -> int:
        """The seq the next append_action must use (the number of actions logged)."""
        row = await self._fetchone(f"counting the actions of match {match_id}",
                                   _NEXT_SEQ_SQL, (match_id,))
        return int(row[0]) if row is not None else 0

    async def load_match_bundle(self, match_ids: Iterable[int]) -> Loaded:
        """Load many tables at once: four queries per 500 ids, in one consistent snapshot.

        Each id maps to its MatchBundle, or to the StoreError that makes it unreadable
        (the caller logs it and skips that table); ids that do not exist are left out.
        """
        ids = sorted(set(match_ids))
        loaded: Loaded = {}
        async with self._reading(f"loading {len(ids)} matches") as tx:
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start:start + _CHUNK]
                loaded.update(await _load(tx, self.dialect,
                                          f"id IN ({placeholders(chunk)})", chunk))
        return loaded

    async def load_unfinished(self, shards: Shards | None = None) -> Loaded:
        """Every table in the lobby or being played (only of the servers on `shards`,
        when given), as load_match_bundle: four queries."""
        where, params = "status IN ('lobby', 'playing')", []
        if shards is not None:
            where += f" AND ((guild_id >> 22) % ?) IN ({placeholders(shards.ids)})"
            params = [shards.count, *shards.ids]
        async with self._reading("loading unfinished matches") as tx:
            return await _load(tx, self.dialect, where, params)


def _corrupt_log(match_id: int, detail: str) -> StoreError:
    return StoreError(f"Match {match_id} has a corrupt action log in the database: {detail}")


async def _load(tx: Tx, dialect: Dialect, where: str, params: list[int]) -> Loaded:
    """Bundles for the matches selected by `where` (a fixed condition on matches).

    The logs come as one ordered list of (seat, action) rows, cut into matches by a
    second query's per-match counts, which also checks each log in the database: numbered
    densely from 0 (a gap would replay another game) with a number and a text in each
    row. No Python loop runs per action (a restart loads every unfinished log at once):
    each seat's row comes with the seq of the last action a person made from it.
    """
    chosen = f"SELECT id FROM matches WHERE {where}"
    match_rows = await tx.fetch(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id", params)
    seat_rows = await tx.fetch(
        f"SELECT {SEAT_COLUMNS}, person_last FROM seats LEFT JOIN"
        " (SELECT match_id, seat, MAX(seq) AS person_last FROM actions"
        f" WHERE match_id IN ({chosen}) AND actor = 'user' GROUP BY match_id, seat) AS people"
        f" USING (match_id, seat) WHERE match_id IN ({chosen}) ORDER BY match_id, seat",
        [*params, *params])
    log_rows: list[Any] = await tx.fetch(
        f"SELECT seat, action FROM actions WHERE match_id IN ({chosen})"
        " ORDER BY match_id, seq", params)
    log_shapes = await tx.fetch(
        f"SELECT match_id, COUNT(*), MAX(seq), {dialect.sound_actions}, MAX(created_at)"
        f" FROM actions WHERE match_id IN ({chosen}) GROUP BY match_id ORDER BY match_id",
        params)
    seats: defaultdict[int, list[SeatRow]] = defaultdict(list)
    logs: dict[int, tuple[tuple[int, str], ...]] = {}
    last_at: dict[int, datetime] = {}
    broken: dict[int, StoreError] = {}
    last_by_person: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for row in seat_rows:
        try:
            seats[row[0]].append(seat_row(row[:-1]))
        except StoreError as error:
            broken.setdefault(row[0], error)
        if row[-1] is not None:
            last_by_person[row[0]][row[1]] = row[-1]
    start = 0
    for owner, count, last, sound, latest in log_shapes:
        logs[owner] = tuple(log_rows[start:start + count])
        start += count
        try:
            last_at[owner] = load_time(latest, owner, "action time")
        except StoreError as error:
            broken[owner] = error
        if last != count - 1:  # seqs are unique and from 0: only a gap breaks this
            broken[owner] = _corrupt_log(owner, f"{count} actions numbered up to {last}")
        elif sound != count:
            broken[owner] = _corrupt_log(owner, "rows that are not a seat number and a text "
                                                f"({count - sound} of {count})")
    loaded: Loaded = {}
    for row in match_rows:
        match_id: int = row[0]
        try:
            match: MatchRow = match_row(row)
        except StoreError as error:
            loaded[match_id] = error
            continue
        loaded[match_id] = broken.get(match_id) or MatchBundle(
            match, tuple(seats[match_id]), logs.get(match_id, ()), last_at.get(match_id),
            last_by_person.get(match_id, {}))
    return loaded
