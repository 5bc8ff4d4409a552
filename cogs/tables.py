"""The adapter between Discord and the tables: every component interaction arrives here
(`on_interaction`) and is handed to the bot's click router (bot/router.py, where every cog
registers its verbs), which answers it within Discord's 3 seconds, a refusal included.
The table service owns the checks (seat, turn, stale button); this cog turns a click into
a service call and its answer into a message, and says how a table's button is refused
(`refused`). What the bot sends on its own (table messages, posts, live hands) is the
bot's publisher (bot/publishing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.publishing import Publisher, snapshot
from bot.publishing.messages import seating_of
from bot.publishing.refusals import Refusal, classify
from bot.render import ids
from bot.render import messages as render
from bot.render.fairness import fair_deals_field
from bot.render.rules import rules_embed
from bot.router import ClickRouter, Handler, Subject, release
from bot.tables import LOBBY, Person, StaleAction, Table, TableError, TableService
from bot.tables.requests import takes_long
from bot.tables.servers import computer_kind

from .utils.answers import refuse

if TYPE_CHECKING:
    from bot.app import TrickTableBot

Interaction = discord.Interaction[Any]


class Tables(commands.Cog):
    """Every button: clicks in, answers out."""

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.service: TableService = bot.tables
        self.router: ClickRouter = bot.router
        self.publisher: Publisher = bot.publisher
        self._verbs: dict[str, Handler] = {
            "act": self.on_act, "pick": self.on_pick, "hand": self.on_hand,
            "rules": self.on_rules, "last": self.on_last_trick, "tricks": self.on_tricks,
            "join": self.on_join, "sit": self.on_sit,
            "leave": self.on_leave, "addbot": self.on_add_bot, "start": self.on_start,
            "cancel": self.on_cancel,
        }

    async def cog_load(self) -> None:
        self.router.register_all(Subject.TABLE, self._verbs, self.refused)

    async def cog_unload(self) -> None:
        self.router.unregister(*self._verbs)

    # -- private hands --------------------------------------------------------------------

    async def show_hand(self, interaction: Interaction, table: Table, note: str = "",
                        group: str | None = None, in_place: bool = False,
                        built: tuple[render.Message, int] | None = None) -> None:
        """Answer with the person's hand (ephemeral); edit in place when asked from one.
        `built`: that hand, already built as the click's action left the table, and the
        table's sequence number it shows."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            text = ("You are not playing at this table, so you have no hand here; the "
                    "table message shows everything a spectator may see.")
            if note:
                text = f"{note}\n{text}"
            await refuse(interaction, text)
            return
        if table.status == LOBBY:
            await refuse(interaction, "The match has not started yet: your cards come when "
                                      "it does.")
            return
        publisher = self.publisher

        def build() -> tuple[render.Message, int]:
            return publisher.hand_message(table, seat, group, note), table.seq

        message, seq = built if built is not None else await snapshot(table, build)
        try:
            message_id = await self._answer_with(interaction, message, in_place)
        except discord.HTTPException as error:
            if classify(error) is not Refusal.CARDS:
                raise
            await publisher.cards_refused()  # then the same hand again, its cards as text
            message, seq = await snapshot(table, build)
            message_id = await self._answer_with(interaction, message, in_place)
        await publisher.hand_shown(interaction, table, seat, message_id, group, message, seq)

    @staticmethod
    async def _answer_with(interaction: Interaction, message: Any,
                           in_place: bool) -> int | None:
        """Answer the click with a hand message; the id of the message that shows it. A
        click deferred first (a claim) is finished by editing what the defer showed."""
        if interaction.response.is_done():
            shown = await interaction.edit_original_response(**message.edit_kwargs())
            return shown.id
        if in_place:
            await interaction.response.edit_message(**message.edit_kwargs())
            return interaction.message.id if interaction.message else None
        answer = await interaction.response.send_message(ephemeral=True,
                                                         **message.send_kwargs())
        return answer.message_id

    # -- every component ------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Every click on a component: ours are routed by custom id (discord.py keeps no
        views for them, see bot/render/components.py); anything else still gets an
        answer, so Discord never shows "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        try:
            with self.publisher.answering():
                await self.router.click(interaction, custom_id if isinstance(custom_id, str)
                                        else "")
        finally:
            release(interaction)  # answered: nothing else of the bot holds it

    async def refused(self, interaction: Interaction, parsed: ids.ParsedId,
                      error: TableError) -> None:
        """How a table's button is refused: a stale button, or a refusal on a private
        hand, shows the person's hand as it is now with the reason; otherwise the reason
        alone, privately."""
        table = self.service.tables.get(parsed.subject)
        if table is not None and table.seat_of(interaction.user.id) is not None:
            if isinstance(error, StaleAction) and not table.closed:
                await self.show_hand(interaction, table,
                                     note=f"{error} Here is your hand now.",
                                     in_place=_in_place(interaction))
                return
            if not isinstance(error, StaleAction) and _in_place(interaction):
                await self.show_hand(interaction, table, note=str(error), in_place=True)
                return
        await refuse(interaction, str(error))

    # -- the verbs ------------------------------------------------------------------------

    async def on_rules(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        table = self.service.tables.get(parsed.subject)
        embed = rules_embed(table.game_name, table.options) if table else rules_embed(None)
        if table is not None and table.commitment is not None:  # the table's fair deals
            name, value, inline = fair_deals_field(table.game_name, table.commitment,
                                                   table.settings.client_seed,
                                                   table.game.revealed_seed())
            embed.add_field(name=name, value=value, inline=inline)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def on_last_trick(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        """The previous trick, privately (the public table shows only the current one)."""
        await self._tricks_answer(interaction, parsed, render.last_trick)

    async def on_tricks(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        """Every complete trick of the deal so far, privately."""
        await self._tricks_answer(interaction, parsed, render.trick_history)

    async def _tricks_answer(self, interaction: Interaction, parsed: ids.ParsedId,
                             build: Callable[..., render.Message]) -> None:
        """A private answer built from the spectator's view: played cards are public."""
        table = await self.service.fetch(parsed.subject)
        message = await snapshot(table, lambda: build(
            table.id, table.game_name, table.game.TITLE, table.game.view(None),
            seating_of(table)))
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    async def on_act(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        click = ids.parse_action(parsed)
        table = await self.service.fetch(parsed.subject)
        user_id, publisher = interaction.user.id, self.publisher
        if takes_long(click.action):  # a claim's double-dummy check waits for a worker
            await _defer(interaction)
            publisher.answered()  # the table updates need not wait for the check

        def hand(acted: Table) -> tuple[render.Message, int] | None:
            seat = acted.seat_of(user_id)
            if seat is None:
                return None
            return publisher.hand_message(acted, seat), acted.seq

        # The answer is built as the move left the table, before the computer players'
        # replies and the table's redraw get the table (they wait for its lock).
        message = await self.service.act_and_show(table.id, user_id, click.seat,
                                                  click.decision, click.action, hand)
        await self.show_hand(interaction, table, in_place=_in_place(interaction),
                             built=message)

    async def on_pick(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        """A group of choices (a suit of cards, a bid level) opened on the hand."""
        seat, decision, group = _pick_args(parsed)
        await self.service.fetch(parsed.subject)
        table = self.service.current(parsed.subject, interaction.user.id, seat, decision)
        await self.show_hand(interaction, table, group=None if group == "-" else group,
                             in_place=_in_place(interaction))

    async def on_hand(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        table = await self.service.fetch(parsed.subject)
        await self.show_hand(interaction, table, in_place=_in_place(interaction))

    async def on_join(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        await self._take_seat(interaction, parsed, None)

    async def on_sit(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        await self._take_seat(interaction, parsed, _seat_arg(parsed))

    async def _take_seat(self, interaction: Interaction, parsed: ids.ParsedId,
                         chosen: int | None) -> None:
        table = await self.service.fetch(parsed.subject)
        taken = await self.service.lobby.join(table.id, _person(interaction), chosen)
        await self._lobby_answer(interaction, table,
                                 f"You sit at {table.game.seat_name(taken)}.")

    async def on_leave(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        table = await self.service.fetch(parsed.subject)
        text = await self.service.lobby.leave(table.id, interaction.user.id)
        await self._lobby_answer(interaction, table, text)

    async def on_add_bot(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        if len(parsed.args) > 1:
            raise ids.BadCustomId(parsed.verb)
        kind = parsed.args[0] if parsed.args else None  # None: the default level
        table = await self.service.fetch(parsed.subject)
        kind = computer_kind(await self.bot.server_rules.get(table.guild_id), table.game_name,
                             kind)  # refused if the server's admins turned them off
        seat = await self.service.lobby.add_bot(table.id, interaction.user.id, kind=kind)
        info = table.seats[seat]
        await self._lobby_answer(interaction, table,
                                 f"{info.name if info else 'A computer player'} sits at "
                                 f"{table.game.seat_name(seat)}.")

    async def on_start(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        table = await self.service.fetch(parsed.subject)
        await self.service.lobby.start(table.id, interaction.user.id, interaction.id)
        await self._lobby_answer(interaction, table, None)

    async def on_cancel(self, interaction: Interaction, parsed: ids.ParsedId) -> None:
        table = await self.service.fetch(parsed.subject)
        await self.service.lobby.cancel(table.id, interaction.user.id,
                                        _can_manage(interaction))
        await self._lobby_answer(interaction, table, None)

    async def _lobby_answer(self, interaction: Interaction, table: Table,
                            text: str | None) -> None:
        """Answer a table-message button by redrawing that message, or privately."""
        on_table_message = (interaction.message is not None
                            and interaction.message.id == table.message_id)
        if on_table_message:
            async def redraw(current: render.Message) -> None:
                await interaction.response.edit_message(**current.edit_kwargs())

            await self.publisher.redraw(table, redraw)
            if text and table.status != LOBBY:
                await interaction.followup.send(text, ephemeral=True)
        elif text:
            await interaction.response.send_message(text, ephemeral=True)
            self.publisher.mark(table)
        else:
            await interaction.response.defer()
            self.publisher.mark(table)


async def _defer(interaction: Interaction) -> None:
    """Answer now, within Discord's 3 s, and finish later with an edit: in place on a
    private hand (its buttons wait), else with a private "thinking" message."""
    if _in_place(interaction):
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


def _in_place(interaction: Interaction) -> bool:
    """Whether the click came from a private hand (answered by editing that hand)."""
    return bool(interaction.message and interaction.message.flags.ephemeral)


def _person(interaction: Interaction) -> Person:
    return Person(interaction.user.id, interaction.user.display_name)


def _seat_arg(parsed: ids.ParsedId) -> int:
    if len(parsed.args) != 1 or not parsed.args[0].isdigit():
        raise ids.BadCustomId(parsed.verb)
    return int(parsed.args[0])


def _pick_args(parsed: ids.ParsedId) -> tuple[int, int, str]:
    if len(parsed.args) != 3 or not parsed.args[0].isdigit() or \
            not parsed.args[1].isdigit() or len(parsed.args[2]) > 8:
        raise ids.BadCustomId(parsed.verb)
    return int(parsed.args[0]), int(parsed.args[1]), parsed.args[2]


def _can_manage(interaction: Interaction) -> bool:
    permissions = interaction.permissions
    return bool(permissions and permissions.manage_messages)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Tables(bot))
