"""Running the real TrickTable bot against the Discord double, and playing like a person."""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import TrickTableBot
from bot.config import Settings
from bot.tables import Clock
from discord_double import Driver, Message, User, World
from tests.e2e.privacy import PrivacyGuard

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GabcDe.abcdefghijklmnopqrstuvwxyz0123"


class _Collector(logging.Handler):
    """Errors our own loggers report (a bad click must never log one)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class SharedClock(Clock):
    """The tables' clock read from the double's, so Discord and the bot agree on the time
    when a test moves it forward (by hours or days): `advance` moves both and wakes the
    bot's turn watches."""

    def __init__(self, discord_clock: Any) -> None:
        super().__init__()
        self.discord = discord_clock

    def now(self) -> float:
        return float(self.discord.now())

    def advance(self, seconds: float) -> None:
        self.discord.advance(seconds)
        super().advance(0)


def free_port() -> int:
    """A loopback port nothing listens on now (the OS's pick), for a test's own server."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_bot(db: Path, guild_id: int, clock: Clock | None = None,
             **overrides: Any) -> TrickTableBot:
    """The bot under test; cards are text unless a test asks for `card_emojis=True`."""
    # Computer players think briefly in tests (a search player falls back to its rules
    # early in a deal); a test of full strength passes think_seconds itself.
    overrides.setdefault("think_seconds", 0.1)
    # A slow run of a test must not ping someone for real minutes passing (a new message
    # in the channel); the tests of pings ask for them.
    overrides.setdefault("ping_after_seconds", 0)
    # They think in threads of the bot process (no worker processes to start); a test of
    # the worker processes passes think_processes itself.
    overrides.setdefault("think_processes", 0)
    overrides.setdefault("card_emojis", False)
    # Discord's 5 writes per channel in 5 s, in a tenth of the time (tests of the budget
    # itself pass 5.0 with the double's buckets on).
    overrides.setdefault("channel_write_window", 0.5)
    # Many bots start in one test process: none freezes the process's objects unless a
    # test asks for it (the bot's own entry point does).
    freeze_at_start = overrides.pop("freeze_at_start", False)
    settings = Settings(token=TOKEN, database_path=str(db), dev_guild_id=guild_id,
                        bot_delay_seconds=0, edit_interval=0.02, **overrides)
    return TrickTableBot(settings, clock=clock, guild_ready_timeout=0.1,
                         freeze_at_start=freeze_at_start)


async def emojis_set_up(bot: TrickTableBot) -> None:
    """Wait for the start's card-emoji set-up (cogs/cards.py) to finish."""
    faces = bot.get_cog("CardFaces")
    task = getattr(faces, "ready", None)
    if task is not None:
        await task


