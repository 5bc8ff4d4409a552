"""Team matches below Discord: the record in the store (SQLite and PostgreSQL), the lobby's
refusals, and the score card's IMPs against an independent computation from the two
tables' stored results, over random boards (hypothesis)."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import AsyncIterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.club.privacy import record_withheld
from bot.club.teams import TeamMatch, TeamMatches, standings
from bot.games import create
from bot.games.events import DealEnded
from bot.games.team_scoring import TableBoard, score_card
from bot.store import Store
from bot.tables import Person, TableError, TableService, TableSettings

# The IMP scale as the WBF's conditions of contest print it: a difference of at least
# the lower bound (and below the next) is worth that many IMPs. Written out here on its
# own, not taken from the code under test.
IMP_SCALE = (0, 20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100,
             1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def wbf_imps(difference: int) -> int:
    size = abs(difference)
    won = max(i for i, low in enumerate(IMP_SCALE) if size >= low)
    return won if difference >= 0 else -won


def test_the_imp_scale_written_here_matches_known_values():
    assert [wbf_imps(d) for d in (0, 10, 20, 50, 420, 430, 620, 1430, 4000, -100)] == [
        0, 0, 1, 2, 9, 10, 12, 16, 24, -3]


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    await s.close()


async def test_a_team_match_record_is_stored_started_and_ended(store: Store):
    members = {"A": [(1, "Alice")], "B": [(2, "Bob"), (3, "Carol")]}
    match_id = await store.create_team_match(10, 20, 1, 8, "bridge-basic", members)
    [row] = await store.open_team_matches()
    assert (row.id, row.boards, row.status, row.members) == (match_id, 8, "lobby", members)
    tables = [await store.create_match("bridge", {"boards": 8}, 5, 10, 100 + i, 1, {})
              for i in range(2)]
    await store.start_team_match(match_id, *tables)
    await store.set_team_message(match_id, 555)
    row = await store.team_match(match_id)
    assert row is not None and (row.status, row.first_table, row.second_table,
                                row.message_id) == ("playing", tables[0], tables[1], 555)
    assert await store.end_team_match(match_id, "finished", (12, 3))
    assert not await store.end_team_match(match_id, "abandoned")  # closed already
    assert await store.open_team_matches() == []
    [done] = await store.finished_team_matches(10)
    assert (done.imps_a, done.imps_b, done.status) == (12, 3, "finished")
    board = standings([done])
    assert [(s.name, s.won, s.imps) for s in board] == [
        ("Alice", 1, 9), ("Bob", 0, -9), ("Carol", 0, -9)]


async def test_lobby_refusals_change_nothing(store: Store):
    service = TableService(store, bot_delay=0)
    teams = TeamMatches(service, store)
    alice, bob = Person(1, "Alice"), Person(2, "Bob")
    with pytest.raises(TableError, match="4 to 32 boards"):
        await teams.open(10, 20, alice, 40)
    with pytest.raises(TableError, match="no computer player"):
        await teams.open(10, 20, alice, 8, "robot")
    match = await teams.open(10, 20, alice, 8)
    with pytest.raises(TableError, match="already open in this channel"):
        await teams.open(10, 20, bob, 8)
    with pytest.raises(TableError, match="at least one person"):
        teams.check_start(match.id, alice.user_id)
    with pytest.raises(TableError, match="already in team A"):
        await teams.join(match.id, alice, "A")
    for user in range(2, 6):
        await teams.join(match.id, Person(user, f"P{user}"), "B")
    with pytest.raises(TableError, match="Team B is full"):
        await teams.join(match.id, alice, "B")
    with pytest.raises(TableError, match="not in this team match"):
        await teams.leave(match.id, 99)
    with pytest.raises(TableError, match="creator or its players"):
        teams.check_start(match.id, 99)
    row = await store.team_match(match.id)
    assert row is not None and row.members == match.members
    assert match.members["A"] == [(1, "Alice")] and len(match.members["B"]) == 4
    assert await store.open_team_matches() == [row] and not service.tables


def test_a_board_is_compared_only_once_both_tables_played_it():
    first = {1: TableBoard(420, "4♠ by N, made"), 2: TableBoard(-50, "3NT by S, down 1")}
    second = {1: TableBoard(-100, "4♠ by N, down 2")}
    card = score_card(4, first, second)
    assert [b.board for b in card.compared] == [1] and card.played == (2, 1)
    assert card.imps == (11, 0) and not card.complete and card.winner() is None


def _play_board_randomly(game, rng: random.Random) -> list[DealEnded]:
    """Random legal moves to the end of the match (claims and undos left out)."""
    ended: list[DealEnded] = []
    while not game.finished:
        seat = sorted(game.to_act())[0]
        moves = [m for m in map(str, game.legal(seat))
                 if not m.startswith(("claim", "undo"))]
        # Mostly passes in the auction, so random deals end in plausible contracts.
        passes = [m for m in moves if m == "pass"]
        move = passes[0] if passes and rng.random() < 0.55 else rng.choice(moves)
        ended += [e for e in game.apply(seat, move) if isinstance(e, DealEnded)]
    return ended


async def _stored_match(boards: int, seed: int) -> tuple[TeamMatches, TeamMatch, Store]:
    """Two tables played (randomly) on the same fair deals, their deals' results stored
    as the table service stores them."""
    store = await Store.open(":memory:")
    rng = random.Random(seed)
    secret = hashlib.sha256(f"{seed}".encode()).hexdigest()  # fixed by the example's seed
    settings_ = TableSettings(deal_secret=secret, client_seed=f"{seed:x}")
    table_ids = []
    for _ in range(2):
        match_id = await store.create_match("bridge", {"boards": boards}, seed, 1, 2, 3,
                                            settings_.to_dict())
        game = create("bridge", options={"boards": boards, "undo": False},
                      seed=settings_.deal_source(seed))
        for event in _play_board_randomly(game, rng):
            points = [sum(line.points[i] for line in event.lines) for i in range(2)]
            detail = {"lines": [{"label": line.label, "points": list(line.points),
                                 "note": line.note} for line in event.lines]}
            await store.record_deal(match_id, event.deal_no, points, detail)
        table_ids.append(match_id)
    teams = TeamMatches(TableService(store, bot_delay=0), store)
    match = TeamMatch(1, 1, 2, 3, boards, "bridge-basic", "playing", {"A": [], "B": []},
                      (table_ids[0], table_ids[1]))
    return teams, match, store


@settings(max_examples=12, deadline=None)
@given(boards=st.integers(4, 8), seed=st.integers(0, 2**32))
def test_team_match_imps_match_an_independent_computation(boards: int, seed: int):
    async def check() -> None:
        teams, match, store = await _stored_match(boards, seed)
        assert match.tables is not None
        try:
            card = await teams.results(match)
            a_rows = {d.deal_no: d.points for d in await store.deals(match.tables[0])}
            b_rows = {d.deal_no: d.points for d in await store.deals(match.tables[1])}
        finally:
            await store.close()
        assert sorted(a_rows) == sorted(b_rows) == list(range(1, boards + 1))
        # Team A holds North-South at the first table, East-West at the second: its net
        # is NS(first) + EW(second), as points each side scored.
        won_a = won_b = 0
        for board in range(1, boards + 1):
            net = (a_rows[board][0] - a_rows[board][1]) + (b_rows[board][1] - b_rows[board][0])
            imp = wbf_imps(net)
            won_a += max(imp, 0)
            won_b += max(-imp, 0)
            assert card.compared[board - 1].imps_a == imp
        assert card.imps == (won_a, won_b) and card.complete

    asyncio.run(check())


async def _linked(store: Store, boards: int) -> tuple[int, list[int]]:
    match_id = await store.create_team_match(10, 20, 1, boards, "bridge-basic",
                                             {"A": [(1, "Alice")], "B": [(2, "Bob")]})
    tables = [await store.create_match("bridge", {"boards": boards}, 5, 10, 100 + i, 1, {})
              for i in range(2)]
    await store.start_team_match(match_id, *tables)
    return match_id, tables


async def test_a_restart_ends_a_match_whose_tables_ended_meanwhile(store: Store):
    match_id, tables = await _linked(store, 4)
    for table, scores in zip(tables, ([420, 0], [0, 100]), strict=True):
        await store.set_status(table, "playing")
        for board in range(1, 5):
            await store.record_deal(table, board, scores, {"lines": [{"note": "4♠ by N"}]})
        await store.set_status(table, "finished")
    teams = TeamMatches(TableService(store, bot_delay=0), store)
    shown: list[tuple[int, bool]] = []

    async def publish(match: TeamMatch, final: bool) -> None:
        shown.append((match.id, final))
    teams.publish = publish
    [match] = await teams.restore()
    assert match.status == "finished" and shown == [(match_id, True)]
    row = await store.team_match(match_id)
    assert row is not None and (row.imps_a, row.imps_b) == (4 * wbf_imps(520), 0)


async def test_a_restart_abandons_a_match_whose_tables_never_started(store: Store):
    match_id, _ = await _linked(store, 4)  # the bot stopped while it opened the tables
    teams = TeamMatches(TableService(store, bot_delay=0), store)
    [match] = await teams.restore()
    assert match.status == "abandoned"
    row = await store.team_match(match_id)
    assert row is not None and row.status == "abandoned"


async def test_a_restart_posts_the_last_score_card_a_stop_kept_back(store: Store):
    """Killed between ending the match and posting its last score card: the next start
    posts it, once, with the boards' IMPs; a match ended in its lobby owes nothing."""
    match_id, tables = await _linked(store, 4)
    for table, scores in zip(tables, ([420, 0], [0, 100]), strict=True):
        await store.set_status(table, "playing")
        for board in range(1, 5):
            await store.record_deal(table, board, scores, {"lines": [{"note": "4♠ by N"}]})
        await store.set_status(table, "finished")
    assert await store.end_team_match(match_id, "finished", (4 * wbf_imps(520), 0))
    lobby = await store.create_team_match(10, 21, 1, 4, "bridge-basic", {"A": [], "B": []})
    assert await store.end_team_match(lobby, "cancelled")
    assert [row.id for row in await store.unposted_team_matches()] == [match_id]
    teams = TeamMatches(TableService(store, bot_delay=0), store)
    shown: list[tuple[int, str, int | None, bool]] = []

    async def publish(match: TeamMatch, final: bool) -> None:
        assert match.card is not None
        shown.append((match.id, match.status, match.card.imps[0], final))
    teams.publish = publish
    assert await teams.restore() == []
    assert shown == [(match_id, "finished", 4 * wbf_imps(520), True)]
    assert await store.unposted_team_matches() == []
    await teams.restore()  # posted once only
    assert len(shown) == 1


