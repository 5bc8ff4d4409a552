"""bot/store matches and seats: create, read, status, channel lookups, corrupt rows."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import MatchRow, SeatRow, Store, StoreError
from tests.databases import sqlite_only

GUILD, CHANNEL, THREAD, CREATOR = 111, 222, 333, 444


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def _match(store: Store, channel: int = CHANNEL, thread: int | None = None) -> int:
    return await store.create_match(
        "spades", {"target": 500, "nil": True}, 2**62 + 7, GUILD, channel, CREATOR,
        {"turn_timeout": 60}, thread_id=thread)


def _corrupt(path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute(sql, params)


async def test_create_and_get_match(store: Store) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    match_id = await _match(store, thread=THREAD)
    match = await store.get_match(match_id)
    assert isinstance(match, MatchRow)
    assert (match.id, match.game, match.seed) == (match_id, "spades", 2**62 + 7)
    assert match.options == {"target": 500, "nil": True}
    assert match.settings == {"turn_timeout": 60}
    assert (match.guild_id, match.channel_id, match.thread_id) == (GUILD, CHANNEL, THREAD)
    assert (match.message_id, match.creator_id, match.status) == (None, CREATOR, "lobby")
    assert before <= match.created_at <= datetime.now(UTC)
    assert match.started_at is None and match.finished_at is None
    assert match.is_active
    assert await store.get_match(match_id + 1) is None


async def test_each_match_gets_its_own_id(store: Store) -> None:
    ids = [await _match(store) for _ in range(3)]
    assert len(set(ids)) == 3


async def test_values_that_cannot_be_stored_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="seed"):
        await store.create_match("spades", {}, 2**64, GUILD, CHANNEL, CREATOR, {})
    with pytest.raises(ValueError, match="options"):
        await store.create_match("spades", {"x": {1, 2}}, 1, GUILD, CHANNEL, CREATOR, {})
    assert await store.unfinished_matches() == []


async def test_set_message_and_settings(store: Store) -> None:
    match_id = await _match(store)
    await store.set_message(match_id, 999)
    match = await store.get_match(match_id)
    assert match is not None and (match.message_id, match.channel_id) == (999, CHANNEL)
    await store.set_message(match_id, 1000, channel_id=555)
    await store.set_settings(match_id, {"turn_timeout": 0, "bot_delay": 2.5})
    match = await store.get_match(match_id)
    assert match is not None and (match.message_id, match.channel_id) == (1000, 555)
    assert match.settings == {"turn_timeout": 0, "bot_delay": 2.5}


async def test_updates_to_a_missing_match_raise(store: Store) -> None:
    for update in (store.set_message(77, 1), store.set_status(77, "playing"),
                   store.set_settings(77, {}), store.set_seat(77, 0, user_id=1,
                                                              display_name="Ann")):
        with pytest.raises(StoreError, match="Match 77 does not exist"):
            await update


async def test_status_stamps_start_and_finish_once(store: Store) -> None:
    match_id = await _match(store)
    await store.set_status(match_id, "playing")
    started = await store.get_match(match_id)
    assert started is not None and started.status == "playing"
    assert started.started_at is not None and started.finished_at is None
    await store.set_status(match_id, "playing")  # again: the first start time stays
    await store.set_status(match_id, "abandoned")
    ended = await store.get_match(match_id)
    assert ended is not None and ended.status == "abandoned" and not ended.is_active
    assert ended.started_at == started.started_at
    assert ended.finished_at is not None and ended.finished_at >= ended.started_at


async def test_cancelled_lobby_has_no_start_time(store: Store) -> None:
    match_id = await _match(store)
    await store.set_status(match_id, "cancelled")
    match = await store.get_match(match_id)
    assert match is not None and match.started_at is None and match.finished_at is not None


async def test_unknown_status_is_refused(store: Store) -> None:
    match_id = await _match(store)
    with pytest.raises(ValueError, match="status"):
        await store.set_status(match_id, "paused")  # type: ignore[arg-type]


async def test_seats_hold_a_person_or_a_bot(store: Store) -> None:
    match_id = await _match(store)
    await store.set_seat(match_id, 2, bot_kind="random", display_name="Bot South")
    await store.set_seat(match_id, 0, user_id=10, display_name="Ann")
    await store.set_seat(match_id, 1, user_id=11, display_name="Bob")
    seats = await store.seats(match_id)
    assert [s.seat for s in seats] == [0, 1, 2]
    assert seats[0] == SeatRow(match_id, 0, 10, None, "Ann", None)
    assert seats[2].is_bot and not seats[0].is_bot
    # Bob leaves mid-match: a bot plays for him, and he can take the seat back.
    await store.set_seat(match_id, 1, bot_kind="random", display_name="Bot for Bob",
                         left_user_id=11)
    assert (await store.seats(match_id))[1] == SeatRow(
        match_id, 1, None, "random", "Bot for Bob", 11)
    await store.set_seat(match_id, 1, user_id=11, display_name="Bob")
    assert (await store.seats(match_id))[1] == SeatRow(match_id, 1, 11, None, "Bob", None)
    await store.clear_seat(match_id, 2)
    await store.clear_seat(match_id, 2)
    assert [s.seat for s in await store.seats(match_id)] == [0, 1]


@pytest.mark.parametrize("who", [{}, {"user_id": 1, "bot_kind": "random"}])
async def test_a_seat_needs_exactly_one_occupant(store: Store, who: dict) -> None:
    match_id = await _match(store)
    with pytest.raises(ValueError, match="exactly one"):
        await store.set_seat(match_id, 0, display_name="?", **who)
    assert await store.seats(match_id) == []


async def test_active_match_in_channel_or_thread(store: Store) -> None:
    assert await store.active_match_in_channel(CHANNEL) is None
    in_channel = await _match(store, channel=CHANNEL)
    in_thread = await _match(store, channel=500, thread=THREAD)
    done = await _match(store, channel=600)
    await store.set_status(done, "finished")
    found = await store.active_match_in_channel(CHANNEL)
    assert found is not None and found.id == in_channel
    found = await store.active_match_in_channel(THREAD)
    assert found is not None and found.id == in_thread
    assert await store.active_match_in_channel(600) is None
    await store.set_status(in_channel, "playing")
    found = await store.active_match_in_channel(CHANNEL)
    assert found is not None and found.id == in_channel
    await store.set_status(in_channel, "cancelled")
    assert await store.active_match_in_channel(CHANNEL) is None


async def test_unfinished_matches_are_lobby_and_playing(store: Store) -> None:
    ids = [await _match(store) for _ in range(5)]
    await store.set_status(ids[1], "playing")
    await store.set_status(ids[2], "finished")
    await store.set_status(ids[3], "abandoned")
    await store.set_status(ids[4], "cancelled")
    assert [m.id for m in await store.unfinished_matches()] == [ids[0], ids[1]]


@sqlite_only  # PostgreSQL's CHECKs cannot be switched off to corrupt a row this way
@pytest.mark.parametrize(("column", "value", "says"), [
    ("options", "{not json", "options"),
    ("settings", "[1, 2]", "settings"),
    ("status", "paused", "status"),
    ("created_at", "yesterday", "created_at"),
])
async def test_a_corrupt_match_row_raises_naming_the_match(
    store: Store, tmp_path: Path, column: str, value: str, says: str,
) -> None:
    good = await _match(store)
    bad = await _match(store)
    _corrupt(tmp_path / "t.db", f"UPDATE matches SET {column} = ? WHERE id = ?", value, bad)
    with pytest.raises(StoreError, match=rf"Match {bad} has a corrupt {says}"):
        await store.get_match(bad)
    assert (await store.get_match(good)) is not None
    if column == "status":
        return  # no longer 'unfinished' to the index
    with pytest.raises(StoreError, match=rf"Match {bad}\b"):
        await store.unfinished_matches()


@sqlite_only
async def test_a_corrupt_seat_raises_naming_the_match(store: Store, tmp_path: Path) -> None:
    match_id = await _match(store)
    await store.set_seat(match_id, 0, user_id=5, display_name="Ann")
    _corrupt(tmp_path / "t.db", "UPDATE seats SET bot_kind = 'random' WHERE match_id = ?",
             match_id)
    with pytest.raises(StoreError, match=rf"Match {match_id} has a corrupt seat 0"):
        await store.seats(match_id)
