"""Rating a finished match, inside the transaction that stores its result; and rebuilding
every rating from the stored results.

The store moves the rows; this module gives it the math, as a `Rater`: from the match and
its entities' current ratings, the changes and figures. The incremental path (a table
finishing) and the rebuild run the same `rate_match`, so the two agree by construction
(tests check it). A failure here never loses a match result: the store runs a finishing
match's Rater under a savepoint, and on error rolls back only the ratings (and logs it);
`python -m bot ratings --rebuild` repairs them later.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.fairness import FairDeals, deal_source
from bot.store import MatchToRate, Rater, RatingChange, RatingUpdate, Store

from .figures import Figures, match_figures
from .model import Rating, SeatResult, outcomes, rate

log = logging.getLogger(__name__)


def rate_match(match: MatchToRate, stored: Mapping[str, tuple[float, float]],
               figures: Figures | None = None) -> RatingUpdate:
    """The rating changes (and figures, per entity) of one finished match."""
    seats = [SeatResult(s.player, s.side, s.rank) for s in match.seats]
    before = {key: Rating(*value) for key, value in stored.items()}
    after = rate(seats, before)
    results = outcomes(seats)
    user_of = {s.player: s.user_id for s in match.seats}
    changes = []
    for key in sorted(after):
        old = before.get(key, Rating())
        new = after[key]
        changes.append(RatingChange(match.match_id, key, user_of[key], results[key], old.mu,
                                    old.sigma, new.mu, new.sigma))
    by_player: dict[str, dict[str, int]] = {}
    for seat in match.seats:
        for name, value in (figures or {}).get(seat.seat, {}).items():
            counts = by_player.setdefault(seat.player, {})
            counts[name] = counts.get(name, 0) + value
    return RatingUpdate(changes, by_player)


def figures_or_none(game: str, options: Mapping[str, Any], seed: int | FairDeals,
                    history: Sequence[tuple[int, str]], match_id: int) -> Figures | None:
    """Figures from the log, or None (logged) if it cannot be replayed: figures are extras
    and must never stop a rating or a result."""
    try:
        return match_figures(game, options, seed, history)
    except Exception:
        log.exception("match %s: could not count figures from its action log", match_id)
        return None


def rater_with(figures: Figures | None) -> Rater:
    """A Rater that adds the figures already counted (a table counts them from the game
    it holds, before the store's transaction starts)."""
    return lambda match, stored: rate_match(match, stored, figures)


def finish_hook(table: Any) -> Rater:
    """A TableService finish hook: the Rater for this table's finishing transaction."""
    return rater_with(figures_or_none(table.game_name, table.options, table.deal_source,
                                      list(table.game.history), table.id))


def _rebuilding(match: MatchToRate, stored: Mapping[str, tuple[float, float]]
                ) -> RatingUpdate:
    figures = None
    if match.history is not None:
        source = deal_source(match.seed, match.settings.get("deals"))
        figures = figures_or_none(match.game, match.options, source, match.history,
                                  match.match_id)
    return rate_match(match, stored, figures)


async def rebuild(store: Store, *, with_figures: bool = True) -> int:
    """Recompute every rating, change and figure from the stored results, replaying the
    finished matches in the order they finished; returns how many were replayed. One
    transaction: on any error nothing changes."""
    return await store.rebuild_ratings(_rebuilding, with_history=with_figures)
