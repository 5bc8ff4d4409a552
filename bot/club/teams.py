"""Team matches: two Contract Bridge tables, each in its own thread, play the same duplicate
boards. Team A sits North-South at the first table and East-West at the second; empty
seats take computer players. A team match is a record linking two ordinary tables (their
play, storage, restart and abandoning are the tables'); its score card is computed from the
two tables' stored deal results, so a restart finds it as it was.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from bot.ai import player_kinds
from bot.games import Event
from bot.games.events import DealEnded
from bot.games.fairness import FairDeals, client_seed_from
from bot.games.team_scoring import ScoreCard, TableBoard, score_card
from bot.store import Store
from bot.store.teams import TeamMatchRow
from bot.tables import Person, Table, TableError, TableService, TableSettings
from bot.tables.model import ABANDONED, CANCELLED, FINISHED, LOBBY, PLAYING

from .followups import Followups

log = logging.getLogger(__name__)

MIN_BOARDS: Final = 4
MAX_BOARDS: Final = 32
TEAM_SIZE: Final = 4
# A team's places in the order people fill them, (table 0 or 1, seat): the first two
# people of a team sit at different tables, so each table has someone of each team.
PLACES: Final[dict[str, tuple[tuple[int, int], ...]]] = {
    "A": ((0, 0), (1, 1), (0, 2), (1, 3)),  # North-South at the first table
    "B": ((0, 1), (1, 0), (0, 3), (1, 2)),  # East-West at the first table
}
# Duplicate boards as at a tournament: no undo between two rooms.
TABLE_OPTIONS: Final = {"undo": False}

Members = dict[str, list[tuple[int, str]]]


@dataclass(eq=False)
class TeamMatch:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    boards: int
    bot_kind: str
    status: str
    members: Members
    tables: tuple[int, int] | None = None
    threads: tuple[int, int] | None = None  # each table's thread
    message_id: int | None = None
    card: ScoreCard | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    showing: asyncio.Lock = field(default_factory=asyncio.Lock)  # the card's edits, in turn

    @classmethod
    def from_row(cls, row: TeamMatchRow) -> TeamMatch:
        tables = ((row.first_table, row.second_table)
                  if row.first_table is not None and row.second_table is not None else None)
        return cls(row.id, row.guild_id, row.channel_id, row.creator_id, row.boards,
                   row.bot_kind, row.status, row.members, tables, message_id=row.message_id)

    def team_of(self, user_id: int) -> str | None:
        for team, people in self.members.items():
            if any(user == user_id for user, _ in people):
                return team
        return None

    def seating(self) -> list[list[tuple[int, str] | None]]:
        """Who sits where at each table (None: a computer player)."""
        out: list[list[tuple[int, str] | None]] = [[None] * 4, [None] * 4]
        for team, people in self.members.items():
            for person, (table, seat) in zip(people, PLACES[team], strict=False):
                out[table][seat] = person
        return out

    def people_at(self, index: int) -> list[int]:
        return [person[0] for person in self.seating()[index] if person is not None]


Publish = Callable[[TeamMatch, bool], Awaitable[None]]
"""Shows a team match's score card (and, when the flag says so, its end)."""