async def test_a_posted_last_score_card_is_not_owed_again(store: Store):
    match_id, tables = await _linked(store, 4)
    teams = TeamMatches(TableService(store, bot_delay=0), store)
    shown: list[tuple[int, bool]] = []

    async def publish(match: TeamMatch, final: bool) -> None:
        shown.append((match.id, final))
    teams.publish = publish
    for table in tables:
        await store.set_status(table, "playing")
    await teams.restore()
    await teams.abandon(match_id)
    assert shown[-1] == (match_id, True) and await store.unposted_team_matches() == []
    await teams.restore()
    assert shown[-1] == (match_id, True) and len(shown) == 2


async def test_a_board_s_hand_record_waits_for_the_other_table_of_its_player(store: Store):
    """Board 1 is over at the first table, not at the second: its hand record from the
    first table is refused to a person who sits at the second (however they came by the
    button), and given once their table has played it; others are not held back."""
    _, tables = await _linked(store, 4)
    assert await store.team_table_beside(tables[0]) == tables[1]
    assert await store.team_table_beside(tables[1]) == tables[0]
    lone = await store.create_match("bridge", {}, 5, 10, 300, 1, {})
    assert await store.team_table_beside(lone) is None
    await store.set_seat(tables[1], 0, user_id=42, display_name="Bea")
    await store.set_status(tables[0], "playing")
    await store.record_deal(tables[0], 1, [420, 0], {"lines": [{"note": "4♠ by N"}]})
    refused = await record_withheld(store, tables[0], 1, 42)
    assert refused is not None and "not been played at your table" in refused
    assert await record_withheld(store, tables[0], 1, 7) is None  # not a player of the match
    await store.set_status(tables[1], "playing")
    await store.record_deal(tables[1], 1, [0, 50], {"lines": [{"note": "4♠ by N, down"}]})
    assert await record_withheld(store, tables[0], 1, 42) is None
