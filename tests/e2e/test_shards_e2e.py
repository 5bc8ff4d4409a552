"""Two bot processes, one shard each, on one PostgreSQL, through the Discord double: each
plays its own server's table to the end; one is killed with SIGKILL mid-deal and started
again, and its table resumes with nothing acknowledged lost while the other keeps
answering; each server's leaderboard shows its result, read from the shared database."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from discord_double import Driver, World
from tests.e2e.remote import RemoteHarness

ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0  # seconds a killed process's shard stays held


async def _start(driver: Driver, url: str, shard: int, log: Path) -> asyncio.subprocess.Process:
    config = {"api_base": driver.double.api_base, "gateway": driver.double.gateway_url,
              "db": url, "shard": [shard, 2], "lease_seconds": LEASE}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.shard_process", json.dumps(config), cwd=str(ROOT),
        stderr=log.open("ab"))


async def _ready(driver: Driver, shard: int, process: asyncio.subprocess.Process,
                 log: Path) -> None:
    for _ in range(3000):
        if (shard, 2) in driver.double.gateway.ready_shards() and driver.commands():
            return
        if process.returncode is not None:
            raise AssertionError(f"shard {shard}'s process stopped: {log.read_text()}")
        await asyncio.sleep(0.01)
    raise AssertionError(f"shard {shard}'s process did not connect: {log.read_text()}")


async def _open_bidfair(h: RemoteHarness, store: Store) -> int:
    alice = h.user(0)
    await h.slash(alice, "play", "bidfair", target=100)
    await h.press(alice, h.table_message(), "Add bot")
    await h.press(alice, h.table_message(), "Start")
    match = await store.active_match_in_channel(h.channel.id)
    assert match is not None and match.guild_id == h.world.guild.id
    await h.open_hand(alice)
    return match.id


async def _play(h: RemoteHarness, store: Store, match_id: int, presses: int | None) -> int:
    """Alice presses until the match ends (or `presses` were made); how many she made."""
    made = 0
    for _ in range(3000):
        if presses is not None and made >= presses:
            return made
        if await store.get_result(match_id) is not None:
            return made
        if await h.act_once(h.user(0)):
            made += 1
            continue
        await h.driver.settle()
        # The bot lives in another process: the double's settle does not wait for its
        # computer player, which may have ended the match (the table message then has no
        # My hand button) or be about to post the next deal's table.
        if not await _board_shown(h, store, match_id):
            return made
        await h.open_hand(h.user(0))
    raise AssertionError("the match did not end")


async def _board_shown(h: RemoteHarness, store: Store, match_id: int,
                       seconds: float = 10.0) -> bool:
    """Wait until the channel shows the table message with its buttons (the other process
    may still be posting it): True; False if the match ended meanwhile."""
    for _ in range(int(seconds / 0.05)):
        if await store.get_result(match_id) is not None:
            return False
        try:
            h.table_message()
            return True
        except AssertionError:
            await asyncio.sleep(0.05)
    h.table_message()  # raises with its own message
    return True


async def _bot_cribbed(store: Store, match_id: int, seconds: float = 30.0) -> None:
    """Wait until the computer player's four crib cards are stored. It places them in the
    bot's process, which the double's settle does not see; once they are, it has nothing
    to do until Alice's fourth card, so the log stays as read until the process is killed."""
    for _ in range(int(seconds / 0.05)):
        if sum(a.actor == "bot" for a in await store.actions(match_id)) >= 4:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the computer player did not place its crib cards")


def _text(message: Any) -> str:
    return " ".join([message.content or ""] + [
        f"{e.get('title', '')} {e.get('description', '')}" for e in message.embeds])


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
async def test_two_shard_processes_share_postgres_survive_a_sigkill_and_rank_both(
        discord_double: Driver, database: str, tmp_path: Path) -> None:
    driver = discord_double
    driver.double.shard_count = 2
    worlds: list[World] = [
        await driver.make_world(users=("alice",), guild="Shard 0", shard=(0, 2)),
        await driver.make_world(users=("erin",), guild="Shard 1", shard=(1, 2))]
    logs = [tmp_path / "shard-0.log", tmp_path / "shard-1.log"]
    processes = [await _start(driver, database, 0, logs[0])]
    await _ready(driver, 0, processes[0], logs[0])  # it migrates and syncs the commands
    processes.append(await _start(driver, database, 1, logs[1]))
    await _ready(driver, 1, processes[1], logs[1])
    store = await Store.open(database)
    try:
        hs = [RemoteHarness(driver, world, None, database) for world in worlds]  # type: ignore[arg-type]
        tables = [await _open_bidfair(h, store) for h in hs]

        # Shard 0's process dies mid-deal; what it acknowledged is in the database.
        assert await _play(hs[0], store, tables[0], presses=3) == 3
        await driver.settle()
        await _bot_cribbed(store, tables[0])
        logged = await store.next_seq(tables[0])
        deal = (await store.actions(tables[0]))[-1]
        processes[0].kill()
        await processes[0].wait()
        assert processes[0].returncode == -9
        assert await store.next_seq(tables[0]) == logged
        # The other process keeps answering meanwhile: its table is played to the end.
        await _play(hs[1], store, tables[1], presses=None)
        assert (await store.get_result(tables[1])) is not None

        # Started again (the killed one's lease has run out), shard 0 resumes its table.
        await asyncio.sleep(LEASE + 0.5)
        processes[0] = await _start(driver, database, 0, logs[0])
        await _ready(driver, 0, processes[0], logs[0])
        actions = await store.actions(tables[0])
        assert len(actions) >= logged and actions[logged - 1] == deal
        assert await _board_shown(hs[0], store, tables[0])
        await hs[0].open_hand(hs[0].user(0))
        await _play(hs[0], store, tables[0], presses=None)
        assert (await store.get_result(tables[0])) is not None

        # Each server's leaderboard, each from its own process, shows its own result.
        for h in hs:
            handle = await h.slash(h.user(0), "leaderboard", game="bidfair")
            assert handle.responded
            board = _text(handle.message)
            assert f"<@{h.user(0).id}>" in board
            assert f"<@{hs[1 - hs.index(h)].user(0).id}>" not in board
        # Each process posts its match's rating changes after the table's last messages:
        # stopping the processes before that would cut the post off mid-request.
        for h in hs:
            await driver.wait_for(lambda h=h: any(
                "rating changes" in (m.content or "")
                for m in driver.channel_messages(h.channel)), 30, "the rating changes")
    finally:
        await store.close()
        for process in processes:
            if process.returncode is None:
                process.terminate()
                await asyncio.wait_for(process.wait(), 10)
    for log in logs:
        errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
        assert not errors, "\n".join(errors)
