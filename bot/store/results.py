"""Scores and outcomes: each deal's points, and the end of a match in one transaction."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .announcements import OWE_POST_SQL
from .base import MissingParent, StoreBase, Tx, missing_match
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
from .errors import StoreConflict
from .models import END_STATUSES, DealRow, MatchResultRow, PlayerResult, Status
from .ratings import Rater, rate_in

log = logging.getLogger(__name__)


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
        except MissingParent as error:
            raise missing_match(match_id) from error

    async def deals(self, match_id: int) -> list[DealRow]:
        rows = await self._fetchall(
            f"reading the deals of match {match_id}",
            f"SELECT {DEAL_COLUMNS} FROM deal_results WHERE match_id = ? ORDER BY deal_no",
            (match_id,))
        return [deal_row(row) for row in rows]

    async def finish_match(
        self, match_id: int, *, status: Status = "finished", result: dict[str, Any],
        winner_side: int | None, players: Sequence[PlayerResult], raters: Sequence[Rater] = (),
    ) -> None:
        """End a match: status and finished_at, its match_results row and one
        match_players row per seat, all in ONE transaction with the rating changes each
        of `raters` computes (see ratings.Rater: each runs under its own savepoint, and
        its failure is logged and undoes only its own rows, never the result). If
        anything else fails, nothing is written.

        A match that has already ended raises StoreConflict (results are never counted twice).
        """
        if status not in END_STATUSES:
            raise ValueError(f"A match ends as one of {END_STATUSES}, not {status!r}")
        result_json = dump_json(result, "result")
        player_rows = [(match_id, p.seat, p.side, p.user_id, p.bot_kind, p.rank, p.points)
                       for p in players]
        now = now_text()

        async def finish(tx: Tx) -> None:
            row = await tx.fetchrow("SELECT status FROM matches WHERE id = ?", (match_id,))
            if row is None:
                raise missing_match(match_id)
            if row[0] in END_STATUSES:
                raise StoreConflict(f"Match {match_id} has already ended ({row[0]}).")
            await tx.execute("UPDATE matches SET status = ?, finished_at = ? WHERE id = ?",
                             (status, now, match_id))
            await tx.execute(
                "INSERT INTO match_results (match_id, finished_at, result, winner_side)"
                " VALUES (?, ?, ?, ?)", (match_id, now, result_json, winner_side))
            await tx.executemany(
                f"INSERT INTO match_players (match_id, {PLAYER_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?)", player_rows)
            for rater in raters:
                await rate_in(tx, match_id, rater, log)
            if raters:  # its rating changes are to be posted, even after a restart
                await tx.execute(OWE_POST_SQL, (match_id,))

        await self._writing(f"finishing match {match_id}", finish)

    async def get_result(self, match_id: int) -> MatchResultRow | None:
        """The outcome written by finish_match, with its players by seat; None if none."""
        async with self._reading(f"reading the result of match {match_id}") as tx:
            row = await tx.fetchrow(
                "SELECT finished_at, result, winner_side FROM match_results"
                " WHERE match_id = ?", (match_id,))
            if row is None:
                return None
            players = [player_result(p) for p in await tx.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM match_players WHERE match_id = ?"
                " ORDER BY seat", (match_id,))]
        finished_at, result, winner_side = row
        return MatchResultRow(
            match_id, load_time(finished_at, match_id, "finished_at of its result"),
            load_result(result, match_id), winner_side, tuple(players))
