"""A table's messages as they should look now: what the table holds, handed to bot/render
(which makes every line of text), read under the table's lock (`snapshot`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bot.ai import level_label
from bot.club.robot import ROBOT_GAMES
from bot.games.events import DealEnded
from bot.handrecord import HAND_RECORD_GAMES
from bot.render import ids
from bot.render import messages as render
from bot.render.components import TableButton, button
from bot.render.rules import options_text
from bot.render.seating import Seating
from bot.tables import LOBBY, Table
from bot.tables.explain import call_notes
from bot.tables.servers import offered_kinds

T = TypeVar("T")

CLOSED = {"finished": "The match is over. Start another with /play.",
          "abandoned": "This match was abandoned.",
          "cancelled": "This table was cancelled."}


def seating_of(table: Table) -> Seating:
    return Seating(
        seat_names=tuple(table.game.SEAT_NAMES),
        names=tuple(info.name if info else None for info in table.seats),
        user_ids=tuple(info.user_id if info else None for info in table.seats),
        bots=tuple(bool(info and info.is_bot) for info in table.seats),
        away=any(info is not None and info.left_user_id for info in table.seats),
        call_notes=call_notes(table))


def table_message(table: Table) -> render.Message:
    """The table's public message as it should look now."""
    game, settings = table.game, table.settings
    if table.status == LOBBY:
        return render.lobby(table.id, game.TITLE, [s.name if s else None for s in table.seats],
                            game.SEAT_NAMES, game.SIDES, game.SIDE_NAMES,
                            creator=seating_of(table).person(table.creator_id),
                            options_text=options_text(table.options, settings.slow_pace,
                                                      settings.turn_timeout),
                            can_start=table.is_full(),
                            bot_levels=[(kind, level_label(kind)) for kind
                                        in offered_kinds(table.server, table.game_name)])
    return render.public_table(table.id, table.game_name, game.TITLE, game.view(None),
                               seating_of(table), list(table.recent),
                               # whom it waits for: under human declares, the person
                               [table.decider(seat) for seat in table.waiting_on()],
                               closed_note=CLOSED.get(table.status, ""),
                               decisions=table.decisions)


def deal_end_message(table: Table, event: DealEnded) -> render.Message | None:
    """The post of a deal that just ended (its analysis is added by analysis.py)."""
    game = table.game
    buttons: list[TableButton] = []
    if table.game_name in HAND_RECORD_GAMES:  # the bridge games' hand record (cogs/records)
        buttons.append(button(ids.make("rec", table.id, event.deal_no), "Hand record"))
    if table.options.get(ROBOT_GAMES.get(table.game_name, "")):  # compared deal by deal:
        # what the computer players would have done (cogs/match)
        buttons.append(button(ids.make("robot", table.id, event.deal_no), "Robot's play"))
    return render.deal_end(table.id, table.game_name, game.TITLE, game.view(None),
                           seating_of(table), buttons)


def match_end_message(table: Table) -> render.Message | None:
    result = table.game.result()
    if result is None:
        return None
    return render.match_end(table.id, table.game.TITLE, result, table.game.scores(),
                            seating_of(table))


def hand_message(table: Table, seat: int, group: str | None = None,
                 note: str = "") -> render.Message:
    """The private hand of the person at `seat`: under human declares, declarer's hand
    (the computer partner's), whose cards and dummy's they play."""
    game = table.game
    acting = table.acting_seat(seat)
    legal = game.legal(acting) if table.status == "playing" else []
    return render.hand(table.id, table.game_name, game.TITLE, acting, game.view(acting),
                       legal, table.decisions[acting], seating_of(table), note=note,
                       group=group, you=seat, ask_again_at=table.ask_again_at.get(acting))


def decision_of(table: Table, seat: int) -> tuple[int, int]:
    """The seat a person at `seat` acts for now, and its decision number."""
    acting = table.acting_seat(seat)
    return acting, table.decisions[acting]


async def snapshot(table: Table, build: Callable[[], T]) -> T:
    """Build a message from stored state only. The service changes a table (engine, then
    store) while holding its lock, so what is built under the lock never shows a move
    that is not yet committed."""
    async with table.lock:
        return build()