class TeamMatches:
    """The open team matches of this bot, and the moves of their lobbies."""

    def __init__(self, service: TableService, store: Store) -> None:
        self.service = service
        self.store = store
        self.matches: dict[int, TeamMatch] = {}
        self.by_table: dict[int, int] = {}
        self.publish: Publish | None = None
        self._followups = Followups("team match")
        service.watchers.append(self)

    # -- the lobby ---------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> TeamMatch | None:
        for match in self.matches.values():
            if match.channel_id == channel_id and match.status in (LOBBY, PLAYING):
                return match
        return None

    def of_table(self, table_id: int) -> TeamMatch | None:
        match_id = self.by_table.get(table_id)
        return self.matches.get(match_id) if match_id is not None else None

    def get(self, match_id: int) -> TeamMatch:
        match = self.matches.get(match_id)
        if match is None or match.status not in (LOBBY, PLAYING):
            raise TableError("That team match is over; start a new one with /match teams.")
        return match

    async def open(self, guild_id: int, channel_id: int, creator: Person, boards: int,
                   bot_kind: str | None = None) -> TeamMatch:
        """A team match's lobby in a channel, with its creator in team A."""
        if not MIN_BOARDS <= boards <= MAX_BOARDS:
            raise TableError(f"A team match is {MIN_BOARDS} to {MAX_BOARDS} boards.")
        kinds = player_kinds("bridge")
        kind = bot_kind or kinds[0]
        if kind not in kinds:
            raise TableError(f"There is no computer player {kind!r}; choose one of "
                             f"{', '.join(kinds)}.")
        busy = self.in_channel(channel_id)
        if busy is not None:
            raise TableError("A team match is already open in this channel: play or "
                             "/abandon it first, or start yours in another channel.")
        members: Members = {"A": [(creator.user_id, creator.name)], "B": []}
        match_id = await self.store.create_team_match(guild_id, channel_id,
                                                      creator.user_id, boards, kind, members)
        match = TeamMatch(match_id, guild_id, channel_id, creator.user_id, boards, kind,
                          LOBBY, members)
        self.matches[match_id] = match
        return match

    async def join(self, match_id: int, person: Person, team: str) -> str:
        match = self.get(match_id)
        async with match.lock:
            self._require_lobby(match)
            if team not in match.members:
                raise TableError("There is no such team.")
            current = match.team_of(person.user_id)
            if current == team:
                raise TableError(f"You are already in team {team}.")
            if len(match.members[team]) >= TEAM_SIZE:
                raise TableError(f"Team {team} is full ({TEAM_SIZE} players): join the "
                                 "other team, or wait for the next match.")
            members = {t: [p for p in people if p[0] != person.user_id]
                       for t, people in match.members.items()}
            members[team].append((person.user_id, person.name))
            await self.store.set_team_members(match.id, members)
            match.members = members
            moved = f" (from team {current})" if current else ""
            return f"You are in team {team}{moved}."

    async def leave(self, match_id: int, user_id: int) -> str:
        match = self.get(match_id)
        async with match.lock:
            self._require_lobby(match)
            team = match.team_of(user_id)
            if team is None:
                raise TableError("You are not in this team match.")
            members = {t: [p for p in people if p[0] != user_id]
                       for t, people in match.members.items()}
            if not any(members.values()):
                await self.store.end_team_match(match.id, CANCELLED)
                match.status = CANCELLED
                return "You left; nobody is in the match any more, so it is cancelled."
            await self.store.set_team_members(match.id, members)
            match.members = members
            return f"You left team {team}."

    def check_start(self, match_id: int, user_id: int) -> TeamMatch:
        """Refuse a Start that cannot be (the cog asks before it opens the threads)."""
        match = self.get(match_id)
        self._require_lobby(match)
        if user_id != match.creator_id and match.team_of(user_id) is None:
            raise TableError("Only the match's creator or its players can start it.")
        if not match.members["A"] or not match.members["B"]:
            raise TableError("Each team needs at least one person: someone must press "
                             "Join team B (or A).")
        return match

    async def start(self, match_id: int, user_id: int, press_id: int,
                    threads: tuple[int, int]) -> tuple[Table, Table]:
        """Open both tables, in `threads`, with the same fair deals, and start them."""
        match = self.check_start(match_id, user_id)
        async with match.lock:
            self._require_lobby(match)
            seating = match.seating()
            everyone = [p[0] if p else None for table in seating for p in table]
            settings = TableSettings(deal_secret=FairDeals.new_secret(),
                                     client_seed=client_seed_from(press_id, everyone))
            creator = Person(match.creator_id, "")
            tables: list[Table] = []
            for thread_id in threads:
                tables.append(await self.service.lobby.create(
                    "bridge", {"boards": match.boards, **TABLE_OPTIONS},
                    guild_id=match.guild_id, channel_id=thread_id, creator=creator,
                    settings=settings, seat_creator=False))
            linked = (tables[0].id, tables[1].id)
            match.threads = threads
            await self.store.start_team_match(match.id, *linked)
            match.tables, match.status = linked, PLAYING
            for table_id in linked:
                self.by_table[table_id] = match.id
            for table, places in zip(tables, seating, strict=True):
                for seat, person in enumerate(places):
                    if person is None:
                        await self.service.lobby.add_bot(table.id, match.creator_id, seat,
                                                         match.bot_kind)
                    else:
                        await self.service.lobby.join(table.id, Person(*person), seat)
                await self.service.lobby.start(table.id, match.creator_id, press_id)
            match.card = score_card(match.boards, {}, {})
            return tables[0], tables[1]

    @staticmethod
    def _require_lobby(match: TeamMatch) -> None:
        if match.status != LOBBY:
            raise TableError("This team match has already started.")

    # -- following the tables --------------------------------------------------------

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        if table.id in self.by_table and any(isinstance(e, DealEnded) for e in events):
            self._followups.start(self.refresh(self.by_table[table.id]))

    def table_closed(self, table: Table) -> None:
        match_id = self.by_table.get(table.id)
        if match_id is None:
            return
        if table.status == FINISHED:
            self._followups.start(self.refresh(match_id))
        else:  # one table abandoned (today's rules): the match stops
            self._followups.start(self.abandon(match_id))

    def busy(self) -> bool:
        """Whether a score card is being brought up to date (tests wait for it)."""
        return self._followups.busy()

    async def results(self, match: TeamMatch) -> ScoreCard:
        """The score card from the two tables' stored results."""
        assert match.tables is not None
        first = await self._boards(match.tables[0])
        second = await self._boards(match.tables[1])
        return score_card(match.boards, first, second)

    async def _boards(self, table_id: int) -> dict[int, TableBoard]:
        out = {}
        for deal in await self.store.deals(table_id):
            lines = deal.detail.get("lines") or [{}]
            out[deal.deal_no] = TableBoard(int(deal.points[0]) - int(deal.points[1]),
                                           str(lines[0].get("note", "")))
        return out

    async def refresh(self, match_id: int) -> None:
        """Compare what both tables have played; end the match once both are over."""
        match = self.matches.get(match_id)
        if match is None or match.tables is None:
            return
        async with match.lock:
            if match.status != PLAYING:
                return
            card = await self.results(match)
            over = card.complete and await self._tables_finished(match.tables)
            changed = card != match.card
            match.card = card
            if over and await self.store.end_team_match(match.id, FINISHED, card.imps):
                match.status = FINISHED
                self._forget(match)
            elif not changed:
                return
        await self._publish(match, match.status == FINISHED)

    async def _publish(self, match: TeamMatch, final: bool) -> None:
        """Show the score card; the last one of an ended match is noted as posted."""
        if self.publish is not None:
            await self.publish(match, final)
            if final:
                await self.store.team_card_posted(match.id)

    async def _tables_finished(self, tables: tuple[int, int]) -> bool:
        for table_id in tables:
            row = await self.store.get_match(table_id)
            if row is None or row.status != FINISHED:
                return False
        return True

    async def abandon(self, match_id: int) -> None:
        """Stop the match when one of its tables was abandoned: the other closes too."""
        match = self.matches.get(match_id)
        if match is None or match.status != PLAYING:
            return
        async with match.lock:
            if match.status != PLAYING or match.tables is None:
                return
            await self.store.end_team_match(match.id, ABANDONED)
            match.status = ABANDONED
            for table_id in match.tables:
                table = self.service.tables.get(table_id)
                if table is not None and not table.closed:
                    async with table.lock:
                        if not table.closed:
                            await self.service.close(table, ABANDONED)
            self._forget(match)
        await self._publish(match, True)

    def _forget(self, match: TeamMatch) -> None:
        if match.tables is not None:
            for table_id in match.tables:
                self.by_table.pop(table_id, None)

    # -- restart ------------------------------------------------------------------------

    async def restore(self) -> list[TeamMatch]:
        """Take up every open team match again (after the tables were restored): its
        score card is brought up to date, and a match whose tables are over ends."""
        restored = []
        for row in await self.store.open_team_matches():
            match = TeamMatch.from_row(row)
            self.matches[match.id] = match
            restored.append(match)
            if match.status != PLAYING or match.tables is None:
                continue
            for table_id in match.tables:
                self.by_table[table_id] = match.id
            statuses = [(await self.store.get_match(t)) for t in match.tables]
            match.threads = await self._threads(match)
            if any(row is None or row.status in (ABANDONED, CANCELLED, LOBBY)
                   for row in statuses):
                # A table abandoned, or never started (the bot stopped while opening them).
                await self.abandon(match.id)
                continue
            await self.refresh(match.id)
        for row in await self.store.unposted_team_matches():
            # Ended, and the bot stopped before its last score card went out: post it now.
            match = TeamMatch.from_row(row)
            if match.status == FINISHED:
                match.card = await self.results(match)
            match.threads = await self._threads(match)
            await self._publish(match, True)
        return restored

    async def _threads(self, match: TeamMatch) -> tuple[int, int] | None:
        if match.tables is None:
            return None
        rows = [await self.store.get_match(table_id) for table_id in match.tables]
        if rows[0] is None or rows[1] is None:
            return None
        return (rows[0].thread_id or rows[0].channel_id,
                rows[1].thread_id or rows[1].channel_id)


# -- the leaderboard ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A person's record in a server's finished team matches."""

    user_id: int
    name: str
    played: int
    won: int
    tied: int
    imps: int  # IMPs won minus IMPs lost, over their matches


def standings(rows: Sequence[TeamMatchRow]) -> list[TeamStanding]:
    """Every person of the finished matches `rows`: most won first, then the IMP balance."""
    record: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for row in rows:
        if row.imps_a is None or row.imps_b is None:
            continue
        for team, people in row.members.items():
            mine, theirs = ((row.imps_a, row.imps_b) if team == "A"
                            else (row.imps_b, row.imps_a))
            for user_id, name in people:
                names.setdefault(user_id, name)  # rows come newest first
                figures = record.setdefault(user_id, [0, 0, 0, 0])
                figures[0] += 1
                figures[1] += mine > theirs
                figures[2] += mine == theirs
                figures[3] += mine - theirs
    out = [TeamStanding(user, names[user], *figures) for user, figures in record.items()]
    out.sort(key=lambda s: (-s.won, -s.imps, s.name))
    return out
