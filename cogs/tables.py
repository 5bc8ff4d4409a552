"""The adapter between Discord and the tables: every click on a TrickTable button arrives
here (`on_component`), is resolved by its custom id against the table service, and is
answered within Discord's 3 seconds. What the bot sends on its own (table messages,
posts, live hands) is the publisher's (cogs/publisher.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from bot.render import ids
from bot.render.components import table_custom_id
from bot.render.rules import rules_embed
from bot.tables import LOBBY, Person, StaleAction, Table, TableError, TableService

from .publisher import Publisher, snapshot, table_message

log = logging.getLogger(__name__)

VerbHandler = Callable[[discord.Interaction[Any], ids.ParsedId], Awaitable[None]]


class Tables(commands.Cog):
    """Every button: clicks in, answers out."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service: TableService = bot.tables
        self.publisher = Publisher(bot, self.service,
                                   getattr(bot.settings, "edit_interval", 1.0))
        # Buttons of other cogs (hand records, leaderboard pages): verb -> handler. A
        # handler gets the interaction and the parsed custom id, and must answer.
        self.verbs: dict[str, VerbHandler] = {}

    async def cog_load(self) -> None:
        self.service.observer = self.publisher

    async def cog_unload(self) -> None:
        self.publisher.stop()

    # -- private hands --------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction[Any], table: Table,
                        note: str = "", group: str | None = None,
                        in_place: bool = False) -> None:
        """Answer with the person's hand (ephemeral); edit in place when asked from one."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            text = ("You are not playing at this table, so you have no hand here; the "
                    "table message shows everything a spectator may see.")
            if note:
                text = f"{note}\n{text}"
            await interaction.response.send_message(text, ephemeral=True)
            return
        if table.status == LOBBY:
            await interaction.response.send_message(
                "The match has not started yet: your cards come when it does.", ephemeral=True)
            return
        publisher = self.publisher
        message = await snapshot(table,
                                 lambda: publisher.hand_message(table, seat, group, note))
        if in_place:
            await interaction.response.edit_message(**message.edit_kwargs())
            message_id = interaction.message.id if interaction.message else None
        else:
            answer = await interaction.response.send_message(ephemeral=True,
                                                             **message.send_kwargs())
            message_id = answer.message_id
        await publisher.hand_shown(interaction, table, seat, message_id, group, message)

    # -- every button ---------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click on a TrickTable button, routed here by its custom id (discord.py
        keeps no views for our buttons: see bot/render/components.py)."""
        custom_id = table_custom_id(interaction)
        if custom_id is not None and interaction.message is not None:
            await self.on_component(interaction, custom_id)

    async def on_component(self, interaction: discord.Interaction[Any],
                           custom_id: str) -> None:
        with self.publisher.answering():
            await self._on_component(interaction, custom_id)

    async def _on_component(self, interaction: discord.Interaction[Any],
                            custom_id: str) -> None:
        try:
            parsed = ids.parse(custom_id)
        except ids.BadCustomId:
            await self._refuse(interaction, "That button is not one of TrickTable's.")
            return
        in_place = bool(interaction.message and interaction.message.flags.ephemeral)
        try:
            await self._dispatch(interaction, parsed, in_place)
        except StaleAction as exc:
            table = self.service.tables.get(parsed.table_id)
            if table is not None and not table.closed and table.seat_of(interaction.user.id) \
                    is not None:
                await self.show_hand(interaction, table, note=f"{exc} Here is your hand now.",
                                     in_place=in_place)
            else:
                await self._refuse(interaction, str(exc))
        except ids.BadCustomId:
            await self._refuse(interaction, "That button is not one of TrickTable's.")
        except TableError as exc:
            table = self.service.tables.get(parsed.table_id)
            if in_place and table is not None and table.seat_of(interaction.user.id) \
                    is not None:
                await self.show_hand(interaction, table, note=str(exc), in_place=True)
            else:
                await self._refuse(interaction, str(exc))
        except Exception:
            log.exception("table %s: unexpected error handling %r for user %s",
                          parsed.table_id, custom_id, interaction.user.id)
            await self._refuse(interaction, "Something went wrong on our side; the table "
                                            "is unchanged. Please try again.")

    async def _refuse(self, interaction: discord.Interaction[Any], text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _dispatch(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId,
                        in_place: bool) -> None:
        verb = parsed.verb
        if verb == "rules":
            table = self.service.tables.get(parsed.table_id)
            game = table.game_name if table else None
            await interaction.response.send_message(embed=rules_embed(game), ephemeral=True)
            return
        handler = self.verbs.get(verb)
        if handler is not None:
            await handler(interaction, parsed)
            return
        table = self.service.get(parsed.table_id)
        person = Person(interaction.user.id, interaction.user.display_name)
        if verb == "act":
            click = ids.parse_action(parsed)
            await self.service.act(table.id, person.user_id, click.seat, click.decision,
                                   click.action)
            await self.show_hand(interaction, table, in_place=in_place)
        elif verb == "pick":
            seat, decision, group = self._pick_args(parsed)
            if table.seat_of(person.user_id) != seat:
                raise TableError("That is not your seat.")
            if decision != table.decisions[seat]:
                raise StaleAction("That has moved on.")
            await self.show_hand(interaction, table, group=None if group == "-" else group,
                                 in_place=in_place)
        elif verb == "hand":
            await self.show_hand(interaction, table, in_place=in_place)
        elif verb in ("join", "sit"):
            chosen = self._seat_arg(parsed) if verb == "sit" else None
            taken = await self.service.join(table.id, person, chosen)
            await self._lobby_answer(interaction, table,
                                     f"You sit at {table.game.seat_name(taken)}.")
        elif verb == "leave":
            text = await self.service.leave(table.id, person.user_id)
            await self._lobby_answer(interaction, table, text)
        elif verb == "addbot":
            seat = await self.service.add_bot(table.id, person.user_id)
            await self._lobby_answer(interaction, table,
                                     f"A computer player sits at {table.game.seat_name(seat)}.")
        elif verb == "start":
            await self.service.start(table.id, person.user_id, interaction.id)
            await self._lobby_answer(interaction, table, None)
        elif verb == "cancel":
            await self.service.cancel(table.id, person.user_id, _can_manage(interaction))
            await self._lobby_answer(interaction, table, None)
        else:
            raise TableError("That button is not one of TrickTable's.")

    async def _lobby_answer(self, interaction: discord.Interaction[Any], table: Table,
                            text: str | None) -> None:
        """Answer a table-message button by redrawing that message, or privately."""
        on_table_message = (interaction.message is not None
                            and interaction.message.id == table.message_id)
        if on_table_message:
            self.publisher.redrawing(table)
            current = await snapshot(table, lambda: table_message(table))
            await interaction.response.edit_message(**current.edit_kwargs())
            self.publisher.redrawn(table, current)
            if text and table.status != LOBBY:
                await interaction.followup.send(text, ephemeral=True)
        elif text:
            await interaction.response.send_message(text, ephemeral=True)
            self.publisher.mark(table)
        else:
            await interaction.response.defer()
            self.publisher.mark(table)

    @staticmethod
    def _seat_arg(parsed: ids.ParsedId) -> int:
        if len(parsed.args) != 1 or not parsed.args[0].isdigit():
            raise TableError("That button is not one of TrickTable's.")
        return int(parsed.args[0])

    @staticmethod
    def _pick_args(parsed: ids.ParsedId) -> tuple[int, int, str]:
        if len(parsed.args) != 3 or not parsed.args[0].isdigit() or \
                not parsed.args[1].isdigit() or len(parsed.args[2]) > 8:
            raise TableError("That button is not one of TrickTable's.")
        return int(parsed.args[0]), int(parsed.args[1]), parsed.args[2]


def _can_manage(interaction: discord.Interaction[Any]) -> bool:
    permissions = interaction.permissions
    return bool(permissions and permissions.manage_messages)


async def setup(bot: Any) -> None:
    await bot.add_cog(Tables(bot))

