"""Scores and outcomes: each deal's points, and the end of a match in one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from .base import StoreBase, is_missing_parent, missing_match
from .codec import (
    DEAL_COLUMNS,
    PLAYER_COLUMNS,
    deal_row,
    dump_json,
    load_result,
    load_time,
    now_text,
    player_result,
)
from .errors import StoreConflict, StoreError
from .models import END_STATUSES, DealRow, MatchResultRow, PlayerResult, Status

# More writes for finish_match's transaction, on its connection (ratings, figures).
Extra = Callable[[sqlite3.Connection], None]


class ResultsMixin(StoreBase):
    async def record_deal(
        self, match_id: int, deal_no: int, points: Sequence[int], detail: dict[str, Any],
    ) -> None:
        """Write (or rewrite: replaying a log may score a deal again) one deal's score."""
        try:
            await self._write(
                f"recording deal {deal_no} of match {match_id}",
                f"INSERT INTO deal_results ({DEAL_COLUMNS}) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (match_id, deal_no) DO UPDATE SET"
                " points = excluded.points, detail = excluded.detail",
                (match_id, deal_no, dump_json([int(p) for p in points], "points"),
                 dump_json(detail, "detail")))
        except StoreError as error:
            if is_missing_parent(error):
                raise missing_match(match_id) from error
            raise

    async def deals(self, match_id: int) -> list[DealRow]:
        rows = await self._fetchall(
            f"reading the deals of match {match_id}",
            f"SELECT {DEAL_COLUMNS} FROM deal_results WHERE match_id = ? ORDER BY deal_no",
            (match_id,))
        return [deal_row(row) for row in rows]

    async def finish_match(
        self, match_id: int, *, status: Status = "finished", result: dict[str, Any],
        winner_side: int | None, players: Sequence[PlayerResult], extra: Extra | None = None,
    ) -> None:
        """End a match: status and finished_at, its match_results row and one
        match_players row per seat, all in ONE transaction with `extra` (run last, with the
        transaction's connection: it writes only through that, synchronously, and may be
        run again if another process held the write lock). If anything raises, nothing is
        written.

        A match that has already ended raises StoreConflict (results are never counted twice).
        """
        if status not in END_STATUSES:
            raise ValueError(f"A match ends as one of {END_STATUSES}, not {status!r}")
        result_json = dump_json(result, "result")
        player_rows = [(match_id, p.seat, p.side, p.user_id, p.bot_kind, p.rank, p.points)
                       for p in players]
        now = now_text()

        def finish(conn: sqlite3.Connection) -> None:
            row = conn.execute("SELECT status FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise missing_match(match_id)
            if row[0] in END_STATUSES:
                raise StoreConflict(f"Match {match_id} has already ended ({row[0]}).")
            conn.execute("UPDATE matches SET status = ?, finished_at = ? WHERE id = ?",
                         (status, now, match_id))
            conn.execute(
                "INSERT INTO match_results (match_id, finished_at, result, winner_side)"
                " VALUES (?, ?, ?, ?)", (match_id, now, result_json, winner_side))
            conn.executemany(
                f"INSERT INTO match_players (match_id, {PLAYER_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?)", player_rows)
            if extra is not None:
                extra(conn)

        await self._writing(f"finishing match {match_id}", finish)

    async def get_result(self, match_id: int) -> MatchResultRow | None:
        """The outcome written by finish_match, with its players by seat; None if none."""
        async with self._snapshot(f"reading the result of match {match_id}") as conn:
            async with conn.execute(
                    "SELECT finished_at, result, winner_side FROM match_results"
                    " WHERE match_id = ?", (match_id,)) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            async with conn.execute(
                    f"SELECT {PLAYER_COLUMNS} FROM match_players WHERE match_id = ?"
                    " ORDER BY seat", (match_id,)) as cursor:
                players = [player_result(p) for p in await cursor.fetchall()]
        finished_at, result, winner_side = row
        return MatchResultRow(
            match_id, load_time(finished_at, match_id, "finished_at of its result"),
            load_result(result, match_id), winner_side, tuple(players))
