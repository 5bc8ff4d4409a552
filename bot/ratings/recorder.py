"""Recording a finished match's ratings and figures, inside the transaction that stores
its result; and rebuilding all of them from the stored results.

The incremental path (a table finishing) and the rebuild run the same `record_match`, so
the two agree by construction (tests check it). A failure here must never lose a match
result: the update runs under a savepoint, and on error only the ratings part is rolled
back (and logged); `python -m bot ratings --rebuild` repairs them later.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.fairness import FairDeals, deal_source
from bot.store import Store
from bot.store import ratings as rows
from bot.store.ratings import RatingChange, RatingsReader

from .figures import Figures, match_figures
from .model import Rating, SeatResult, outcomes, rate

log = logging.getLogger(__name__)


def record_match(conn: sqlite3.Connection, match_id: int,
                       figures: Figures | None = None) -> list[RatingChange]:
    """Update ratings (and add figures, per seat) for one finished match; returns the
    changes. Matches that did not finish normally (abandoned) change nothing."""
    match = rows.match_to_rate(conn, match_id)
    if match is None or match.status != "finished" or not match.seats:
        return []
    seats = [SeatResult(s.player, s.side, s.rank) for s in match.seats]
    stored = rows.current_ratings(conn, match.guild_id, match.game, (s.key for s in seats))
    before = {key: Rating(*value) for key, value in stored.items()}
    after = rate(seats, before)
    results = outcomes(seats)
    user_of = {s.player: s.user_id for s in match.seats}
    changes = []
    for key in sorted(after):
        old = before.get(key, Rating())
        new = after[key]
        changes.append(RatingChange(match_id, key, user_of[key], results[key], old.mu,
                                    old.sigma, new.mu, new.sigma))
    rows.save_changes(conn, match, changes)
    if figures:
        by_player: dict[str, dict[str, int]] = {}
        for seat in match.seats:
            for name, value in figures.get(seat.seat, {}).items():
                counts = by_player.setdefault(seat.player, {})
                counts[name] = counts.get(name, 0) + value
        rows.add_figures(conn, match.guild_id, match.game, by_player)
    return changes


def figures_or_none(game: str, options: Mapping[str, Any], seed: int | FairDeals,
                    history: Sequence[tuple[int, str]], match_id: int) -> Figures | None:
    """Figures from the log, or None (logged) if it cannot be replayed: figures are extras
    and must never stop a rating or a result."""
    try:
        return match_figures(game, options, seed, history)
    except Exception:
        log.exception("match %s: could not count figures from its action log", match_id)
        return None


def record_safely(conn: sqlite3.Connection, match_id: int, figures: Figures | None) -> None:
    """record_match under a savepoint: on error only the ratings are rolled back."""
    conn.execute("SAVEPOINT ratings")
    try:
        record_match(conn, match_id, figures)
    except Exception:
        conn.execute("ROLLBACK TO ratings")
        log.exception("match %s: ratings not updated (run `python -m bot ratings --rebuild`)",
                      match_id)
    finally:
        conn.execute("RELEASE ratings")


def finish_hook(conn: sqlite3.Connection, table: Any) -> None:
    """A TableService finish hook: runs inside finish_match's transaction."""
    figures = figures_or_none(table.game_name, table.options, table.deal_source,
                              list(table.game.history), table.id)
    record_safely(conn, table.id, figures)


async def rebuild(store: Store, *, with_figures: bool = True) -> int:
    """Recompute every rating, change and figure from the stored results, replaying the
    finished matches in the order they finished; returns how many were replayed. One
    transaction: on any error nothing changes."""
    def replay(conn: sqlite3.Connection) -> int:
        rows.clear_all(conn)
        finished = rows.finished_in_order(conn)
        for match_id, game, options, seed, settings in finished:
            figures = None
            if with_figures:
                history = rows.logged_actions(conn, match_id)
                source = deal_source(seed, json.loads(settings).get("deals"))
                figures = figures_or_none(game, json.loads(options), source, history,
                                          match_id)
            record_match(conn, match_id, figures)
        return len(finished)

    return await RatingsReader(store).rewrite("rebuilding the ratings", replay)
