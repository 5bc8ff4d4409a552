"""Fuzz (issue 19, item 7): thousands of hostile interactions, seeded, across live tables of
all five games, through the real client and the Discord double.

People who are not seated, out of turn, on stale decisions, on other seats, with forged,
garbage, overlong and other tables' custom ids, duplicates sent at the same moment,
unknown commands and option values, unknown games in /leaderboard; mixed with a few
legitimate moves so that tables move on and old buttons go stale. Then:
- every interaction was answered exactly once, within Discord's 3 seconds (the double's
  clock; a late or second answer is also a violation that fails the test);
- the only moves in any table's stored log are computer players' and the legitimate
  clicks sent, and the log replays to the table's state;
- nothing logged an error (the harness), and no payload showed a hidden card (the privacy
  guard watches every table).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.games import create, replay
from bot.render import ids
from discord_double import InteractionHandle, Message, User, Version, World
from tests.e2e.harness import Harness, running

SEED = 19
HOSTILE = 5000  # hostile interactions (legitimate moves come on top)
BATCH = 32  # interactions in flight at once
LEGIT_SHARE = 0.08
DEADLINE = 3.0  # Discord's: the first answer within 3 s

# game -> indexes into the world's users of the people seated (computer players fill
# the other seats)
SEATING = {"bridge": (0, 1), "spades": (2, 3), "single_dummy": (0, 1),
           "tennis": (2, 3), "bidfair": (0, 2)}
GARBAGE = ["", "tt", "tt:", "tt:act", "tt:act:", "tt:act:x:0:0:pass", "tt:act:1:-1:0:pass",
           "tt:act:1:0:x:pass", "tt:act:1:0:0:", "tt:::::", "tt:nope:1", "tt:hand:abc",
           "tt:pick:1:0:0:toolonggroup", "tt:sit:1:9", "tt:sit:1:x", "tt:addbot:1:a:b",
           "TT:ACT:1:0:0:PASS", "tt:act:99999999:0:0:pass", "tt:rec:1:zz", "tt:lb:1:x",
           "tt:hist:0:-3", "tt:sheet:", "♠♥♦♣", "tt:act:1:0:0:play:\u0000", "💥" * 30,
           "tt:act:1:00000000000000000000:0:pass", "tt:join:18446744073709551616"]
STRANGER_VERBS = ["join", "leave", "addbot", "start", "cancel", "hand", "last", "rules"]
BAD_COMMANDS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("nonexistent", None, {}), ("play", "chess", {}), ("leaderboard", None, {"game": "chess"}),
    ("leaderboard", None, {"game": "go fish", "page": 2}),
    ("leaderboard", None, {"game": "spades", "page": 0}),
    ("play", "spades", {"target": 5}), ("play", "bidfair", {"target": -1}),
    ("play", "bridge", {"rubbers": 99}), ("settings", None, {"pings": "sometimes"}),
    ("rules", None, {"game": "poker"}), ("history", None, {"page": -4}),
]


@dataclass
class Fuzz:
    h: Harness
    rng: random.Random
    tables: list[Any]
    decoys: dict[int, Message]  # table id -> a message of ours in its channel to click on
    strangers: list[User]
    kinds: Counter[str] = field(default_factory=Counter)
    allowed: set[tuple[int, int, int, str, int]] = field(default_factory=set)
    handles: list[InteractionHandle] = field(default_factory=list)

    # -- what to send --------------------------------------------------------------------

    def person_at(self, table: Any, seat: int) -> User | None:
        info = table.seats[seat]
        if info is None or info.user_id is None:
            return None
        return next(u for u in self.h.world.users if u.id == info.user_id)

    def legit(self) -> tuple[Any, User, str] | None:
        """A person to act presses one of their legal moves (its exact current id)."""
        live = [t for t in self.tables if not t.closed]
        self.rng.shuffle(live)
        for table in live:
            for seat in sorted(table.game.to_act()):
                person = self.person_at(table, table.decider(seat))
                legal = table.game.legal(seat)
                if person is None or not legal:
                    continue
                action = str(self.rng.choice(legal))
                decision = table.decisions[seat]
                return table, person, ids.action_id(table.id, seat, decision, action)
        return None

    def hostile(self) -> tuple[str, Any, User, str] | tuple[str, None, User, tuple[Any, ...]]:
        rng = self.rng
        table = rng.choice(self.tables)
        seats = range(table.game.SEATS)
        seat = rng.choice(seats)
        people = [p for s in seats if (p := self.person_at(table, s)) is not None]
        decision = table.decisions[seat]
        moves = [str(m) for s in seats for m in table.game.legal(s)] or ["pass"]
        move = rng.choice(moves)
        kind = rng.choices(
            ["stranger", "wrong_seat", "out_of_turn", "stale", "illegal", "garbage",
             "overlong", "other_table", "lobby_verbs", "bogus_table", "command"],
            [12, 10, 10, 12, 8, 12, 5, 10, 8, 5, 8])[0]
        if kind == "command":
            return kind, None, rng.choice(people), rng.choice(BAD_COMMANDS)
        if kind == "stranger":
            return kind, table, rng.choice(self.strangers), ids.action_id(
                table.id, seat, decision, move)
        if kind == "wrong_seat":
            person = rng.choice(people)
            others = [s for s in seats if table.seat_of(person.id) != s]
            return kind, table, person, ids.action_id(table.id, rng.choice(others),
                                                      table.decisions[seat], move)
        if kind == "out_of_turn":
            waiting = [s for s in seats if s not in table.game.to_act()
                       and self.person_at(table, s) is not None]
            if waiting:
                seat = rng.choice(waiting)
            person = self.person_at(table, seat) or rng.choice(people)
            return kind, table, person, ids.action_id(table.id, seat, table.decisions[seat],
                                                      move)
        if kind == "stale":
            mine = [s for s in seats if self.person_at(table, s) is not None]
            seat = rng.choice(mine)
            if not table.decisions[seat]:  # nothing stale yet: a decision still to come
                kind, old = "future", 1
            else:
                old = rng.randrange(table.decisions[seat])
            return kind, table, self.person_at(table, seat) or people[0], ids.action_id(
                table.id, seat, old, move)
        if kind == "illegal":
            bad = rng.choice(["play:ZZ", "bid:9NT", "bid:14", "play:AS:AS", "redouble",
                              "look", "pass", "claim", "bid:nil", "place:crib:AS"])
            mine = [s for s in seats if self.person_at(table, s) is not None]
            seat = rng.choice(mine)
            return kind, table, self.person_at(table, seat) or people[0], ids.action_id(
                table.id, seat, table.decisions[seat], bad)
        if kind == "garbage":
            text = rng.choice(GARBAGE).replace(":1:", f":{table.id}:")
            return kind, table, rng.choice(people + self.strangers), text
        if kind == "overlong":
            return kind, table, rng.choice(people), f"tt:act:{table.id}:0:0:" + "A" * 120
        if kind == "other_table":
            other = rng.choice([t for t in self.tables if t is not table])
            s = rng.choice(range(other.game.SEATS))
            return kind, table, rng.choice(people), ids.action_id(
                other.id, s, other.decisions[s], move)
        if kind == "lobby_verbs":
            verb = rng.choice(STRANGER_VERBS)
            extra = [rng.choice(["0", "9", "x", "spades-basic"])] if rng.random() < 0.3 else []
            return kind, table, rng.choice(self.strangers), ids.make(verb, table.id, *extra)
        return kind, table, rng.choice(people), ids.make(
            rng.choice(["act", "hand", "last", "pick", "rec"]), 999_000 + rng.randrange(99),
            0, 0, "pass")

    # -- sending -------------------------------------------------------------------------

    def note_rightful(self, user: User, custom_id: str) -> None:
        """A move id pressed by the person in its seat for the seat's current decision (or
        a later one, which may have come by when the bot gets to it) may legitimately
        apply, whatever the fuzz meant by it: it joins the moves allowed in the logs.
        Strangers, other seats, stale decisions and second presses stay refused."""
        try:
            click = ids.parse_action(ids.parse(custom_id))
        except ids.BadCustomId:
            return
        table = next((t for t in self.tables if t.id == click.table_id), None)
        if table is None or not 0 <= click.seat < table.game.SEATS:
            return
        # A computer declarer's cards are played by the person opposite (human declares).
        if self.person_at(table, table.decider(click.seat)) is user and \
                click.decision >= table.decisions[click.seat]:
            self.allowed.add((table.id, click.seat, click.decision, click.action, user.id))

    async def click(self, table: Any, user: User, custom_id: str) -> None:
        """A click on a component with this custom id, on a message of ours in the table's
        channel (Discord delivers clicks only on components a message has: the double's
        copy of that message is given the button first)."""
        self.note_rightful(user, custom_id)
        decoy = self.decoys[table.id]
        decoy.versions[-1].components = [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]
        handle = await self.h.driver.click(user, decoy, custom_id, wait=False)
        self.handles.append(handle)

    async def command(self, user: User, channel: Any, spec: tuple[Any, ...]) -> None:
        name, sub, options = spec
        handle = await self.h.driver.slash(user, channel, name, sub, dict(options),
                                           wait=False)
        self.handles.append(handle)

    async def one(self) -> None:
        if self.rng.random() < LEGIT_SHARE:
            found = self.legit()
            if found is not None:
                table, person, custom_id = found
                self.kinds["legit"] += 1
                await self.click(table, person, custom_id)
                if self.rng.random() < 0.3:  # the same press twice at once
                    self.kinds["duplicate"] += 1
                    await self.click(table, person, custom_id)
                return
        kind, table, user, what = self.hostile()
        self.kinds[kind] += 1
        if table is None:
            assert isinstance(what, tuple)
            channel = self.h.driver.state.channels[self.rng.choice(self.tables).channel_id]
            await self.command(user, channel, what)
        else:
            assert isinstance(what, str)
            await self.click(table, user, what)


def _decoy(h: Harness, channel_id: int) -> Message:
    """A message of the bot's in the channel for fuzzed clicks to land on."""
    state = h.driver.state
    channel = state.channels[channel_id]
    message = Message(id=state.snowflakes.next(), channel_id=channel.id,
                      guild_id=channel.guild_id, author=state.bot_user,
                      versions=[Version("fuzz", [], [], [], 0, state.clock.now())])
    state.messages[message.id] = message
    return message


