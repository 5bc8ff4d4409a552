"""Challenges below Discord: the record in the store (SQLite and PostgreSQL), every refusal
of the service (each changes nothing), a person's table with the challenge's fair deals,
the deadline (expiry, partial results, forfeit, one ping each), a restart, and the
comparison against an independent computation from two stored results (hypothesis)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.club.challenges import (
    CHALLENGE_GAMES,
    DAY,
    OPEN_LIMIT,
    REMIND_BEFORE,
    Challenges,
)
from bot.club.privacy import (
    CHALLENGE_MATCH_HIDDEN,
    CHALLENGE_TABLE_HIDDEN,
    match_withheld,
    record_withheld,
    tables_hidden_from,
)
from bot.games import create, game_class
from bot.games.challenge_scoring import ChallengeCard, net_score
from bot.games.events import DealEnded
from bot.store import Store
from bot.store.challenges import ChallengeRow, OpenLimit
from bot.tables import Person, TableError, TableService, TableSettings
from tests.club.test_teams import wbf_imps
from tests.tables.helpers import play_until

GUILD, CHANNEL = 10, 20
ALICE, BOB, CAROL = Person(1, "Alice"), Person(2, "Bob"), Person(3, "Carol")
START = 1_800_000_000.0


_MADE: list[TableService] = []  # each test's table services, stopped before its store


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = await Store.open(database)
    yield s
    while _MADE:
        await _MADE.pop().shutdown()
    await s.close()


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def _service(store: Store, clock: Clock) -> tuple[TableService, Challenges,
                                                   list[tuple[str, int | None]],
                                                   list[tuple[int, int]]]:
    service = TableService(store, bot_delay=0, think_seconds=0.01)
    _MADE.append(service)
    challenges = Challenges(service, store, clock=clock)
    announced: list[tuple[str, int | None]] = []
    pinged: list[tuple[int, int]] = []

    async def announce(row: ChallengeRow, card: ChallengeCard | None) -> None:
        announced.append((row.status, None if card is None else card.winner()))

    async def remind(row: ChallengeRow, place: int, card: ChallengeCard) -> bool:
        pinged.append((row.id, place))
        return True
    challenges.announce, challenges.remind = announce, remind
    return service, challenges, announced, pinged


async def _offer(challenges: Challenges, game: str = "bridge", **kwargs: Any) -> ChallengeRow:
    return await challenges.offer(GUILD, CHANNEL, kwargs.pop("by", ALICE),
                                  kwargs.pop("to", BOB), challenged_is_bot=False, game=game,
                                  **kwargs)


async def test_a_challenge_record_is_stored_accepted_and_ended(store: Store):
    first = await store.create_challenge(GUILD, CHANNEL, "spades", 4, "spades-basic", 3,
                                         (1, "Alice"), (2, "Bob"), "s" * 64, 1000, OPEN_LIMIT)
    [row] = await store.open_challenges()
    assert (row.id, row.game, row.deals, row.people, row.names, row.status, row.deadline,
            row.tables, row.scores) == (first, "spades", 4, (1, 2), ("Alice", "Bob"),
                                        "offered", 1000, (None, None), None)
    assert row.place_of(2) == 1 and row.place_of(3) is None
    assert not await store.accept_challenge(first, "c" * 32, 5000, now=1000)  # expired
    assert await store.accept_challenge(first, "c" * 32, 5000, now=999)
    assert not await store.accept_challenge(first, "c" * 32, 6000, now=999)  # once
    tables = [await store.create_match("spades", {"deals": 4}, 5, GUILD, 100 + i, i + 1, {})
              for i in range(2)]
    assert await store.set_challenge_table(first, 1, tables[1])
    assert not await store.set_challenge_table(first, 1, tables[0]), "one table each"
    assert await store.challenge_tables_hidden_from(1) == {tables[1]}
    assert await store.challenge_tables_hidden_from(2) == set()
    # Every way to a deal asks the same question: Bob's table is hidden from Alice only.
    assert await record_withheld(store, tables[1], 1, 1) == CHALLENGE_TABLE_HIDDEN
    assert await match_withheld(store, tables[1], 1) == CHALLENGE_MATCH_HIDDEN
    assert await tables_hidden_from(store, 1) == {tables[1]}
    assert await record_withheld(store, tables[1], 1, 2) is None
    assert await match_withheld(store, tables[1], 2) is None
    assert await store.mark_challenge_reminded(first, 0)
    assert not await store.mark_challenge_reminded(first, 0)
    await store.set_challenge_message(first, 777)
    row = await store.challenge(first)
    assert row is not None and (row.status, row.client_seed, row.deadline, row.tables,
                                row.reminded, row.message_id) == (
        "accepted", "c" * 32, 5000, (None, tables[1]), 1, 777)
    assert not await store.end_challenge(first, "cancelled", "offered")
    assert await store.end_challenge(first, "finished", "accepted", (12, 3))
    assert not await store.end_challenge(first, "finished", "accepted", (0, 0))
    row = await store.challenge(first)
    assert row is not None and (row.status, row.scores) == ("finished", (12, 3))
    assert await store.challenge_tables_hidden_from(1) == set(), "shown once it is over"
    assert await store.open_challenges() == []
    second = await store.create_challenge(GUILD, CHANNEL, "bridge", 4, "bridge-basic", 3,
                                          (3, "Carol"), (1, "Alice"), "t" * 64, 1000, 5)
    assert [r.id for r in await store.challenges_of(GUILD, 1)] == [second, first]
    assert await store.challenges_of(GUILD + 1, 1) == []


async def test_the_open_limit_counts_either_side_and_stores_nothing_over_it(store: Store):
    for n in range(OPEN_LIMIT):  # Bob challenged by five people, or challenging them
        people = ((100 + n, "P"), (2, "Bob")) if n % 2 else ((2, "Bob"), (100 + n, "P"))
        await store.create_challenge(GUILD, CHANNEL, "bridge", 4, "bridge-basic", 3,
                                     *people, "s" * 64, 1000, OPEN_LIMIT)
    with pytest.raises(OpenLimit) as raised:
        await store.create_challenge(GUILD, CHANNEL, "bridge", 4, "bridge-basic", 3,
                                     (1, "Alice"), (2, "Bob"), "s" * 64, 1000, OPEN_LIMIT)
    assert raised.value.args == (2,)
    assert len(await store.open_challenges()) == OPEN_LIMIT


@pytest.fixture
async def local(tmp_path: Any) -> AsyncIterator[Store]:
    """SQLite in a file, for the tests whose tables are played by computer players (as the
    table layer's tests do)."""
    s = await Store.open(tmp_path / "t.db")
    yield s
    while _MADE:
        await _MADE.pop().shutdown()
    await s.close()


async def _unchanged(store: Store, before: list[ChallengeRow]) -> None:
    assert await store.open_challenges() == before


async def test_every_refusal_of_an_offer_is_clear_and_changes_nothing(store: Store):
    _, challenges, _, _ = _service(store, Clock())
    cases = [
        (dict(to=ALICE), "cannot challenge yourself"),
        (dict(game="tennis" if "tennis" not in CHALLENGE_GAMES else "nosuchgame"),
         "has no challenges"),
        (dict(deals=0), "1 to 32 boards"),
        (dict(deals=33), "1 to 32 boards"),
        (dict(game="spades", deals=40), "1 to 32 deals"),
        (dict(days=0), "1 to 14 days"),
        (dict(days=15), "1 to 14 days"),
        (dict(level="grandmaster"), "no 'grandmaster' level"),
    ]
    for kwargs, refusal in cases:
        with pytest.raises(TableError, match=refusal):
            await _offer(challenges, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="only challenge a person"):
        await challenges.offer(GUILD, CHANNEL, ALICE, Person(99, "Robot"),
                               challenged_is_bot=True, game="bridge")
    assert await store.open_challenges() == []
    for n in range(OPEN_LIMIT):
        await _offer(challenges, to=Person(100 + n, f"P{n}"))
    before = await store.open_challenges()
    with pytest.raises(TableError, match="You have 5 open challenges"):
        await _offer(challenges)
    with pytest.raises(TableError, match="Alice has 5 open challenges"):
        await _offer(challenges, by=BOB, to=ALICE)
    await _unchanged(store, before)


async def test_answers_cancels_and_plays_that_cannot_be_are_refused(local: Store):
    store = local
    clock = Clock()
    service, challenges, announced, _ = _service(store, clock)
    row = await _offer(challenges, "spades", deals=1, level="basic")
    assert row.bot_kind == "spades-basic" and row.deadline == START + 3 * DAY
    before = await store.open_challenges()
    with pytest.raises(TableError, match="for Bob: only they can accept"):
        await challenges.answer(row.id, CAROL.user_id, True, 5)
    with pytest.raises(TableError, match="your own challenge"):
        await challenges.answer(row.id, ALICE.user_id, True, 5)
    with pytest.raises(TableError, match="Only Alice, who made this challenge"):
        await challenges.cancel(row.id, BOB.user_id)
    with pytest.raises(TableError, match="not accepted this challenge yet"):
        await challenges.check_play(row.id, ALICE.user_id)
    with pytest.raises(TableError, match="no longer exists"):
        await challenges.answer(row.id + 1000, BOB.user_id, True, 5)
    await _unchanged(store, before)

    # Cancelled: no answer takes it up again.
    cancelled = await challenges.cancel(row.id, ALICE.user_id)
    assert cancelled.status == "cancelled"
    with pytest.raises(TableError, match="Alice cancelled this challenge"):
        await challenges.answer(row.id, BOB.user_id, True, 5)
    # Declined, likewise.
    declined = await challenges.answer((await _offer(challenges)).id, BOB.user_id, False, 5)
    assert declined.status == "declined"
    with pytest.raises(TableError, match="Bob declined"):
        await challenges.answer(declined.id, BOB.user_id, True, 5)
    # Expired: refused, and marked so.
    late = await _offer(challenges, days=1)
    clock.now += DAY
    with pytest.raises(TableError, match="expired"):
        await challenges.answer(late.id, BOB.user_id, True, 5)
    expired = await store.challenge(late.id)
    assert expired is not None and expired.status == "expired"
    assert announced == [("expired", None)]

    # Accepted: it cannot be cancelled, or accepted twice; a stranger cannot play it.
    row = await _offer(challenges, "spades", deals=1, level="basic")
    accepted = await challenges.answer(row.id, BOB.user_id, True, 4242)
    assert accepted.status == "accepted" and accepted.client_seed
    assert accepted.deadline == clock.now + 3 * DAY
    with pytest.raises(TableError, match="cannot be cancelled"):
        await challenges.cancel(row.id, ALICE.user_id)
    with pytest.raises(TableError, match="accepted already"):
        await challenges.answer(row.id, BOB.user_id, True, 5)
    with pytest.raises(TableError, match="between Alice and Bob"):
        await challenges.check_play(row.id, CAROL.user_id)
    table = await challenges.play(row.id, ALICE, 501)
    try:
        with pytest.raises(TableError, match="playing your deals of this challenge already"):
            await challenges.play(row.id, ALICE, 502)
        assert 502 not in service.by_channel, "no second table"
        stored = await store.challenge(row.id)
        assert stored is not None and stored.tables == (table.id, None)
    finally:
        await service.lobby.abandon(table.id, ALICE.user_id, can_manage=True)
    with pytest.raises(TableError, match="played your deals of this challenge already"):
        await challenges.check_play(row.id, ALICE.user_id)


async def test_both_tables_deal_the_same_cards_from_the_challenge_seat(local: Store):
    store = local
    service, challenges, _, _ = _service(store, Clock())
    row = await _offer(challenges, "bridge", deals=2, level="basic")
    await challenges.answer(row.id, BOB.user_id, True, 99)
    tables = [await challenges.play(row.id, person, 600 + person.user_id)
              for person in (ALICE, BOB)]
    try:
        play = CHALLENGE_GAMES["bridge"]
        for table, person in zip(tables, (ALICE, BOB), strict=True):
            assert table.seat_of(person.user_id) == play.seat
            assert table.options["boards"] == 2 and table.options["undo"] is False
            assert all(info is not None and info.bot_kind == "bridge-basic"
                       for seat, info in enumerate(table.seats) if seat != play.seat)
        views = [t.game.view(play.seat) for t in tables]
        assert views[0].hand == views[1].hand and views[0].hand
        assert tables[0].settings.deal_secret == tables[1].settings.deal_secret == row.secret
    finally:
        for table, person in zip(tables, (ALICE, BOB), strict=True):
            if not table.closed:
                await service.lobby.abandon(table.id, person.user_id, can_manage=True)


@pytest.mark.parametrize("game", sorted(CHALLENGE_GAMES))
async def test_a_challenge_played_through_ends_when_both_have_played(local: Store,
                                                                     game: str):
    store = local
    service, challenges, announced, _ = _service(store, Clock())
    row = await _offer(challenges, game, deals=1)
    row = await challenges.answer(row.id, BOB.user_id, True, 7)
    for person in (ALICE, BOB):
        table = await challenges.play(row.id, person, 800 + person.user_id)
        await play_until(service, table, person.user_id, lambda: False)
        assert table.closed and table.status == "finished"
        while challenges.busy():
            await asyncio.sleep(0.01)
    ended = await store.challenge(row.id)
    assert ended is not None and ended.status == "finished"
    assert ended.tables[0] is not None and ended.tables[1] is not None
    play = CHALLENGE_GAMES[game]
    side = next(i for i, seats in enumerate(game_class(game).SIDES) if play.seat in seats)
    nets = []
    for table_id in ended.tables:
        assert table_id is not None
        [deal] = await store.deals(table_id)
        nets.append(deal.points[side] - deal.points[1 - side])  # two sides in each game
    if play.compare == "imps":
        worth = wbf_imps(nets[0] - nets[1])
        assert ended.scores == (max(worth, 0), max(-worth, 0))
        winner = None if worth == 0 else (0 if worth > 0 else 1)
    else:
        assert ended.scores == (nets[0], nets[1])
        winner = None if nets[0] == nets[1] else (0 if nets[0] > nets[1] else 1)
    assert announced == [("finished", winner)]
    assert not challenges.by_table


async def _played(store: Store, row: ChallengeRow, place: int,
                  results: dict[int, tuple[int, int]], status: str = "finished") -> int:
    """A person's table with its deals' results stored as the table service stores them."""
    table = await store.create_match(row.game, {"boards": row.deals}, 5, GUILD,
                                     700 + place, row.people[place], {})
    await store.set_status(table, "playing")
    assert await store.set_challenge_table(row.id, place, table)
    for deal, points in results.items():
        await store.record_deal(table, deal, points, {"lines": [{"note": f"deal {deal}"}]})
    await store.set_status(table, status)
    return table


async def test_the_deadline_decides_on_the_deals_both_played_and_pings_once(store: Store):
    clock = Clock()
    _, challenges, announced, pinged = _service(store, clock)
    row = await challenges.answer((await _offer(challenges, deals=4)).id, BOB.user_id,
                                  True, 7)
    await _played(store, row, 0, {1: (420, 0), 2: (0, 100), 3: (50, 0)}, "playing")
    assert await challenges.sweep() == 0 and pinged == []  # days left: no ping yet
    clock.now = row.deadline - REMIND_BEFORE + 1
    await challenges.sweep()
    await challenges.sweep()
    assert pinged == [(row.id, 0), (row.id, 1)], "each person who has not finished, once"
    bob = await _played(store, row, 1, {1: (0, 50), 2: (0, 100)}, status="playing")
    clock.now = row.deadline
    assert await challenges.sweep() == 1
    ended = await store.challenge(row.id)
    assert ended is not None and ended.status == "finished"
    # Boards 1 and 2 only: +470 is 10 IMPs to Alice, 0 on board 2; board 3 does not count.
    assert ended.scores == (wbf_imps(470), 0) and announced == [("finished", 0)]
    assert bob  # Bob's table (stored as playing, not loaded) is left as it was


async def test_a_person_who_played_nothing_forfeits(store: Store):
    clock = Clock()
    _, challenges, announced, _ = _service(store, clock)
    row = await challenges.answer((await _offer(challenges, "spades", deals=2)).id,
                                  BOB.user_id, True, 7)
    await _played(store, row, 1, {1: (-80, 120)})
    clock.now = row.deadline + 1
    await challenges.sweep()
    ended = await store.challenge(row.id)
    assert ended is not None and ended.status == "finished" and announced == [
        ("finished", 1)]
    card = await challenges.card(ended)
    assert card.forfeit() and card.compared == () and card.played == (0, 1)


async def test_a_restart_ends_a_challenge_both_finished_meanwhile(store: Store):
    _, first, _, _ = _service(store, Clock())
    row = await first.answer((await _offer(first, "spades", deals=2)).id, BOB.user_id,
                             True, 7)
    await _played(store, row, 0, {1: (120, -50), 2: (60, 80)})
    await _played(store, row, 1, {1: (100, 20), 2: (-100, 110)})
    _, again, announced, _ = _service(store, Clock())  # a new process, same database
    await again.restore()
    ended = await store.challenge(row.id)
    assert ended is not None and ended.status == "finished" and announced == [
        ("finished", 0)]
    # Points: Alice nets 170 and -20, Bob 80 and -210.
    assert ended.scores == (150, -130)


async def test_the_list_shows_only_deals_both_played(store: Store):
    _, challenges, _, _ = _service(store, Clock())
    row = await challenges.answer((await _offer(challenges, deals=4)).id, BOB.user_id,
                                  True, 7)
    await _played(store, row, 0, {1: (420, 0), 2: (0, 100), 3: (50, 0)}, "playing")
    await _played(store, row, 1, {1: (0, 50)}, "playing")
    [(listed, card)] = await challenges.seen_by(GUILD, BOB.user_id)
    assert listed.id == row.id and card is not None
    assert [d.deal for d in card.compared] == [1] and card.played == (3, 1)


def _random_results(game: str, deals: int, rng: random.Random, seed: int
                    ) -> dict[int, tuple[int, ...]]:
    """One person's match played with random legal moves: each deal's points per side."""
    play = CHALLENGE_GAMES[game]
    match = create(game, options={**play.options, play.length_option: deals}, seed=seed)
    out: dict[int, tuple[int, ...]] = {}
    while not match.finished:
        seat = min(match.to_act())
        moves = [m for m in map(str, match.legal(seat)) if not m.startswith(("claim", "undo"))]
        passes = [m for m in moves if m == "pass"]
        move = passes[0] if passes and rng.random() < 0.55 else rng.choice(moves)
        for event in match.apply(seat, move):
            if isinstance(event, DealEnded):
                out[event.deal_no] = tuple(sum(line.points[i] for line in event.lines)
                                           for i in range(len(event.lines[0].points)))
    return out


@settings(max_examples=10, deadline=None)
@given(game=st.sampled_from(sorted(CHALLENGE_GAMES)), deals=st.integers(1, 5),
       seed=st.integers(0, 2**32))
def test_the_comparison_matches_an_independent_computation(game: str, deals: int,
                                                           seed: int):
    async def check() -> None:
        store = await Store.open(":memory:")
        try:
            _, challenges, _, _ = _service(store, Clock())
            row = await challenges.answer(
                (await _offer(challenges, game, deals=deals)).id, BOB.user_id, True, 7)
            rng = random.Random(seed)
            results = [_random_results(game, deals, rng, seed + place) for place in (0, 1)]
            for place, points in enumerate(results):
                await _played(store, row, place, dict(points))
            card = await challenges.card(await challenges.get(row.id))
        finally:
            while _MADE:
                await _MADE.pop().shutdown()
            await store.close()
        # Independently: the person's side is the one holding the challenge's seat; a
        # deal's net is that side's points less the other's.
        seat = CHALLENGE_GAMES[game].seat
        side = next(i for i, seats in enumerate(game_class(game).SIDES) if seat in seats)
        expected_a = expected_b = 0
        for deal in range(1, deals + 1):
            nets = [r[deal][side] - sum(p for i, p in enumerate(r[deal]) if i != side)
                    for r in results]
            assert nets == [net_score(r[deal], side) for r in results]
            worth = nets[0] - nets[1]
            if CHALLENGE_GAMES[game].compare == "imps":
                worth = wbf_imps(worth)
                expected_a += max(worth, 0)
                expected_b += max(-worth, 0)
            else:
                expected_a += nets[0]
                expected_b += nets[1]
            assert card.compared[deal - 1].value == worth
        assert card.totals == (expected_a, expected_b) and card.complete

    asyncio.run(check())


async def test_a_restart_starts_a_table_left_in_its_lobby(local: Store):
    """The bot stopped between recording a person's table and starting it: the restart
    starts it, with the challenge's deals, and follows it."""
    store = local
    service, challenges, _, _ = _service(store, Clock())
    row = await challenges.answer((await _offer(challenges, "spades", deals=1,
                                                level="basic")).id, BOB.user_id, True, 7)
    play = CHALLENGE_GAMES["spades"]
    # The lobby as play() leaves it before starting it.
    table = await service.lobby.create(
        "spades", {**play.options, play.length_option: 1}, guild_id=GUILD, channel_id=901,
        creator=ALICE, settings=TableSettings(deal_secret=row.secret,
                                              client_seed=row.client_seed))
    await service.lobby.join(table.id, ALICE, seat=play.seat)
    while not table.is_full():
        await service.lobby.add_bot(table.id, ALICE.user_id, kind=row.bot_kind)
    assert await store.set_challenge_table(row.id, 0, table.id)
    await service.shutdown()

    again, restarted, _, _ = _service(store, Clock())  # a new process, same database
    await again.restore()
    await restarted.restore()
    restored = again.tables[table.id]
    assert restored.status == "playing" and restarted.by_table == {table.id: row.id}
    assert restored.settings.client_seed == row.client_seed