@dataclass
class Harness:
    driver: Driver
    world: World
    bot: TrickTableBot
    db: Path
    errors: _Collector = field(default_factory=_Collector)
    privacy: PrivacyGuard | None = None

    @property
    def channel(self) -> Any:
        return self.world.channel

    def user(self, index: int) -> User:
        return self.world.users[index]

    async def later(self, seconds: float) -> None:
        """Move Discord's and the bot's clock forward (the bot must run with
        `shared_clock=True`), then let what came due happen."""
        clock = self.bot.tables.clock
        assert isinstance(clock, SharedClock), "run the bot with shared_clock=True"
        clock.advance(seconds)
        await self.driver.settle()

    # -- reading -------------------------------------------------------------------------

    def table_message(self, table_id: int | None = None) -> Message:
        table = self.table(table_id)
        assert table.message_id is not None
        return self.driver.message(table.message_id)

    def table(self, table_id: int | None = None) -> Any:
        service = self.bot.tables
        if table_id is None:
            found = service.in_channel(self.channel.id)
            assert found is not None, "no table open in the channel"
            return found
        return service.tables[table_id]

    @staticmethod
    def buttons(message: Message) -> list[dict[str, Any]]:
        return [c for row in message.components for c in row.get("components", [])
                if c.get("type") == 2]

    def button(self, message: Message, label: str) -> str:
        for comp in self.buttons(self.driver.message(message)):
            if comp.get("label") == label:
                return str(comp["custom_id"])
        labels = [c.get("label") for c in self.buttons(self.driver.message(message))]
        raise AssertionError(f"no button {label!r} on message {message.id}: {labels}")

    def hand_of(self, user: User) -> Message | None:
        """The user's latest private hand message (ephemeral), if any."""
        mine = [m for m in self.driver.ephemerals(user) if "you are **" in (m.content or "")]
        return mine[-1] if mine else None

    # -- acting --------------------------------------------------------------------------

    async def slash(self, user: User, name: str, subcommand: str | None = None,
                    **options: Any) -> Any:
        return await self.driver.slash(user, self.channel, name, subcommand, options)

    async def press(self, user: User, message: Message, label: str) -> Any:
        return await self.driver.click(user, message, self.button(message, label))

    async def open_table(self, user: User, game: str, **options: Any) -> Any:
        await self.slash(user, "play", game, **options)
        return self.table()

    async def start_with_bots(self, user: User, game: str, **options: Any) -> Any:
        """`user` opens a table, fills every other seat with the default computer player
        and starts the match; returns the table."""
        table = await self.open_table(user, game, **options)
        for _ in range(table.game.SEATS - 1):
            await self.press(user, self.table_message(), "Add bot")
        await self.press(user, self.table_message(), "Start")
        return table

    async def start_with_people(self, people: Iterable[User], game: str,
                                **options: Any) -> Any:
        """The first of `people` opens a table, the others join, the match starts and
        each opens their hand; returns the table."""
        first, *others = people
        table = await self.open_table(first, game, **options)
        await self.seat_people(others)
        await self.press(first, self.table_message(), "Start")
        for person in (first, *others):
            await self.open_hand(person)
        await self.driver.settle()
        return table

    async def seat_people(self, people: Iterable[User]) -> None:
        for person in people:
            await self.press(person, self.table_message(), "Join")

    async def open_hand(self, user: User) -> Message:
        await self.press(user, self.table_message(), "My hand")
        hand = self.hand_of(user)
        assert hand is not None, f"{user.name} got no hand"
        return hand

    def action_buttons(self, message: Message) -> list[dict[str, Any]]:
        return [c for c in self.buttons(self.driver.message(message))
                if str(c.get("custom_id", "")).startswith("tt:act:")]

    def moves(self, message: Message) -> list[dict[str, Any]]:
        """The action buttons that are moves (a claim or an undo asks, it is no move)."""
        return [c for c in self.action_buttons(message)
                if str(c["custom_id"]).split(":")[5] not in ("claim", "undo", "withdraw")]

    async def forge(self, user: User, custom_id: str, source: Message | None = None,
                    wait: bool = True) -> Any:
        """Click a button whose custom id we choose: a message from an older bot, a
        tampered one. Discord only delivers clicks on components a message really has,
        so the button is first put on the message (in the double's copy of it)."""
        source = self.driver.message(source or self.table_message())
        rows = [row for row in source.latest.components
                if all(c.get("custom_id") != custom_id for c in row.get("components", []))]
        if len(rows) == 5:
            rows = rows[:4]
        rows.append({"type": 1, "components": [
            {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]})
        source.latest.components = rows
        return await self.driver.click(user, source, custom_id, wait=wait)

    def last_reply(self, user: User) -> str:
        """The text of the newest ephemeral message the user got."""
        mine = self.driver.ephemerals(user)
        assert mine, f"{user.name} got no private reply"
        newest = max(mine, key=lambda m: m.id)
        return newest.content or " ".join(e.get("description", "") for e in newest.embeds)

    async def play_people(self, people: Iterable[User], until: Any, limit: int = 3000,
                          choose: Any = None) -> None:
        """Whoever has a move presses one, until `until()` is true."""
        people = list(people)
        for person in people:
            await self.open_hand(person)
        for _ in range(limit):
            if until():
                return
            moved = False
            for person in people:
                if until():
                    return
                if await self.act_once(person, choose):
                    moved = True
            if not moved:
                await self.driver.settle()
                for person in people:
                    table = self.bot.tables.in_channel(self.channel.id)
                    if table is not None and table.seat_of(person.id) is not None:
                        await self.open_hand(person)
        raise AssertionError("the game did not reach the expected point")

    async def act_once(self, user: User, choose: Any = None) -> bool:
        """Press one legal action on the user's hand message; False if they have none."""
        hand = self.hand_of(user)
        if hand is None:
            hand = await self.open_hand(user)
        hand = self.driver.message(hand)
        actions = self.moves(hand)
        if not actions:
            groups = [c for c in self.buttons(hand)
                      if str(c.get("custom_id", "")).startswith("tt:pick:")
                      and not str(c["custom_id"]).endswith((":-", ":claim"))]
            if not groups:
                return False
            await self.driver.click(user, hand, str(groups[0]["custom_id"]))
            actions = self.moves(hand)
            if not actions:
                return False
        chosen = choose(actions) if choose else actions[0]
        await self.driver.click(user, hand, str(chosen["custom_id"]))
        return True


PLAY_SETTLE_TIMEOUT = 30.0  # seconds a click's settle waits for the bot to be done
# Seconds a decision of Robot's play (the robots' replay of a deal, cogs/match.py) may take
# in tests: what the answer shows is checked, not how strongly the robots play (the bot's
# 0.2 s made the replay of a bridge board several seconds of a test).
ROBOT_THINK = 0.02


def quicker_robots_play(bot: TrickTableBot) -> None:
    """Robot's play thinks `ROBOT_THINK` a decision in this bot. The cog's module is the
    one its extension loaded (discord.py loads each extension afresh), not `cogs.match` as
    imported here."""
    cog = bot.get_cog("Match")
    if cog is not None:
        sys.modules[type(cog).__module__].ROBOT_THINK = ROBOT_THINK  # type: ignore[attr-defined]


@asynccontextmanager
async def running(driver: Driver, tmp_path: Path, world: World | None = None,
                  db_name: str = "e2e.db", shared_clock: bool = False,
                  **overrides: Any) -> AsyncIterator[Harness]:
    """The bot running against the double; with `shared_clock` the tables' clock is the
    double's (see `Harness.later`)."""
    world = world or await driver.make_world()
    db = tmp_path / db_name
    clock = SharedClock(driver.state.clock) if shared_clock else None
    bot = make_bot(db, world.guild.id, clock=clock, **overrides)
    harness = Harness(driver, world, bot, db)
    harness.privacy = PrivacyGuard(harness)
    loggers = [logging.getLogger(name) for name in ("bot", "cogs")]
    for lg in loggers:
        lg.addHandler(harness.errors)
    drawing: Callable[[], bool] | None = None
    pinging: Callable[[], bool] | None = None

    def thinking() -> bool:
        tables = getattr(bot, "tables", None)  # made in setup_hook
        return tables is not None and tables.turns.thinking.thinking > 0

    driver.busy.append(thinking)
    # Computer players think up to their budget per decision, several in a row after a
    # click, and more slowly on a loaded machine: a click's settle may take longer than the
    # double's default (a bot that never goes quiet still fails the test, later).
    settle_timeout, driver.settle_timeout = driver.settle_timeout, PLAY_SETTLE_TIMEOUT
    try:
        async with driver.running(bot):
            await emojis_set_up(bot)
            quicker_robots_play(bot)
            publisher = getattr(bot, "publisher", None)  # made in setup_hook
            drawing = publisher.busy if publisher is not None else None
            if drawing is not None:  # settle() also waits for posts being drawn
                driver.busy.append(drawing)
                pinging = publisher.pinger.busy
                driver.busy.append(pinging)
            yield harness
            await driver.settle()
            if publisher is not None and harness.privacy is not None:
                stale = harness.privacy.hands_are_current(publisher)
                assert not stale, "hands left one move old:\n" + "\n".join(stale[:3])
    finally:
        driver.settle_timeout = settle_timeout
        if harness.privacy is not None:
            harness.privacy.close()
        driver.busy.remove(thinking)
        if drawing is not None:
            driver.busy.remove(drawing)
            driver.busy.remove(pinging)
        for lg in loggers:
            lg.removeHandler(harness.errors)
    problems = [f"{r.name}: {r.getMessage()}" for r in harness.errors.records
                if r.levelno >= logging.ERROR]
    assert not problems, "the bot logged errors:\n" + "\n".join(problems)
    assert not harness.privacy.leaks, "hidden cards were shown:\n" + "\n".join(
        harness.privacy.leaks[:1])[:3000]
