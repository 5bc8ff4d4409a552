"""/stats as players read it (bot/render/leaderboard.py)."""

from __future__ import annotations

from bot.render.leaderboard import SHOWN_PER_POINT, trend_text
from bot.store.ratings import RatingChange


def change(match_id: int, shown: int) -> RatingChange:
    """A match's rating change worth `shown` points as /stats shows them."""
    return RatingChange(match_id, "u:1", 1, "loss", 20.0, 5.0, 20.0 + shown / SHOWN_PER_POINT,
                        5.0)


def test_stats_trend_needs_two_matches_and_one_is_said_as_its_change():
    assert trend_text([]) == "no rated match yet"
    one = trend_text([change(1, -46)])
    assert one == "none yet (one rated match: −46)"
    assert "over the last" not in one and "▼" not in one


def test_stats_trend_over_several_matches_names_them_and_their_order():
    newest_first = [change(3, -7), change(2, 62), change(1, 25)]
    assert trend_text(newest_first) == "▲ +80 over the last 3 matches (+25 +62 −7, newest last)"
    assert trend_text([change(2, -20), change(1, 20)]).startswith("▬ ±0 over the last 2 matches")