async def _open_tables(h: Harness, world: World) -> list[Any]:
    tables = []
    for game, seated in SEATING.items():
        channel = await h.driver.add_channel(world.guild, game)
        h.world = World(world.guild, channel, world.users)
        people = [world.users[i] for i in seated]
        table = await h.open_table(people[0], game)
        await h.seat_people(people[1:])
        for _ in range(table.game.SEATS - len(people)):
            await h.press(people[0], h.table_message(), "Add bot")
        await h.press(people[0], h.table_message(), "Start")
        tables.append(table)
    return tables


async def _check_logs(h: Harness, fuzz: Fuzz) -> int:
    """Only legitimate moves by people in the logs, and each log replays to its table."""
    people_moves = 0
    for table in fuzz.tables:
        log = await h.bot.store.actions(table.id)
        made: Counter[int] = Counter()
        for entry in log:
            decision = made[entry.seat]
            made[entry.seat] += 1
            if entry.actor != "user":
                continue
            people_moves += 1
            assert (table.id, entry.seat, decision, entry.action, entry.user_id) in \
                fuzz.allowed, f"table {table.id}: a move nobody legitimately made: {entry}"
        rebuilt = replay(create(table.game_name, options=table.options,
                                seed=table.deal_source), [(a.seat, a.action) for a in log])
        assert rebuilt.history == table.game.history
    return people_moves


