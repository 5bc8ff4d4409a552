"""Chaos: the bot process is killed with SIGKILL at random moments (seeded) while five
tables, one of each game, are played through the real discord.py client and the double,
and started again on the same SQLite database each time. Every click the bot answered is
in the action log after each restart, every table resumes and is played to its end, and
buttons from before a kill still get an answer. It prints the counts.

The bot processes are forked from one that has imported the bot already (bot_forks.py),
so a restart costs a connection and a restore, not the imports."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import game_class
from bot.render import ids
from bot.store import Store
from discord_double import Driver, Message, World
from tests.e2e.remote import RemoteHarness

ROOT = Path(__file__).resolve().parents[2]
SEED = 1923
KILLS = 20
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("bridge", {"rubbers": 1}), ("spades", {"target": 100}),
    ("single_dummy", {"target": 100}), ("tennis", {}), ("bidfair", {"target": 100}))
ANSWER = 3.0  # seconds Discord gives a click's answer
# Seconds the tables get to finish (about 25 on a quiet machine): a bound on the wall clock,
# not on loop rounds, whose count grew with the polling while computer players acted.
FINISH_WITHIN = 300.0
# Every wait of the test has its own bound; past this the run is hung (see `_stop_hung`).
HUNG_AFTER = FINISH_WITHIN + 120.0


@dataclass
class Seat:
    """One person's table: the game, its channel's harness and its match id."""

    game: str
    h: RemoteHarness
    match_id: int = 0
    old_buttons: list[tuple[int, str]] = field(default_factory=list)  # (message, custom id)
    clicks_left: int = 0  # the person's moves before they /leave (a computer plays on)
    idle: int = 0  # turns in a row their hand had no move
    logged: list[tuple[int, str]] = field(default_factory=list)  # the log at the last kill

    @property
    def person(self) -> Any:
        return self.h.user(0)


@dataclass
class Counts:
    kills: int = 0
    mid_click: int = 0
    acknowledged: int = 0
    unanswered: int = 0
    old_buttons: int = 0
    listed: int = 0  # unfinished tables found listed by /tables after a restart
    actions: dict[str, int] = field(default_factory=dict)


class Forks:
    """The forking parent (bot_forks.py) and the bot process it forked last."""

    def __init__(self, driver: Driver, db: Path, log: Path) -> None:
        self.driver, self.db, self.log = driver, db, log
        self.parent: asyncio.subprocess.Process | None = None
        self.pid: int | None = None

    async def open(self) -> None:
        self.parent = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.bot_forks", cwd=str(ROOT),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=self.log.open("ab"))
        assert self.parent.stdout is not None
        line = await asyncio.wait_for(self.parent.stdout.readline(), 60)
        assert line.strip() == b"ready", self.log.read_text()

    async def start(self) -> None:
        assert self.parent is not None and self.parent.stdin and self.parent.stdout
        config = {"api_base": self.driver.double.api_base,
                  "gateway": self.driver.double.gateway_url, "db": str(self.db),
                  "log": str(self.log),
                  "settings": {"think_seconds": 0.8, "card_emojis": False,
                               "ping_after_seconds": 0}}
        self.parent.stdin.write((json.dumps(config) + "\n").encode())
        await self.parent.stdin.drain()
        self.pid = int(await asyncio.wait_for(self.parent.stdout.readline(), 30))
        for _ in range(3000):
            if (0, 1) in self.driver.double.gateway.ready_shards() and self.driver.commands():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"the bot did not connect: {self.log.read_text()[-3000:]}")

    async def kill(self) -> None:
        assert self.pid is not None
        os.kill(self.pid, signal.SIGKILL)
        for _ in range(1000):  # gone, and its gateway session closed
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                if (0, 1) not in self.driver.double.gateway.ready_shards():
                    return
            await asyncio.sleep(0.005)
        raise AssertionError("the killed bot did not go away")

    async def close(self) -> None:
        if self.pid is not None:
            # Killed like the others: a polite stop could cut the last posts short and
            # log that as an error.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        if self.parent is not None and self.parent.returncode is None:
            assert self.parent.stdin is not None
            self.parent.stdin.close()
            await asyncio.wait_for(self.parent.wait(), 10)


async def _open_table(seat: Seat, store: Store, options: dict[str, Any]) -> None:
    h = seat.h
    await h.slash(seat.person, "play", seat.game, **options)
    for _ in range(game_class(seat.game).SEATS - 1):  # the quickest computer players
        labels = {b.get("label") for b in h.buttons(h.table_message())}
        await h.press(seat.person, h.table_message(),
                      "Add Basic bot" if "Add Basic bot" in labels else "Add bot")
    await h.press(seat.person, h.table_message(), "Start")
    match = await store.active_match_in_channel(h.channel.id)
    assert match is not None
    seat.match_id = match.id


def _action_button(h: RemoteHarness, hand: Message) -> str | None:
    """A move's button. Not a claim or an undo: those ask the opponents, and the play may
    move on before they are seen (then they are refused, so answered yet not logged)."""
    buttons = h.moves(hand)
    return str(buttons[0]["custom_id"]) if buttons else None


async def _answered(driver: Driver, user: Any, message: Message, custom_id: str,
                    timeout: float = ANSWER) -> bool:
    handle = await driver.click(user, message, custom_id, wait=False)
    try:
        await handle.wait_response(timeout)
    except TimeoutError:
        return False
    return True


async def _next_click(seat: Seat, refresh: bool) -> tuple[Message, str] | None:
    """The person's next move on their private hand (kept up to date by the bot; asked
    for afresh with My hand when `refresh`): (hand message, custom id), or None while
    they have none."""
    h = seat.h
    hand = h.hand_of(seat.person)
    if hand is None or refresh:
        try:
            board = h.table_message()
        except AssertionError:  # the table is being posted afresh
            return None
        if not await _answered(h.driver, seat.person, board, h.button(board, "My hand")):
            return None
        hand = h.hand_of(seat.person)
        if hand is None:
            return None
    hand = h.driver.message(hand)
    groups = [c for c in h.buttons(hand) if str(c.get("custom_id", "")).startswith("tt:pick:")
              and not str(c["custom_id"]).endswith(":-")]
    if not h.moves(hand) and groups:  # a suit or a bid level opens the moves
        await _answered(h.driver, seat.person, hand, str(groups[0]["custom_id"]))
    custom_id = _action_button(h, h.driver.message(hand))
    return (hand, custom_id) if custom_id is not None else None


async def _logged(store: Store, click: ids.ActionClick) -> bool:
    """Is the click's action the seat's `decision`-th in the stored log?"""
    mine = [a for a in await store.actions(click.table_id) if a.seat == click.seat]
    return len(mine) > click.decision and mine[click.decision].action == click.action


async def _kill_and_restart(forks: Forks, counts: Counts, store: Store,
                            acknowledged: list[ids.ActionClick], seats: list[Seat],
                            rng: random.Random,
                            pending: tuple[Any, ids.ActionClick] | None = None) -> None:
    """SIGKILL (`pending`: a click sent just before), check that every answered click is
    in the log, start again, and click a button from before the kill (it must be
    answered, whatever it now means)."""
    await forks.kill()
    counts.kills += 1
    if pending is not None:
        handle, click = pending
        if handle.responded:  # answered before it died: it must have been stored
            acknowledged.append(click)
            counts.acknowledged += 1
        else:
            counts.unanswered += 1
    for click in acknowledged:
        assert await _logged(store, click), f"lost an acknowledged click: {click}"
    unfinished = [s for s in seats if await store.get_result(s.match_id) is None]
    for seat in seats:  # what the dead processes stored, computer players' moves too
        log_now = [(a.seat, a.action) for a in await store.actions(seat.match_id)]
        assert log_now[:len(seat.logged)] == seat.logged, "the log lost or changed moves"
        seat.logged = log_now
    await forks.start()
    # Every unfinished table is back: this server's /tables lists it.
    listed = await seats[0].h.slash(seats[0].person, "tables")
    text = " ".join(e.get("description", "") for e in listed.message.embeds)
    for seat in unfinished:  # (its computer players may have just ended it)
        listed_here = f"#{seat.match_id}]" in text
        assert listed_here or await store.get_result(seat.match_id) is not None, \
            f"{seat.game} was not restored"
        counts.listed += listed_here
    with_old = [s for s in seats if s.old_buttons]
    if not with_old:
        return
    old = rng.choice(with_old)
    message_id, old_id = rng.choice(old.old_buttons)
    handle = await old.h.forge(old.person, old_id, forks.driver.message(message_id),
                               wait=False)
    await handle.wait_response(ANSWER)  # raises if the new process does not answer
    counts.old_buttons += 1


def _stop_hung(test: asyncio.Task[Any]) -> None:
    """Past every bound: print where each task waits (pytest shows it with the failure),
    then cancel the test, so a hang fails and says where, instead of running forever."""
    print(f"\nchaos: still running {HUNG_AFTER:.0f} s after it began; every task:",
          file=sys.stderr)
    for task in asyncio.all_tasks():
        print(f"- {task.get_name()}:", file=sys.stderr)
        awaiting: Any = task.get_coro()
        while awaiting is not None:  # down the chain of awaits to the innermost
            frame = getattr(awaiting, "cr_frame", None) or getattr(awaiting, "gi_frame", None)
            if frame is not None:
                print(f"    {frame.f_code.co_filename}:{frame.f_lineno} "
                      f"{frame.f_code.co_name}", file=sys.stderr)
            awaiting = getattr(awaiting, "cr_await", None) or getattr(awaiting, "gi_yieldfrom",
                                                                      None)
    test.cancel()


async def test_chaos_sigkill_restarts_lose_nothing_and_every_table_finishes(
        discord_double: Driver, tmp_path: Path) -> None:
    test = asyncio.current_task()
    assert test is not None
    watchdog = asyncio.get_running_loop().call_later(HUNG_AFTER, _stop_hung, test)
    try:
        await _play_with_kills(discord_double, tmp_path)
    finally:
        watchdog.cancel()


async def _play_with_kills(driver: Driver, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    world = await driver.make_world(users=("alice", "bob", "carol", "dave", "erin"))
    channels = [world.channel] + [await driver.add_channel(world.guild, f"{game}-table")
                                  for game, _ in GAMES[1:]]
    seats = [Seat(game, RemoteHarness(driver, World(world.guild, channel,
                                                    [world.users[n]]), None, tmp_path))  # type: ignore[arg-type]
             for n, ((game, _), channel) in enumerate(zip(GAMES, channels, strict=True))]
    db, log = tmp_path / "chaos.db", tmp_path / "bots.log"
    forks = Forks(driver, db, log)
    counts = Counts()
    acknowledged: list[ids.ActionClick] = []
    store: Store | None = None
    try:
        await forks.open()
        await forks.start()
        store = await Store.open(db)
        for seat, (_, options) in zip(seats, GAMES, strict=True):
            await _open_table(seat, store, options)
            seat.clicks_left = rng.randint(5, 12)
        next_kill = rng.randint(2, 5)
        deadline = time.monotonic() + FINISH_WITHIN
        while time.monotonic() < deadline:
            playing = [s for s in seats if await store.get_result(s.match_id) is None]
            if not playing and counts.kills >= KILLS:
                break
            clicking = [s for s in playing if s.clicks_left > 0]
            seat = rng.choice(clicking) if clicking else None
            click: ids.ActionClick | None = None
            if seat is not None:
                move = await _next_click(seat, refresh=seat.idle >= 6)
                if move is None:
                    seat.idle += 1
                    await asyncio.sleep(0.01)  # its computer players are acting
                    continue
                seat.idle = 0
                hand, custom_id = move
                seat.old_buttons.append((hand.id, custom_id))
                click = ids.parse_action(ids.parse(custom_id))
                handle = await driver.click(seat.person, hand, custom_id, wait=False)
                next_kill -= 1
                if next_kill <= 0 and rng.random() < 0.5:  # while it is being answered
                    await asyncio.sleep(rng.uniform(0, 0.02))
                    counts.mid_click += 1
                    await _kill_and_restart(forks, counts, store, acknowledged, seats, rng,
                                            pending=(handle, click))
                    next_kill = rng.randint(2, 5)
                    continue
                try:
                    await handle.wait_response(ANSWER)
                    acknowledged.append(click)
                    counts.acknowledged += 1
                except TimeoutError:
                    counts.unanswered += 1
                seat.clicks_left -= 1
                if seat.clicks_left == 0:  # the rest of the match is the computer's
                    answer = await seat.h.slash(seat.person, "leave")
                    assert "computer player" in answer.message.content
            elif counts.kills >= KILLS:  # only computer players are left, and enough kills
                await asyncio.sleep(0.05)
                continue
            else:  # only computer players are left: kill them at random moments
                next_kill = 0
            if next_kill <= 0:
                # While the computer players act and the messages are being published.
                await asyncio.sleep(rng.uniform(0, 0.3))
                await _kill_and_restart(forks, counts, store, acknowledged, seats, rng)
                next_kill = rng.randint(2, 5)
        else:  # name what is stuck, so a failed run says where to look
            stuck = [f"{s.game} (match {s.match_id}, {await store.next_seq(s.match_id)} "
                     f"actions logged)" for s in seats
                     if await store.get_result(s.match_id) is None]
            raise AssertionError(f"the tables did not finish within {FINISH_WITHIN} s "
                                 f"({counts.kills} kills): {', '.join(stuck)}; the "
                                 f"bots' log ends:\n" + "\n".join(
                                     log.read_text().splitlines()[-20:]))
        for click in acknowledged:
            assert await _logged(store, click), f"lost an acknowledged click: {click}"
        for seat in seats:
            result = await store.get_result(seat.match_id)
            assert result is not None, f"{seat.game} did not finish"
            log_now = [(a.seat, a.action) for a in await store.actions(seat.match_id)]
            assert log_now[:len(seat.logged)] == seat.logged, "the log was rewritten"
            counts.actions[seat.game] = await store.next_seq(seat.match_id)
    finally:
        if store is not None:
            await store.close()
        await forks.close()
    print(f"\nchaos (seed {SEED}): {counts.kills} SIGKILLs ({counts.mid_click} while a click "
          f"was being answered), {counts.acknowledged} acknowledged clicks all in the log, "
          f"{counts.unanswered} clicks lost unanswered with a killed bot, "
          f"{counts.old_buttons} old buttons answered after restarts, {counts.listed} "
          f"unfinished tables found restored by /tables; actions per finished "
          f"match: {counts.actions}")
    assert counts.kills >= KILLS
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
    assert not errors, "\n".join(errors[:20])
