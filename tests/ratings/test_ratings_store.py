"""Ratings in the store, on a real SQLite file: the update inside finish_match, the reads
behind the commands, and `ratings --rebuild` agreeing with the incremental result."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.__main__ import main
from bot.ai import make_player, player_kinds
from bot.games import create
from bot.ratings import recorder
from bot.ratings.model import Rating, SeatResult, rate
from bot.store import Store
from bot.store import ratings as store_ratings
from bot.store.ratings import RatingsReader
from tests.ratings.helpers import add_finished, bot, person

GUILD, OTHER_GUILD = 100, 200


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    return {table: [tuple(row) for row in await store._fetchall(
                "dumping", f"SELECT * FROM {table} ORDER BY 1, 2, 3")]
            for table in ("skill_ratings", "rating_changes", "player_figures")}


async def test_finish_match_updates_ratings_in_the_same_transaction(store):
    await add_finished(store, "tennis", GUILD, [person(1), person(2)], [[0], [1]], [0, 1])
    reader = RatingsReader(store)
    ratings, changes, _ = await reader.player(GUILD, 1, 5)
    (row,) = ratings
    expected = rate([SeatResult("u:1", 0, 0), SeatResult("u:2", 1, 1)], {})["u:1"]
    assert (row.game, row.games, row.wins, row.losses, row.draws) == ("tennis", 1, 1, 0, 0)
    assert row.mu == pytest.approx(expected.mu) and row.sigma == pytest.approx(expected.sigma)
    assert changes["tennis"][0].outcome == "win" and changes["tennis"][0].change > 0
    loser, _, _ = await reader.player(GUILD, 2, 5)
    assert (loser[0].wins, loser[0].losses) == (0, 1)
    # Ratings are per server.
    assert (await reader.player(OTHER_GUILD, 1, 5))[0] == []


async def test_a_failing_rating_update_never_loses_the_result(store, monkeypatch):
    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(store_ratings, "save_changes", broken)
    match_id = await add_finished(store, "tennis", GUILD, [person(1), person(2)],
                                  [[0], [1]], [0, 1])
    assert (await store.get_result(match_id)) is not None
    assert (await RatingsReader(store).player(GUILD, 1, 5))[0] == []
    monkeypatch.undo()
    assert await recorder.rebuild(store) == 1
    assert (await RatingsReader(store).player(GUILD, 1, 5))[0][0].games == 1


async def test_partnership_and_bots_are_rated_per_kind(store):
    seats = [person(1), bot("spades-basic"), person(3), bot("spades-basic")]
    await add_finished(store, "spades", GUILD, seats, [[0, 2], [1, 3]], [1, 0])
    reader = RatingsReader(store)
    (kind,) = await reader.bots(GUILD, "spades")
    assert kind.player == "b:spades-basic" and kind.games == 1 and kind.wins == 1
    assert kind.mu > Rating().mu
    for user in (1, 3):
        (row,), _, _ = await reader.player(GUILD, user, 5)
        assert row.losses == 1 and row.mu < Rating().mu
    page = await reader.board(GUILD, "spades", 0, 10, 5)
    assert {r.user_id for r in page.rows} == {1, 3}, "people only; bots are listed apart"


async def test_draws_are_counted(store):
    await add_finished(store, "tennis", GUILD, [person(1), person(2)], [[0], [1]], [0, 0])
    for user in (1, 2):
        (row,), changes, _ = await RatingsReader(store).player(GUILD, user, 5)
        assert (row.wins, row.losses, row.draws) == (0, 0, 1)
        assert changes["tennis"][0].outcome == "draw"


async def test_abandoned_matches_are_not_rated(store):
    match_id = await store.create_match("tennis", {}, 1, GUILD, 2, 1, {})
    await store.set_seat(match_id, 0, user_id=1, display_name="A")
    await store.set_status(match_id, "abandoned")
    assert await recorder.rebuild(store) == 0
    assert (await RatingsReader(store).player(GUILD, 1, 5))[0] == []


async def test_leaderboard_orders_established_players_first_and_pages(store):
    # Person 1 plays 5 matches (established) and loses them all; 2 wins once (provisional).
    for _ in range(5):
        await add_finished(store, "tennis", GUILD, [person(1), person(3)], [[0], [1]], [1, 0])
    await add_finished(store, "tennis", GUILD, [person(2), person(4)], [[0], [1]], [0, 1])
    reader = RatingsReader(store)
    page = await reader.board(GUILD, "tennis", 0, 2, 5)
    assert page.total == 4 and page.established == 2
    assert [r.user_id for r in page.rows] == [3, 1], "established, best first"
    second = await reader.board(GUILD, "tennis", 1, 2, 5)
    assert [r.user_id for r in second.rows] == [2, 4] and second.first_index == 2
    assert (await reader.board(GUILD, "tennis", 2, 2, 5)).rows == ()


async def test_history_and_score_sheet(store):
    first = await add_finished(store, "spades", GUILD,
                               [person(1, "Ann"), person(2, "Ben"), person(3, "Cy"),
                                bot("spades-basic")], [[0, 2], [1, 3]], [0, 1],
                               totals=[510, 320], deals=[[120, -40], [390, 360]])
    for _ in range(6):
        await add_finished(store, "tennis", GUILD, [person(1, "Ann"), person(2, "Ben")],
                           [[0], [1]], [1, 0])
    await add_finished(store, "tennis", OTHER_GUILD, [person(1), person(2)], [[0], [1]],
                       [0, 1])
    reader = RatingsReader(store)
    entries, more = await reader.history(GUILD, 1, 0, 5)
    assert more and len(entries) == 5 and all(e.game == "tennis" for e in entries)
    assert entries[0].match_id > entries[-1].match_id and entries[0].outcome == "loss"
    entries, more = await reader.history(GUILD, 1, 1, 5)
    assert not more and [e.match_id for e in entries][-1] == first
    spades = entries[-1]
    assert spades.outcome == "win" and spades.result["totals"] == [510, 320]
    assert {p.name for p in spades.players if p.side == spades.side} == {"Ann", "Cy"}
    sheet = await reader.score_sheet(GUILD, first)
    assert sheet is not None and [d.points for d in sheet.deals] == [(120, -40), (390, 360)]
    assert await reader.score_sheet(OTHER_GUILD, first) is None, "another server's match"
    assert (await reader.history(GUILD, 99, 0, 5)) == ([], False)


def _play(name: str, seed: int, options: dict[str, Any]) -> list[tuple[int, str]]:
    game = create(name, options=options, seed=seed)
    # The rule-based level (the last listed): quick, and any finished match will do.
    players = [make_player(name, seed + s, player_kinds(name)[-1]) for s in range(game.SEATS)]
    while not game.finished:
        seat = min(game.to_act())
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    return list(game.history)


async def test_rebuild_equals_the_incremental_result(store, tmp_path):
    people = [person(u) for u in range(1, 7)]
    bidfair = {"target": 150}
    for i in range(24):
        a, b, c, d = (people[(i + k) % 6] for k in (0, 1, 3, 4))
        if i % 4 == 0:
            await add_finished(store, "spades", GUILD, [a, bot("spades-basic"), c, b],
                               [[0, 2], [1, 3]], [i % 3 == 0, i % 3 != 0])
        elif i % 4 == 1:
            history = _play("bidfair", i, bidfair)
            await add_finished(store, "bidfair", GUILD, [a, d], [[0], [1]], [0, 1],
                               history=history, seed=i, options=bidfair)
        elif i % 4 == 2:
            await add_finished(store, "tennis", GUILD, [b, c], [[0], [1]], [0, 0])
        else:
            await add_finished(store, "tennis", OTHER_GUILD, [a, bot("tennis-basic")],
                               [[0], [1]], [1, 0])
    incremental = await _dump(store)
    assert incremental["player_figures"], "the bidfair logs gave figures"
    assert len(incremental["rating_changes"]) > 24
    assert await recorder.rebuild(store) == 24
    assert await _dump(store) == incremental


def test_rebuild_command_line(database, capsys):

    async def prepare() -> dict[str, list[tuple[Any, ...]]]:
        async with await Store.open(database) as store:
            await add_finished(store, "tennis", GUILD, [person(1), person(2)], [[0], [1]],
                               [0, 1])
            before = await _dump(store)
            await store._write("spoiling", "DELETE FROM skill_ratings")
        return before

    async def dump() -> dict[str, list[tuple[Any, ...]]]:
        async with await Store.open(database) as store:
            return await _dump(store)

    before = asyncio.run(prepare())
    assert asyncio.run(dump())["skill_ratings"] == []
    assert main(["ratings", "--rebuild", "--database", database]) == 0
    assert "1 finished matches" in capsys.readouterr().out
    assert asyncio.run(dump()) == before
