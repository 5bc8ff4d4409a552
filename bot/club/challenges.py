"""Challenges: one person challenges another to a game; both play the same fair deals, each
at their own table (a private thread) with computer players in the other seats, at their
own pace before a deadline, and compare deal by deal as the game declares (its engine's
CHALLENGE: IMPs for the bridge games, points otherwise).

A challenge is a record linking two ordinary tables: their play, storage and restart are
the tables'. Everything about it is in the store (the offer, the deadline, each person's
table, the pings sent), and its comparison is computed from the two tables' stored deal
results, so a restart finds it as it was; a periodic `sweep` ends what is due.

A deal is compared, and shown to anyone, only once both have played it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from bot.ai import level_label, player_kinds
from bot.games import ChallengePlay, Event, game_class, games_with
from bot.games.challenge_scoring import ChallengeCard, PersonDeal, challenge_card, net_score
from bot.games.fairness import FairDeals, client_seed_from
from bot.store import Store
from bot.store.challenges import ChallengeRow, OpenLimit
from bot.tables import Person, Table, TableError, TableService, TableSettings
from bot.tables.model import ABANDONED, LOBBY, PLAYING
from bot.tables.solo import open_solo

from .followups import Followups

log = logging.getLogger(__name__)

# The games with challenges, and how each plays them: each engine's CHALLENGE.
CHALLENGE_GAMES: Final[dict[str, ChallengePlay]] = {
    name: play for name in games_with("CHALLENGE")
    if (play := game_class(name).CHALLENGE) is not None}
OPEN_LIMIT: Final = 5  # open challenges (offered or being played) per person, either side
DAY: Final = 86400
DAYS_DEFAULT, DAYS_MIN, DAYS_MAX = 3, 1, 14
# A person who has not finished is pinged once when this little time is left.
REMIND_BEFORE: Final = 12 * 3600
CHALLENGER, CHALLENGED = 0, 1

Announce = Callable[[ChallengeRow, ChallengeCard | None], Awaitable[None]]
"""Shows a challenge's end in its channel (the card is None for an offer that expired)."""
Remind = Callable[[ChallengeRow, int, ChallengeCard], Awaitable[bool]]
"""Pings person `place` of a challenge as its deadline nears (False: not sent, try again)."""


def deal_word(game: str, count: int = 2) -> str:
    """What the game's deals are called: bridge's are boards."""
    play = CHALLENGE_GAMES.get(game)
    word = "board" if play is not None and play.length_option == "boards" else "deal"
    return word if count == 1 else word + "s"


def levels(game: str) -> dict[str, str]:
    """A game's computer players by the level people choose (`advanced` -> its kind)."""
    return {level_label(kind).lower(): kind for kind in player_kinds(game)}


def all_levels() -> tuple[str, ...]:
    """Every level some game's challenges offer, strongest kinds first."""
    seen: dict[str, None] = {}
    for game in CHALLENGE_GAMES:
        seen.update(dict.fromkeys(levels(game)))
    return tuple(seen)


def _titles() -> str:
    return ", ".join(game_class(name).TITLE for name in CHALLENGE_GAMES)


def _ended(row: ChallengeRow) -> str:
    """Why a challenge takes no more answers or plays."""
    return {"declined": f"{row.names[1]} declined this challenge.",
            "cancelled": f"{row.names[0]} cancelled this challenge.",
            "expired": "This challenge expired: it was not accepted before its deadline.",
            "finished": "This challenge is over: `/challenge list` shows its result.",
            "accepted": "This challenge was accepted already: it is being played."
            }.get(row.status, "This challenge is closed.")


