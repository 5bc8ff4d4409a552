"""/leaderboard, /stats and /history, their buttons, and ratings at the end of a match.

Thin: the rating update is bot.ratings' finish hook (installed here on the table service,
so it runs inside the transaction that stores the result); reads come from
bot.store.ratings, messages from bot.render.leaderboard. The `table_finished` event posts
the rating changes line once the result is stored; `tables_restored` (a start) posts the
ones a stopped bot still owed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import bot_name
from bot.club.privacy import match_withheld, tables_hidden_from
from bot.games import GAMES, game_class
from bot.ratings.model import ESTABLISHED_GAMES
from bot.ratings.recorder import finish_hook
from bot.render import ids
from bot.render import leaderboard as render
from bot.render.messages import Message
from bot.router import Subject
from bot.store.ratings import RatingsReader
from cogs.utils.answers import out_of_range, refuse, unknown_choice
from cogs.utils.choices import game_choices

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

TREND = 5  # rating changes shown in /stats
MAX_PAGE = 10_000


class Leaderboard(commands.Cog):
    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.reader = RatingsReader(bot.store)
        self._posted: set[int] = set()  # matches whose rating post this process handled

    async def cog_load(self) -> None:
        hooks = self.bot.tables.finish_hooks
        if finish_hook not in hooks:
            hooks.append(finish_hook)
        router = self.bot.router
        router.register("lb", self.on_page, Subject.PAGE)  # the page; the game: an arg
        router.register("hist", self.on_history_page, Subject.PERSON)  # whose; page: arg
        router.register("sheet", self.on_sheet, Subject.TABLE)

    async def cog_unload(self) -> None:
        hooks = self.bot.tables.finish_hooks
        if finish_hook in hooks:
            hooks.remove(finish_hook)
        self.bot.router.unregister("lb", "hist", "sheet")

    # -- commands ---------------------------------------------------------------------------

    @app_commands.command(name="leaderboard",
                          description="This server's best players of a game")
    @app_commands.describe(game="Which game", page="Page number (from 1)")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str,
                          page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        problem = (unknown_choice("game", game, GAMES)
                   or out_of_range("page", page, 1, MAX_PAGE))
        if problem:
            await refuse(interaction, problem)
            return
        message = await self._board(_guild(interaction), game, page - 1)
        await interaction.response.send_message(**message.send_kwargs())

    @app_commands.command(name="stats", description="Games, results, rating and figures of "
                                                    "a member (you by default)")
    @app_commands.describe(member="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any],
                    member: discord.User | None = None) -> None:
        who = member or interaction.user
        ratings, changes, figures = await self.reader.player(_guild(interaction), who.id,
                                                             TREND)
        message = render.stats(who.display_name, ratings, changes, figures)
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    @app_commands.command(name="history",
                          description="Recent matches of a member (you by default)")
    @app_commands.describe(member="Whose matches (default: yours)", page="Page (from 1)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction[Any],
                      member: discord.User | None = None,
                      page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        problem = out_of_range("page", page, 1, MAX_PAGE)
        if problem:
            await refuse(interaction, problem)
            return
        who = member or interaction.user
        message = await self._history(_guild(interaction), who.id, who.display_name, page - 1,
                                      interaction.user.id)
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    # -- buttons (verbs of the Tables cog's custom ids) ---------------------------------------

    async def on_page(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                      ) -> None:
        if len(parsed.args) != 1 or parsed.args[0] not in GAMES:
            raise ids.BadCustomId(parsed.verb)
        page = min(parsed.subject, MAX_PAGE)
        message = await self._board(_guild(interaction), parsed.args[0], page)
        await interaction.response.edit_message(**message.edit_kwargs())

    async def on_history_page(self, interaction: discord.Interaction[Any],
                              parsed: ids.ParsedId) -> None:
        if len(parsed.args) != 1 or not parsed.args[0].isdigit():
            raise ids.BadCustomId(parsed.verb)
        user_id, page = parsed.subject, min(int(parsed.args[0]), MAX_PAGE)
        name = _name_of(interaction, user_id)
        message = await self._history(_guild(interaction), user_id, name, page,
                                      interaction.user.id)
        await interaction.response.edit_message(**message.edit_kwargs())

    async def on_sheet(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                       ) -> None:
        withheld = await match_withheld(self.bot.store, parsed.subject, interaction.user.id)
        if withheld is not None:
            await interaction.response.send_message(withheld, ephemeral=True)
            return
        sheet = await self.reader.score_sheet(_guild(interaction), parsed.subject)
        if sheet is None:
            await interaction.response.send_message(
                "That match is not a finished match of this server.", ephemeral=True)
            return
        message = render.score_sheet(sheet)
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    # -- the end of a match -------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_table_finished(self, table: Any) -> None:
        """Post the rating changes under the match's end (after the table's own messages)."""
        self._posted.add(table.id)
        seats = [(info.name, info.user_id, info.bot_kind) for info in table.seats
                 if info is not None]
        await self._after_table_messages(table.id)
        await self._post_changes(table.id, table.game.TITLE, table.channel_id, seats)

    @commands.Cog.listener()
    async def on_tables_restored(self) -> None:
        """Post what a bot stopped between storing a match's result and posting its
        rating changes still owed (the store keeps the debt with the result)."""
        try:
            owed = await self.bot.store.owed_rating_posts(self.bot.tables.shards)
        except Exception:
            log.exception("could not read the rating posts still owed")
            return
        for post in owed:
            if post.match_id in self._posted:  # finished in this process: posted there
                continue
            self._posted.add(post.match_id)
            try:
                seats = [(s.display_name, s.user_id, s.bot_kind)
                         for s in await self.bot.store.seats(post.match_id)]
            except Exception:
                log.exception("table %s: could not read its seats", post.match_id)
                continue
            await self._post_changes(post.match_id, game_class(post.game).TITLE,
                                     post.channel_id, seats)

    async def _post_changes(self, match_id: int, title: str, channel_id: int,
                            seats: Sequence[tuple[str, int | None, str | None]]) -> None:
        """Post a finished match's rating-change line, then forget the debt (kept if the
        post failed for a reason that may pass, so the next start tries again)."""
        try:
            changes = await self.reader.match_changes(match_id)
            names: dict[str, str] = {}
            for name, user_id, bot_kind in seats:
                key = f"u:{user_id}" if user_id is not None else f"b:{bot_kind}"
                names.setdefault(key, name if user_id is not None
                                 else bot_name(bot_kind or "?"))
            message = render.rating_changes(title, names, changes)
            if message is not None:
                channel = self.bot.get_partial_messageable(channel_id)
                await channel.send(**message.send_kwargs())
        except (discord.NotFound, discord.Forbidden):
            log.warning("table %s: its channel is gone; rating changes not posted", match_id)
        except Exception:
            log.exception("table %s: could not post the rating changes", match_id)
            return
        try:
            await self.bot.store.rating_post_sent(match_id)
        except Exception:
            log.exception("table %s: could not mark its rating post as sent", match_id)

    async def _after_table_messages(self, table_id: int) -> None:
        # The publisher posts the end of the match from its own task; let it go first.
        await self.bot.publisher.settled(table_id, timeout=5)

    # -- helpers ------------------------------------------------------------------------------

    async def _board(self, guild_id: int, game: str, page: int) -> Message:
        board = await self.reader.board(guild_id, game, page, render.PER_PAGE,
                                        ESTABLISHED_GAMES)
        if page > 0 and not board.rows and board.total:
            last = (board.total - 1) // render.PER_PAGE
            return await self._board(guild_id, game, last)
        bots = await self.reader.bots(guild_id, game)
        names = {r.player: bot_name(r.player[2:]) for r in bots}
        return render.leaderboard(game, page, board, bots, ESTABLISHED_GAMES, names)

    async def _history(self, guild_id: int, user_id: int, name: str, page: int,
                       viewer_id: int) -> Message:
        entries, more = await self.reader.history(guild_id, user_id, page,
                                                  render.HISTORY_PER_PAGE)
        # A challenge's table is not listed to others while the challenge is played.
        hidden = await tables_hidden_from(self.bot.store, viewer_id)
        entries = [entry for entry in entries if entry.match_id not in hidden]
        return render.history(name, user_id, page, entries, more)


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def _name_of(interaction: discord.Interaction[Any], user_id: int) -> str:
    if interaction.user.id == user_id:
        return interaction.user.display_name
    guild = interaction.guild
    member = guild.get_member(user_id) if guild is not None else None
    if member is not None:
        return member.display_name
    # Not cached (no members intent): the page being turned already names them.
    embeds = interaction.message.embeds if interaction.message else []
    title = (embeds[0].title or "") if embeds else ""
    prefix = "Match history of "
    return title[len(prefix):] if title.startswith(prefix) else "this member"


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Leaderboard(bot))
