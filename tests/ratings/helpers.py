"""Helpers (no tests here): storing finished matches through the Store API, as a table
would, with the ratings update in the same transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.ai import bot_name
from bot.ratings.recorder import figures_or_none, rater_with
from bot.store import PlayerResult, Store

Seat = tuple[int | None, str | None, str]  # user id, bot kind, display name


async def add_finished(store: Store, game: str, guild_id: int, seats: Sequence[Seat],
                       sides: Sequence[Sequence[int]], ranks: Sequence[int],
                       totals: Sequence[int] | None = None,
                       deals: Sequence[Sequence[int]] = (),
                       history: Sequence[tuple[int, str]] = (), seed: int = 1,
                       options: dict[str, Any] | None = None, channel_id: int = 2) -> int:
    """A finished match: seats (person or bot), sides (seat lists), each side's rank."""
    creator = next((u for u, _, _ in seats if u is not None), 1)
    match_id = await store.create_match(game, options or {}, seed, guild_id, channel_id,
                                        creator, {})
    for seat, (user_id, kind, name) in enumerate(seats):
        await store.set_seat(match_id, seat, user_id=user_id, bot_kind=kind,
                             display_name=name)
    await store.set_status(match_id, "playing")
    for seq, (seat, action) in enumerate(history):
        await store.append_action(match_id, seq, seat, action, "user", None)
    totals = list(totals if totals is not None else [100 - 10 * r for r in ranks])
    for deal_no, points in enumerate(deals, start=1):
        await store.record_deal(match_id, deal_no, points, {"lines": [
            {"label": f"Deal {deal_no}", "points": list(points), "note": f"note {deal_no}"}]})
    side_of = {seat: side for side, members in enumerate(sides) for seat in members}
    players = [PlayerResult(seat, side_of[seat], u, k, ranks[side_of[seat]],
                            totals[side_of[seat]]) for seat, (u, k, _) in enumerate(seats)]
    winners = [i for i, r in enumerate(ranks) if r == 0]
    result = {"sides": [f"Side {i}" for i in range(len(sides))],
              "side_seats": [list(s) for s in sides], "totals": totals, "ranks": list(ranks),
              "summary": "done"}
    figures = figures_or_none(game, options or {}, seed, history, match_id) if history \
        else None
    await store.finish_match(match_id, result=result,
                             winner_side=winners[0] if len(winners) == 1 else None,
                             players=players, raters=[rater_with(figures)])
    return match_id


def person(user_id: int, name: str | None = None) -> Seat:
    return (user_id, None, name or f"P{user_id}")


def bot(kind: str) -> Seat:
    return (None, kind, bot_name(kind))