class Challenges:
    """Offering, answering and playing challenges, and ending them when due."""

    def __init__(self, service: TableService, store: Store,
                 clock: Callable[[], float] | None = None) -> None:
        self.service = service
        self.store = store
        self.clock = clock or service.clock.now
        self.announce: Announce | None = None
        self.remind: Remind | None = None
        self.by_table: dict[int, int] = {}  # a person's open table -> its challenge
        self._locks: dict[int, asyncio.Lock] = {}
        self._followups = Followups("challenge")
        service.watchers.append(self)

    def _lock(self, challenge_id: int) -> asyncio.Lock:
        return self._locks.setdefault(challenge_id, asyncio.Lock())

    async def get(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.challenge(challenge_id)
        if row is None:
            raise TableError("That challenge no longer exists.")
        return row

    # -- the offer ----------------------------------------------------------------------

    async def offer(self, guild_id: int, channel_id: int, challenger: Person,
                    challenged: Person, *, challenged_is_bot: bool, game: str,
                    deals: int | None = None, days: int | None = None,
                    level: str | None = None) -> ChallengeRow:
        """Store a challenge on offer to `challenged`; refused (TableError) when it cannot
        be, and then nothing is stored."""
        if challenged_is_bot:
            raise TableError("You can only challenge a person: computer players already "
                             "take the other seats of a challenge.")
        if challenged.user_id == challenger.user_id:
            raise TableError("You cannot challenge yourself: choose another member.")
        play = CHALLENGE_GAMES.get(game)
        if play is None:
            raise TableError(f"`{game}` has no challenges; challenges are for {_titles()}.")
        deals = play.default_deals if deals is None else deals
        if not 1 <= deals <= play.max_deals:
            raise TableError(f"A {game_class(game).TITLE} challenge is 1 to {play.max_deals} "
                             f"{deal_word(game)} (you asked for {deals}).")
        days = DAYS_DEFAULT if days is None else days
        if not DAYS_MIN <= days <= DAYS_MAX:
            raise TableError(f"A challenge's deadline is {DAYS_MIN} to {DAYS_MAX} days "
                             f"(you asked for {days}).")
        kinds = levels(game)
        kind = player_kinds(game)[0] if level is None else kinds.get(level.lower())
        if kind is None:
            raise TableError(f"There is no {level!r} level for {game_class(game).TITLE}; "
                             f"choose {' or '.join(kinds)}.")
        deadline = int(self.clock()) + days * DAY  # to accept it by
        try:
            challenge_id = await self.store.create_challenge(
                guild_id, channel_id, game, deals, kind, days,
                (challenger.user_id, challenger.name), (challenged.user_id, challenged.name),
                FairDeals.new_secret(), deadline, OPEN_LIMIT)
        except OpenLimit as exc:
            if exc.args[0] == challenger.user_id:
                raise TableError(f"You have {OPEN_LIMIT} open challenges already (offered "
                                 "or being played): finish one, or cancel one you offered "
                                 "(`/challenge list`).") from None
            raise TableError(f"{challenged.name} has {OPEN_LIMIT} open challenges already; "
                             "challenge them again once one is over.") from None
        return await self.get(challenge_id)

    async def answer(self, challenge_id: int, user_id: int, accept: bool,
                     press_id: int) -> ChallengeRow:
        """The challenged person accepts (the deals are fixed by this press) or declines."""
        async with self._lock(challenge_id):
            row = await self.get(challenge_id)
            if user_id == row.people[CHALLENGER]:
                raise TableError(f"This is your own challenge: {row.names[CHALLENGED]} "
                                 "accepts or declines it. You can cancel it until then.")
            if user_id != row.people[CHALLENGED]:
                raise TableError(f"This challenge is for {row.names[CHALLENGED]}: only they "
                                 "can accept or decline it. Challenge someone yourself "
                                 "with `/challenge new`.")
            if row.status != "offered":
                raise TableError(_ended(row))
            now = int(self.clock())
            if now >= row.deadline:
                await self._expire(row)
                raise TableError("This challenge expired: it was not accepted in time.")
            if accept:
                client = client_seed_from(press_id, row.people)
                changed = await self.store.accept_challenge(row.id, client,
                                                            now + row.days * DAY, now)
            else:
                changed = await self.store.end_challenge(row.id, "declined", "offered")
            if not changed:
                raise TableError(_ended(await self.get(challenge_id)))
            return await self.get(challenge_id)

    async def cancel(self, challenge_id: int, user_id: int) -> ChallengeRow:
        """The challenger takes back an offer nobody has answered."""
        async with self._lock(challenge_id):
            row = await self.get(challenge_id)
            if user_id != row.people[CHALLENGER]:
                raise TableError(f"Only {row.names[CHALLENGER]}, who made this challenge, "
                                 "can cancel it.")
            if row.status == "accepted":
                raise TableError("It was accepted, so it cannot be cancelled: it ends when "
                                 "both have played or at its deadline.")
            if row.status != "offered" or not await self.store.end_challenge(
                    row.id, "cancelled", "offered"):
                raise TableError(_ended(await self.get(challenge_id)))
            return await self.get(challenge_id)

    # -- playing --------------------------------------------------------------------------

    async def check_play(self, challenge_id: int, user_id: int) -> tuple[ChallengeRow, int]:
        """Refuse a Play my deals that cannot be (asked before the cog opens a thread)."""
        row = await self.get(challenge_id)
        place = row.place_of(user_id)
        if place is None:
            raise TableError(f"This challenge is between {row.names[0]} and {row.names[1]}; "
                             "challenge someone yourself with `/challenge new`.")
        if row.status == "offered":
            raise TableError(f"{row.names[CHALLENGED]} has not accepted this challenge yet.")
        if row.status != "accepted":
            raise TableError(_ended(row))
        table_id = row.tables[place]
        if table_id is not None:
            table = self.service.tables.get(table_id)
            if table is not None and not table.closed:
                raise TableError("You are playing your deals of this challenge already: "
                                 f"they are in <#{table.channel_id}>.")
            raise TableError("You have played your deals of this challenge already; its "
                             "result is posted when both have played or at its deadline.")
        if self.clock() >= row.deadline:
            raise TableError("This challenge's deadline has passed.")
        return row, place

    async def play(self, challenge_id: int, person: Person, channel_id: int) -> Table:
        """Start the person's deals in `channel_id` (their private thread): the challenge's
        seat, computer players of its level in the others, the challenge's fair deals."""
        async with self._lock(challenge_id):
            row, place = await self.check_play(challenge_id, person.user_id)
            play = CHALLENGE_GAMES.get(row.game)
            if play is None:
                raise TableError(f"{game_class(row.game).TITLE} no longer has challenges.")

            async def enter(table: Table) -> bool:
                if not await self.store.set_challenge_table(row.id, place, table.id):
                    return False
                self.by_table[table.id] = row.id
                return True

            settings = TableSettings(deal_secret=row.secret, client_seed=row.client_seed)
            return await open_solo(
                self.service, row.game, {**play.options, play.length_option: row.deals},
                guild_id=row.guild_id, channel_id=channel_id, person=person, seat=play.seat,
                settings=settings, enter=enter, bot_kind=row.bot_kind,
                refused="You have played your deals of this challenge already.")

    # -- the comparison ---------------------------------------------------------------------

    async def card(self, row: ChallengeRow) -> ChallengeCard:
        """The comparison from the two tables' stored deal results (deals both played)."""
        play = CHALLENGE_GAMES.get(row.game)
        seat = play.seat if play is not None else 0
        side = next(i for i, seats in enumerate(game_class(row.game).SIDES) if seat in seats)
        results = []
        for table_id in row.tables:
            mine: dict[int, PersonDeal] = {}
            if table_id is not None:
                for deal in await self.store.deals(table_id):
                    lines = deal.detail.get("lines") or [{}]
                    mine[deal.deal_no] = PersonDeal(net_score(deal.points, side),
                                                    str(lines[0].get("note", "")))
            results.append(mine)
        return challenge_card(row.deals, play.compare if play is not None else "points",
                              results[0], results[1])

    async def done(self, row: ChallengeRow) -> tuple[bool, bool]:
        """Whether each person is through with their deals (their table has closed)."""
        out = []
        for table_id in row.tables:
            match = None if table_id is None else await self.store.get_match(table_id)
            out.append(match is not None and match.status not in (LOBBY, PLAYING))
        return out[0], out[1]

    async def seen_by(self, guild_id: int, user_id: int, limit: int = 10
                      ) -> list[tuple[ChallengeRow, ChallengeCard | None]]:
        """A person's challenges (open first, then the newest), each with its comparison
        where it was accepted: only deals both have played are in it."""
        out: list[tuple[ChallengeRow, ChallengeCard | None]] = []
        for row in await self.store.challenges_of(guild_id, user_id, limit):
            played = row.status in ("accepted", "finished")
            out.append((row, await self.card(row) if played else None))
        return out

    # -- following the tables -----------------------------------------------------------

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Nothing to do while a person plays: a deal is compared when someone asks."""

    def table_closed(self, table: Table) -> None:
        challenge_id = self.by_table.pop(table.id, None)
        if challenge_id is not None:
            self._followups.start(self.refresh(challenge_id))

    def busy(self) -> bool:
        """Whether a challenge is being brought up to date (tests wait for it)."""
        return self._followups.busy()

    async def refresh(self, challenge_id: int) -> None:
        """End an accepted challenge once both people are through with their deals."""
        async with self._lock(challenge_id):
            row = await self.store.challenge(challenge_id)
            if row is None or row.status != "accepted" or not all(await self.done(row)):
                return
            await self._finish(row)

    async def _finish(self, row: ChallengeRow) -> None:
        """Score an accepted challenge and close it (under its lock). A table still open
        (the deadline passed) is closed: its deals played so far count."""
        for table_id in row.tables:
            if table_id is None:
                continue
            self.by_table.pop(table_id, None)
            table = self.service.tables.get(table_id)
            if table is not None and not table.closed:
                async with table.lock:
                    if not table.closed:
                        await self.service.close(table, ABANDONED)
        card = await self.card(row)
        if not await self.store.end_challenge(row.id, "finished", "accepted", card.totals):
            return
        ended = await self.get(row.id)
        if self.announce is not None:
            await self.announce(ended, card)

    async def _expire(self, row: ChallengeRow) -> None:
        """An offer nobody accepted before its deadline (under its lock)."""
        ended = await self.store.end_challenge(row.id, "expired", "offered")
        if ended and self.announce is not None:
            await self.announce(await self.get(row.id), None)

    # -- the deadline ---------------------------------------------------------------------

    async def sweep(self) -> int:
        """End what is due (offers past their deadline, challenges both have played or
        whose deadline passed) and ping who has not finished as a deadline nears. Runs
        periodically, and after a restart; returns how many challenges it ended."""
        ended = 0
        shards = self.service.shards  # another process looks after other servers' ones
        for row in await self.store.open_challenges():
            if shards is not None and not shards.owns(row.guild_id):
                continue
            try:
                ended += await self._sweep_one(row.id)
            except Exception:
                log.exception("challenge %s: could not look after its deadline", row.id)
        return ended

    async def _sweep_one(self, challenge_id: int) -> int:
        async with self._lock(challenge_id):
            row = await self.store.challenge(challenge_id)
            if row is None or not row.open:
                return 0
            now = self.clock()
            if row.status == "offered":
                if now < row.deadline:
                    return 0
                await self._expire(row)
                return 1
            done = await self.done(row)
            if all(done) or now >= row.deadline:
                await self._finish(row)
                return 1
            if row.deadline - now > REMIND_BEFORE or self.remind is None:
                return 0
            card = None
            for place in (CHALLENGER, CHALLENGED):
                if done[place] or row.reminded & (1 << place):
                    continue
                card = card or await self.card(row)
                if await self.remind(row, place, card):
                    await self.store.mark_challenge_reminded(row.id, place)
            return 0

    async def restore(self) -> None:
        """Take up the open challenges again after a restart (after the tables were
        restored): their open tables are followed, and what came due is ended."""
        for row in await self.store.open_challenges():
            for person, table_id in zip(row.people, row.tables, strict=True):
                table = self.service.tables.get(table_id) if table_id is not None else None
                if table is None:
                    continue
                self.by_table[table.id] = row.id
                if table.status == LOBBY:  # stopped between entering it and starting it
                    try:
                        await self.service.lobby.start(table.id, person)
                    except TableError:
                        log.warning("challenge %s: could not start table %s", row.id,
                                    table.id, exc_info=True)
        await self.sweep()
