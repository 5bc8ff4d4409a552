"""The lobby and the seats: opening a table, joining, computer players, starting,
leaving (and coming back), cancelling and abandoning."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from bot.ai import bot_name, player_kinds
from bot.games import Event, InvalidOptions, create
from bot.games.fairness import FairDeals, client_seed_from

from .model import (
    ABANDONED,
    CANCELLED,
    LOBBY,
    PLAYING,
    Person,
    SeatInfo,
    Table,
    TableError,
    TableSettings,
)

if TYPE_CHECKING:
    from .service import TableService


# What the lobby tells the observer (the table message then shows the seats again).
@dataclasses.dataclass(frozen=True, slots=True)
class SeatChanged(Event):
    kind: ClassVar[str] = "seat_change"


@dataclasses.dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    kind: ClassVar[str] = "match_start"


@dataclasses.dataclass(frozen=True, slots=True)
class AbandonVoted(Event):
    kind: ClassVar[str] = "abandon_vote"


class Lobby:
    """The seat and lobby operations of a TableService (`service.lobby`): it works on
    the service's tables, store, observer and turn flow."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def create(self, game_name: str, options: dict[str, Any], *, guild_id: int,
                     channel_id: int, creator: Person,
                     settings: TableSettings | None = None, seat_creator: bool = True) -> Table:
        """A new table in a channel, with its creator in the first seat (unless not
        `seat_creator`: a team match seats its tables itself)."""
        busy = self.service.in_channel(channel_id)
        if busy is not None:
            raise TableError(
                f"A {busy.game.TITLE} table is already open in this channel. Finish it or "
                "/abandon it first, or start yours in a thread with `thread: True`.")
        settings = settings or TableSettings()
        if not settings.deal_secret:  # daily deals bring the day's secret
            settings = dataclasses.replace(settings, deal_secret=FairDeals.new_secret())
        seed = self.service.new_seed()
        try:
            game = create(game_name, options=options, seed=seed)
        except InvalidOptions as exc:
            raise TableError(str(exc)) from None
        match_id = await self.service.store.create_match(
            game_name, dict(game.options), seed, guild_id, channel_id, creator.user_id,
            settings.to_dict())
        table = Table(id=match_id, game_name=game_name, options=dict(game.options), seed=seed,
                      guild_id=guild_id, channel_id=channel_id, creator_id=creator.user_id,
                      settings=settings, game=game, seats=[None] * game.SEATS,
                      server=await self.service.servers.get(guild_id))
        self.service.register(table)
        if seat_creator:
            await self._seat(table, 0, SeatInfo(name=creator.name, user_id=creator.user_id))
        return table

    async def join(self, table_id: int, person: Person, seat: int | None = None) -> int:
        """Take a seat (a chosen one, or the next free one); returns the seat."""
        table = self.service.get(table_id)
        async with table.lock:
            if table.status == PLAYING:
                return await self._take_back(table, person)
            current = table.seat_of(person.user_id)
            if seat is None:
                if current is not None:
                    raise TableError(f"You already sit at {table.game.seat_name(current)}.")
                free = table.free_seats() or [
                    s for s, info in enumerate(table.seats) if info is not None and info.is_bot]
                if not free:
                    raise TableError("The table is full.")
                seat = free[0]
            table.check_seat(seat)
            occupant = table.seats[seat]
            if occupant is not None and not occupant.is_bot:
                if occupant.user_id == person.user_id:
                    raise TableError(f"You already sit at {table.game.seat_name(seat)}.")
                raise TableError(f"{table.game.seat_name(seat)} is taken by {occupant.name}.")
            if current is not None:  # moving to another seat
                await self._unseat(table, current)
            await self._seat(table, seat, SeatInfo(name=person.name, user_id=person.user_id))
            self.service.observer.table_changed(table, ())
            return seat

    async def add_bot(self, table_id: int, user_id: int, seat: int | None = None,
                      kind: str | None = None) -> int:
        """Seat a computer player of `kind` (a name from bot.ai.player_kinds; None: the
        game's default, its strongest)."""
        table = self.service.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user_id)
            kinds = player_kinds(table.game_name)
            if kind is None:
                kind = kinds[0]
            elif kind not in kinds:
                raise TableError("There is no such computer player for this game.")
            free = table.free_seats()
            if seat is None:
                if not free:
                    raise TableError("Every seat is already filled.")
                seat = free[0]
            table.check_seat(seat)
            if table.seats[seat] is not None:
                raise TableError(f"{table.game.seat_name(seat)} is not empty.")
            await self._seat(table, seat, SeatInfo(name=bot_name(kind), bot_kind=kind))
            self.service.observer.table_changed(table, ())
            return seat

    async def leave(self, table_id: int, user_id: int) -> str:
        """Leave a seat: in the lobby it is freed; mid-match a computer player takes over."""
        table = self.service.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You are not sitting at this table.")
            info = table.seats[seat]
            assert info is not None
            if table.status == LOBBY:
                await self._unseat(table, seat)
                if not table.people():
                    await self.service.close(table, CANCELLED)
                    return "You left; nobody is seated any more, so the table is closed."
                self.service.observer.table_changed(table, ())
                return f"You left {table.game.seat_name(seat)}."
            kind = self.service.turns.player(table, seat).kind
            bot = SeatInfo(name=f"{bot_name(kind)} for {info.name}", bot_kind=kind,
                           left_user_id=user_id)
            await self._seat(table, seat, bot)
            line = (f"{info.name} left {table.game.seat_name(seat)}: a computer player "
                    "takes over until they come back.")
            table.recent.append(line)
            self.service.observer.table_changed(table, (SeatChanged(line, seat),))
            self.service.turns.kick(table)
            return ("You left; a computer player plays your seat. Press **Take my seat "
                    "back** on the table to return while the match lasts.")

    async def start(self, table_id: int, user_id: int, press_id: int = 0) -> None:
        """Start the match. `press_id` (the Start press's interaction id) and the seated
        people make the client seed, which fixes the fair deals with the committed secret."""
        table = self.service.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user_id)
            if not table.is_full():
                free = ", ".join(table.game.seat_name(s) for s in table.free_seats())
                raise TableError(f"Every seat must be filled first (empty: {free}). "
                                 "Invite people or press Add bot.")
            await self._fix_deals(table, press_id)
            now = self.service.clock.now()
            await self.service.store.set_status(table.id, PLAYING,
                                                at=self.service.clock.moment(now))
            table.status, table.since = PLAYING, now
            line = f"The {table.game.TITLE} match begins."
            table.recent.append(line)
            self.service.observer.table_changed(table, (MatchStarted(line, None),))
            self.service.turns.kick(table)

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False) -> None:
        table = self.service.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.creator_id and not can_manage:
                raise TableError("Only the person who opened this table can cancel it.")
            await self.service.close(table, CANCELLED)

    async def abandon(self, table_id: int, user_id: int, can_manage: bool = False) -> str:
        """Stop a table: its creator, Manage Messages, or a majority of the seated people."""
        table = self.service.get(table_id)
        async with table.lock:
            if table.status == LOBBY:
                if user_id != table.creator_id and not can_manage:
                    raise TableError("Only the person who opened this table can cancel it.")
                await self.service.close(table, CANCELLED)
                return "The table is cancelled."
            people = table.people()
            if user_id == table.creator_id or can_manage:
                await self.service.close(table, ABANDONED)
                return "The match is abandoned; it does not count for the leaderboards."
            if user_id not in people:
                raise TableError("Only the table's creator, a majority of its players, or "
                                 "members who can manage messages can abandon it.")
            table.abandon_votes.add(user_id)
            votes = len(table.abandon_votes & set(people))
            if votes * 2 > len(people):
                await self.service.close(table, ABANDONED)
                return "A majority voted to stop: the match is abandoned."
            needed = len(people) // 2 + 1
            line = f"{votes} of {needed} votes needed to abandon this match."
            table.recent.append(line)
            self.service.observer.table_changed(table, (AbandonVoted(line, None),))
            return f"Your vote counts: {line}"

    async def _fix_deals(self, table: Table, press_id: int) -> None:
        """Add the client seed to the committed secret and deal the match from them."""
        settings = table.settings
        if not settings.deal_secret:  # a lobby from before fair deals: commit now
            settings = dataclasses.replace(settings, deal_secret=FairDeals.new_secret())
        # Daily deals come with their day's client seed: everyone gets the same cards.
        client = settings.client_seed or client_seed_from(
            press_id, [info.user_id if info else None for info in table.seats])
        settings = dataclasses.replace(settings, client_seed=client)
        game = create(table.game_name, options=table.options,
                      seed=settings.deal_source(table.seed))
        await self.service.store.set_settings(table.id, settings.to_dict())
        table.settings, table.game = settings, game

    # -- seats ------------------------------------------------------------------------

    async def _seat(self, table: Table, seat: int, info: SeatInfo) -> None:
        await self.service.store.set_seat(table.id, seat, user_id=info.user_id,
                                  bot_kind=info.bot_kind, display_name=info.name,
                                  left_user_id=info.left_user_id)
        table.seats[seat] = info

    async def _unseat(self, table: Table, seat: int) -> None:
        await self.service.store.clear_seat(table.id, seat)
        table.seats[seat] = None

    async def _take_back(self, table: Table, person: Person) -> int:
        seat = table.left_seat_of(person.user_id)
        if seat is None:
            if table.seat_of(person.user_id) is not None:
                raise TableError("You are already playing at this table.")
            raise TableError("This match has started, so its seats are taken; you can "
                             "watch, and join the next table.")
        await self._seat(table, seat, SeatInfo(name=person.name, user_id=person.user_id))
        line = f"{person.name} is back at {table.game.seat_name(seat)}."
        table.recent.append(line)
        self.service.observer.table_changed(table, (SeatChanged(line, seat),))
        self.service.turns.kick(table)
        return seat

    @staticmethod
    def _require_lobby(table: Table) -> None:
        if table.status != LOBBY:
            raise TableError("The match has already started.")

    @staticmethod
    def _require_member(table: Table, user_id: int) -> None:
        if user_id != table.creator_id and table.seat_of(user_id) is None:
            raise TableError("Only people sitting at this table can do that.")
