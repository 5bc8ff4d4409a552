"""A clean stop: the real bot process, playing against the Discord double, gets SIGTERM
(as Docker and systemd send it) right after a click; it exits 0 within a few seconds,
every click it answered is in the action log, nothing is logged as an error, and a
restarted bot resumes the table and plays it to its end. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from pathlib import Path

from bot.render import ids
from bot.store import Store
from discord_double import Driver
from tests.e2e.remote import RemoteHarness
from tests.e2e.test_shards_e2e import _board_shown, _open_bidfair, _play

ROOT = Path(__file__).resolve().parents[2]
STOPS_WITHIN = 5.0  # seconds; Docker's default grace before SIGKILL is 10


async def _start(driver: Driver, db: str, log: Path) -> asyncio.subprocess.Process:
    config = {"api_base": driver.double.api_base, "gateway": driver.double.gateway_url,
              "db": db, "settings": {"think_seconds": 0.05, "card_emojis": False}}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.shard_process", json.dumps(config), cwd=str(ROOT),
        stderr=log.open("ab"))
    for _ in range(3000):
        if (0, 1) in driver.double.gateway.ready_shards() and driver.commands():
            return process
        if process.returncode is not None:
            raise AssertionError(f"the bot stopped: {log.read_text()}")
        await asyncio.sleep(0.01)
    raise AssertionError(f"the bot did not connect: {log.read_text()}")


async def test_sigterm_mid_play_stops_cleanly_and_loses_nothing(
        discord_double: Driver, database: str, tmp_path: Path) -> None:
    driver = discord_double
    world = await driver.make_world(users=("alice",))
    log = tmp_path / "bot.log"
    process = await _start(driver, database, log)
    store = await Store.open(database)
    try:
        h = RemoteHarness(driver, world, None, database)  # type: ignore[arg-type]
        match_id = await _open_bidfair(h, store)
        assert await _play(h, store, match_id, presses=4) == 4

        # One more click, and SIGTERM while it is on its way.
        alice = h.user(0)
        for _ in range(200):  # the computer player (in the bot's process) may be on turn
            await driver.settle()
            await asyncio.sleep(0.05)
            hand = await h.open_hand(alice)
            groups = [c for c in h.buttons(hand) if str(c.get("custom_id", "")).startswith(
                "tt:pick:") and not str(c["custom_id"]).endswith((":-", ":claim"))]
            if not h.moves(hand) and groups:  # a bid level opens its bids
                await driver.click(alice, hand, str(groups[0]["custom_id"]))
            moves = h.moves(driver.message(hand))
            if moves:
                break
        assert moves, "alice has a move"
        custom_id = str(moves[0]["custom_id"])
        click = await driver.click(alice, hand, custom_id, wait=False)
        stop_sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), STOPS_WITHIN + 5)
        took = time.monotonic() - stop_sent
        assert process.returncode == 0, log.read_text()[-3000:]
        assert took < STOPS_WITHIN, f"the stop took {took:.1f} s"

        logged = await store.actions(match_id)
        if click.responded:  # answered, so it must be stored
            action = ids.parse_action(ids.parse(custom_id))
            mine = [a for a in logged if a.seat == action.seat]
            assert len(mine) > action.decision and mine[action.decision].action == action.action

        process = await _start(driver, database, log)
        assert (await store.actions(match_id))[:len(logged)] == logged
        assert await _board_shown(h, store, match_id)
        await h.open_hand(alice)
        await _play(h, store, match_id, presses=None)
        assert await store.get_result(match_id) is not None
        await driver.wait_for(lambda: any(
            "rating changes" in (m.content or "") for m in driver.channel_messages(h.channel)),
            30, "the rating changes")
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), STOPS_WITHIN + 5)
        assert process.returncode == 0
    finally:
        await store.close()
        if process.returncode is None:
            process.kill()
            await process.wait()
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
    assert not errors, "\n".join(errors)
