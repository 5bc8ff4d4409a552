"""Daily deals without Discord: the same cards for everyone, one play per day, results
hidden until played, matchpoints across the field, the day's roll-over, closing a day and
the daily leaderboard."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.games.bridge_scoring import board_dealer, board_vulnerability
from bot.store import Store
from bot.tables import Person, TableError, TableService
from bot.tables.daily import DailyDeals, day_of, ranked
from tests.tables.helpers import play_until

ALICE, BOB, CAROL = Person(1, "Alice"), Person(2, "Bob"), Person(3, "Carol")
GUILD = 9


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def parts(tmp_path) -> AsyncIterator[tuple[TableService, DailyDeals, Clock]]:
    store = await Store.open(tmp_path / "t.db")
    service = TableService(store, bot_delay=0, think_seconds=0.02)
    clock = Clock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
    yield service, DailyDeals(service, store, clock), clock
    await service.shutdown()
    await store.close()


async def play_boards(service: TableService, table, person: Person, boards: int) -> None:
    """The person plays until `boards` boards (deals) have ended."""
    await play_until(service, table, person.user_id, lambda: table.game.packs_over >= boards)


async def test_daily_two_people_play_the_same_boards_and_get_the_same_cards(parts):
    service, daily, _ = parts
    alice = await daily.begin("bridge", GUILD, 201, ALICE)
    bob = await daily.begin("bridge", GUILD, 202, BOB)
    for table, person in ((alice, ALICE), (bob, BOB)):
        assert table.seat_of(person.user_id) == 2 and table.status == "playing"
        assert all(info is not None and info.is_bot for s, info in enumerate(table.seats)
                   if s != 2)
    assert alice.game.deal_record().hands == bob.game.deal_record().hands
    assert (alice.game.dealer, alice.game.vulnerable) == (board_dealer(1),
                                                          board_vulnerability(1))
    await play_boards(service, alice, ALICE, 1)
    await play_boards(service, bob, BOB, 1)
    assert alice.game.deal_no == bob.game.deal_no == 2
    assert alice.game.deal_record().hands == bob.game.deal_record().hands
    assert (bob.game.dealer, bob.game.vulnerable) == (board_dealer(2), board_vulnerability(2))
    spades_a = await daily.begin("spades", GUILD, 203, ALICE)
    spades_b = await daily.begin("spades", GUILD, 204, BOB)
    assert spades_a.game.deal_record().hands == spades_b.game.deal_record().hands
    assert spades_a.game.deal_record().hands != alice.game.deal_record().hands


async def test_daily_a_person_cannot_play_the_day_twice(parts):
    service, daily, _ = parts
    table = await daily.begin("bridge", GUILD, 201, ALICE)
    with pytest.raises(TableError, match="already"):
        await daily.begin("bridge", GUILD, 205, ALICE)
    assert service.in_channel(205) is None
    # Not even after leaving the first one.
    await service.lobby.abandon(table.id, ALICE.user_id)
    with pytest.raises(TableError, match="already"):
        await daily.begin("bridge", GUILD, 206, ALICE)
    with pytest.raises(TableError, match="bridge and spades"):
        await daily.begin("tennis", GUILD, 207, BOB)


async def test_daily_results_are_hidden_until_the_board_is_played(parts):
    service, daily, _ = parts
    alice = await daily.begin("bridge", GUILD, 201, ALICE)
    bob = await daily.begin("bridge", GUILD, 202, BOB)
    await play_boards(service, alice, ALICE, 2)
    await play_boards(service, bob, BOB, 1)
    day = await daily.today(GUILD)
    seen_by_bob = await daily.seen_by(GUILD, "bridge", day, BOB.user_id)
    seen_by_alice = await daily.seen_by(GUILD, "bridge", day, ALICE.user_id)
    seen_by_carol = await daily.seen_by(GUILD, "bridge", day, CAROL.user_id)
    assert set(seen_by_alice.boards) == {1, 2} and set(seen_by_bob.boards) == {1}
    assert seen_by_carol.boards == {} and seen_by_carol.hands == {}
    assert {r.user_id for r in seen_by_bob.boards[1]} == {ALICE.user_id, BOB.user_id}
    assert set(seen_by_bob.hands) == {1}
    # The standings (percentages only) are for everyone.
    assert {s.user_id for s in seen_by_carol.standings} == {ALICE.user_id, BOB.user_id}


async def test_daily_matchpoints_across_the_field(parts):
    service, daily, _ = parts
    tables = [(await daily.begin("bridge", GUILD, 210 + i, p), p)
              for i, p in enumerate((ALICE, BOB, CAROL))]
    for table, person in tables:
        await play_boards(service, table, person, 1)
    results = await daily.results(GUILD, "bridge", await daily.today(GUILD))
    board = results.boards[1]
    assert len(board) == 3
    scores = [r.score for r in board]
    assert scores == sorted(scores, reverse=True)
    for r in board:  # 2 per result beaten, 1 per tie, out of 4
        beaten = sum(r.score > o for o in scores)
        tied = sum(r.score == o for o in scores) - 1
        assert r.percent == pytest.approx(100 * (2 * beaten + tied) / 4)
    assert sum(r.percent for r in board) == pytest.approx(150)
    assert all(r.note for r in board)  # the contract and outcome (or "thrown in")


async def test_daily_the_day_rolls_over_at_the_servers_time(parts):
    _, daily, clock = parts
    assert day_of(datetime(2026, 11, 22, 23, 30, tzinfo=UTC), 0) == "2026-11-22"
    assert day_of(datetime(2026, 11, 22, 23, 30, tzinfo=UTC), 60) == "2026-11-23"
    assert day_of(datetime(2026, 11, 22, 0, 30, tzinfo=UTC), -60) == "2026-11-21"
    await daily.store.set_daily_settings(GUILD, channel_id=None, utc_offset=120)
    clock.now = datetime(2026, 11, 22, 21, 30, tzinfo=UTC)  # 23:30 on the server
    first = await daily.begin("spades", GUILD, 201, ALICE)
    assert await daily.today(GUILD) == "2026-11-22"
    assert await daily.ended_days() == []
    clock.now += timedelta(hours=1)  # 00:30 on the server: a new day
    assert await daily.today(GUILD) == "2026-11-23"
    assert await daily.ended_days() == [(GUILD, "spades", "2026-11-22")]
    second = await daily.begin("spades", GUILD, 202, ALICE)
    assert second.game.deal_record().hands != first.game.deal_record().hands


async def test_daily_closing_a_day_feeds_the_daily_leaderboard(parts):
    service, daily, clock = parts
    alice = await daily.begin("spades", GUILD, 201, ALICE)
    bob = await daily.begin("spades", GUILD, 202, BOB)
    await play_boards(service, alice, ALICE, 2)
    await play_boards(service, bob, BOB, 2)
    day = await daily.today(GUILD)
    clock.now += timedelta(days=1)
    [(guild, game, ended)] = await daily.ended_days()
    assert (guild, game, ended) == (GUILD, "spades", day)
    results = await daily.close(guild, game, ended)
    assert await daily.ended_days() == []
    places = ranked(results.standings)
    board = await daily.store.daily_board(GUILD, "spades")
    assert {row.user_id for row in board} == {ALICE.user_id, BOB.user_id}
    winners = {s.user_id for place, s in places if place == 1}
    assert {row.user_id for row in board if row.wins == 1} == winners
    assert all(row.days == 1 for row in board)
    by_user = {s.user_id: s.percent for s in results.standings}
    assert {row.user_id: row.average for row in board} == pytest.approx(by_user)
