"""The append-only action log, and loading whole tables in bulk for a restart."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import aiosqlite

from .base import StoreBase, missing_match, placeholders
from .codec import (
    ACTION_COLUMNS,
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    action_row,
    match_row,
    now_text,
    seat_row,
)
from .errors import StoreConflict, StoreError
from .models import ACTORS, ActionRow, Actor, MatchBundle, MatchRow, SeatRow

# Far below SQLite's limit on bound parameters (32766 since 3.32, 999 before).
_CHUNK = 500

Loaded = dict[int, MatchBundle | StoreError]


_APPEND_SQL = (
    f"INSERT INTO actions ({ACTION_COLUMNS})"
    " SELECT :match_id, :seq, :seat, :action, :actor, :user_id, :now"
    " WHERE (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions"
    "        WHERE match_id = :match_id) = :seq")


@dataclass(slots=True)
class _Append:
    params: dict[str, Any]
    done: asyncio.Future[None]


class ActionsMixin(StoreBase):
    # Appends waiting for the writer task (group commit, see append_action).
    _appends: list[_Append] | None = None
    _appender: asyncio.Task[None] | None = None

    async def append_action(
        self, match_id: int, seq: int, seat: int, action: str, actor: Actor,
        user_id: int | None = None,
    ) -> None:
        """Append action number seq (0-based) to the match's log, committed on return.

        seq must be exactly the next number; otherwise StoreConflict and nothing is
        written. The check and the insert are one statement, so two writers (tasks or
        processes) can never both append the same seq.

        Appends from many tables are written together: each trip to the database thread
        waits for the event loop while the store's lock is held, so under load one trip
        per action would bound the whole bot. Each insert still commits on its own, and
        each caller returns only after its own row is committed (or raises its error).
        """
        if actor not in ACTORS:
            raise ValueError(f"Unknown actor {actor!r}; expected one of {ACTORS}")
        entry = _Append({"match_id": match_id, "seq": seq, "seat": seat, "action": action,
                         "actor": actor, "user_id": user_id, "now": now_text()},
                        asyncio.get_running_loop().create_future())
        if self._appends is None:
            self._appends = []
        self._appends.append(entry)
        if self._appender is None or self._appender.done():
            self._appender = asyncio.create_task(self._write_appends(), name="store-appends")
        await entry.done

    async def _write_appends(self) -> None:
        while self._appends:
            batch = [e for e in self._appends if not e.done.done()]  # cancelled: skip
            self._appends = []
            if not batch:
                continue
            try:
                async with self._using(f"appending {len(batch)} actions") as conn:
                    errors = await _insert_actions(conn, batch)
            except Exception as error:  # the store is closed or unusable: all fail
                errors = [error] * len(batch)
            except BaseException:  # this task was cancelled: so are its callers' waits
                for entry in batch:
                    entry.done.cancel()
                raise
            for entry, failure in zip(batch, errors, strict=True):
                if entry.done.done():
                    continue
                if failure is None:
                    entry.done.set_result(None)
                else:
                    entry.done.set_exception(failure)

    async def actions(self, match_id: int) -> list[ActionRow]:
        """The match's log in replay order."""
        rows = await self._fetchall(
            f"reading the actions of match {match_id}",
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE match_id = ? ORDER BY seq",
            (match_id,))
        return [action_row(row) for row in rows]

    async def next_seq(self, match_id: int) -> int:
        """The seq the next append_action must use (the number of actions logged)."""
        async with self._using(f"counting the actions of match {match_id}") as conn:
            return await _next_seq(conn, match_id)

    async def load_match_bundle(self, match_ids: Iterable[int]) -> Loaded:
        """Load many tables at once: three queries per 500 ids, in one consistent snapshot.

        Each id maps to its MatchBundle, or to the StoreError that makes it unreadable
        (the caller logs it and skips that table); ids that do not exist are left out.
        """
        ids = sorted(set(match_ids))
        loaded: Loaded = {}
        async with self._transaction(f"loading {len(ids)} matches", write=False) as conn:
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start:start + _CHUNK]
                loaded.update(await _load(conn, f"id IN ({placeholders(chunk)})", chunk))
        return loaded

    async def load_unfinished(self) -> Loaded:
        """Every table in the lobby or being played, as load_match_bundle: three queries."""
        async with self._transaction("loading unfinished matches", write=False) as conn:
            return await _load(conn, "status IN ('lobby', 'playing')", [])