async def test_fuzz_thousands_of_hostile_interactions_change_nothing(discord_double,
                                                                      tmp_path):
    rng = random.Random(SEED)
    world = await discord_double.make_world(
        users=("alice", "bob", "carol", "dave", "eve", "mallory"))
    began, cpu = time.monotonic(), time.process_time()
    async with running(discord_double, tmp_path, world=world, think_seconds=0.8) as h:
        tables = await _open_tables(h, world)
        fuzz = Fuzz(h, rng, tables, {t.id: _decoy(h, t.channel_id) for t in tables},
                    strangers=list(world.users[4:]))
        while sum(fuzz.kinds.values()) - fuzz.kinds["legit"] - fuzz.kinds["duplicate"] \
                < HOSTILE:
            start = len(fuzz.handles)
            for _ in range(BATCH):
                await fuzz.one()
            await asyncio.gather(*(handle.wait_response(timeout=DEADLINE + 2)
                                   for handle in fuzz.handles[start:]))
        await h.driver.settle(timeout=30)
        late = [hd.id for hd in fuzz.handles
                if (answer := hd.interaction.response_at) is None
                or answer - hd.interaction.created_at > DEADLINE]
        assert not late, f"{len(late)} interactions answered late or not at all"
        moves = await _check_logs(h, fuzz)
        hostile = len(fuzz.handles) - fuzz.kinds["legit"] - fuzz.kinds["duplicate"]
        assert hostile >= HOSTILE
        assert moves >= fuzz.kinds["legit"] // 2, "the tables moved on (old ids went stale)"
        seconds, cpu = time.monotonic() - began, time.process_time() - cpu
        print(f"\nfuzz (seed {SEED}): {len(fuzz.handles)} interactions in {seconds:.1f} s "
              f"({cpu:.1f} s of CPU for the bot, the double and the test together), "
              f"{hostile} hostile, {moves} people's moves applied; by kind: "
              + ", ".join(f"{k} {n}" for k, n in sorted(fuzz.kinds.items()))
              + f"; privacy checks {h.privacy.checked if h.privacy else 0}, of which "
              f"{h.privacy.one_move_old if h.privacy else 0} showed a state a few moves old")