async def _insert_actions(conn: aiosqlite.Connection,
                          batch: list[_Append]) -> list[Exception | None]:
    """Insert the batch in one trip (each row its own autocommit); per entry, None or the
    error append_action raises for it."""
    before = conn.total_changes
    try:
        await conn.executemany(_APPEND_SQL, [entry.params for entry in batch])
        if conn.total_changes - before == len(batch):
            return [None] * len(batch)  # each statement inserts at most one row
    except sqlite3.Error:
        pass  # some went in: find out which below; the rest get their own error
    outcomes: list[Exception | None] = []
    for entry in batch:
        if await _is_stored(conn, entry.params):
            outcomes.append(None)
        else:
            outcomes.append(await _insert_one(conn, entry.params))
    return outcomes


async def _is_stored(conn: aiosqlite.Connection, params: dict[str, Any]) -> bool:
    async with conn.execute(
            "SELECT seat, action, actor, user_id, created_at FROM actions"
            " WHERE match_id = ? AND seq = ?", (params["match_id"], params["seq"])) as cursor:
        row = await cursor.fetchone()
    return row is not None and tuple(row) == (params["seat"], params["action"],
                                              params["actor"], params["user_id"],
                                              params["now"])


async def _insert_one(conn: aiosqlite.Connection, params: dict[str, Any]) -> Exception | None:
    match_id, seq = params["match_id"], params["seq"]
    try:
        rows = await conn.execute_fetchall(_APPEND_SQL + " RETURNING seq", params)
    except sqlite3.IntegrityError as error:
        if "FOREIGN KEY" in str(error):
            found = missing_match(match_id)
        else:
            found = StoreConflict(f"Action {seq} of match {match_id} was already written; "
                                  "nothing was written.")
        found.__cause__ = error
        return found
    except sqlite3.Error as error:
        found = StoreError(f"Database error while appending action {seq} to match "
                           f"{match_id}: {error}")
        found.__cause__ = error
        return found
    if len(list(rows)) == 1:
        return None
    expected = await _next_seq(conn, match_id)
    return StoreConflict(
        f"Action {seq} of match {match_id} is out of order: the log's next number is "
        f"{expected}; nothing was written.")


async def _next_seq(conn: aiosqlite.Connection, match_id: int) -> int:
    async with conn.execute(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = ?",
            (match_id,)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def _rows(conn: aiosqlite.Connection, sql: str, params: list[int]) -> list[sqlite3.Row]:
    async with conn.execute(sql, params) as cursor:
        return list(await cursor.fetchall())


async def _load(conn: aiosqlite.Connection, where: str, params: list[int]) -> Loaded:
    """Bundles for the matches selected by `where` (a fixed condition on matches)."""
    chosen = f"SELECT id FROM matches WHERE {where}"
    match_rows = await _rows(
        conn, f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id", params)
    seat_rows = await _rows(
        conn, f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id IN ({chosen})"
        " ORDER BY match_id, seat", params)
    action_rows = await _rows(
        conn, f"SELECT {ACTION_COLUMNS} FROM actions WHERE match_id IN ({chosen})"
        " ORDER BY match_id, seq", params)
    seats: defaultdict[int, list[SeatRow]] = defaultdict(list)
    actions: defaultdict[int, list[ActionRow]] = defaultdict(list)
    broken: dict[int, StoreError] = {}
    for row in seat_rows:
        try:
            seats[row[0]].append(seat_row(row))
        except StoreError as error:
            broken.setdefault(row[0], error)
    for row in action_rows:
        try:
            actions[row[0]].append(action_row(row))
        except StoreError as error:
            broken.setdefault(row[0], error)
    loaded: Loaded = {}
    for row in match_rows:
        match_id: int = row[0]
        try:
            match: MatchRow = match_row(row)
        except StoreError as error:
            loaded[match_id] = error
            continue
        loaded[match_id] = broken.get(match_id) or MatchBundle(
            match, tuple(seats[match_id]), tuple(actions[match_id]))
    return loaded
