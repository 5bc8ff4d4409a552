"""/match: team matches, and the Robot's play button under a duplicate board's end. Thin:
bot.club runs them, bot.render.teams and bot.render.robot draw them.

`/match teams` posts a lobby (Join team A / B, Leave, Start) in a text channel. Start opens
two private threads, one per table, with the same boards; the lobby message becomes the
running score card, and the final score card's picture is posted under it."""

from __future__ import annotations

import contextlib
import io
import logging
import time
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import bot_name, level_label, player_kinds
from bot.club.robot import ROBOT_GAMES, RobotDeal, robot_deal
from bot.club.teams import MAX_BOARDS, MIN_BOARDS, TeamMatch, TeamMatches, standings
from bot.games import game_class
from bot.games.fairness import deal_source
from bot.games.team_scoring import score_card
from bot.publishing import table_message
from bot.render import ids
from bot.render import teams as render
from bot.render.robot import robot_text
from bot.router import Subject
from bot.tables import Person
from bot.tables.model import ABANDONED, FINISHED
from cogs.utils.answers import refuse
from cogs.utils.permissions import missing_for_table, missing_text

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

Level = Literal["advanced", "basic"]
VERBS = ("tmjoin", "tmleave", "tmstart", "robot")
CARD_FRESH_AFTER = 50 * 60  # seconds: a score card is posted afresh before it is an hour old
ROBOT_THINK = 0.2  # seconds a decision of the robots' replay of a board may take


def _kind(level: str) -> str | None:
    for kind in player_kinds("bridge"):
        if level_label(kind).lower() == level:
            return kind
    return None


def _person(interaction: discord.Interaction[Any]) -> Person:
    return Person(interaction.user.id, interaction.user.display_name)


def _aged(message_id: int) -> bool:
    """Whether a message is near the hour after which Discord takes few edits of it."""
    created = discord.utils.snowflake_time(message_id).timestamp()
    return time.time() - created > CARD_FRESH_AFTER


def _names(match: TeamMatch) -> dict[str, list[str]]:
    return {team: [name for _, name in people] for team, people in match.members.items()}


class Match(commands.Cog):
    match_group = app_commands.Group(name="match", description="Team matches: two tables "
                                     "play the same bridge boards, scored in IMPs",
                                     guild_only=True)

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.teams = TeamMatches(bot.tables, bot.store)
        self.teams.publish = self.publish
        # (table, board) -> the robots' play: each board is played once, however often asked
        self._robots: dict[tuple[int, int], RobotDeal] = {}

    async def cog_load(self) -> None:
        self.bot.router.register_all(Subject.TEAM_MATCH, {
            "tmjoin": self.on_join, "tmleave": self.on_leave, "tmstart": self.on_start})
        self.bot.router.register("robot", self.on_robot, Subject.TABLE)

    async def cog_unload(self) -> None:
        self.bot.router.unregister(*VERBS)
        if self.teams in self.bot.tables.watchers:
            self.bot.tables.watchers.remove(self.teams)

    @commands.Cog.listener()
    async def on_tables_restored(self) -> None:
        try:
            await self.teams.restore()
        except Exception:
            log.exception("team matches: could not restore them")

    # -- commands ---------------------------------------------------------------------

    @match_group.command(name="teams", description="A team match: two tables play the "
                                                   "same boards, scored in IMPs")
    @app_commands.describe(boards=f"How many boards ({MIN_BOARDS} to {MAX_BOARDS})",
                           level="The computer players in the empty seats")
    async def teams_command(self, interaction: discord.Interaction[Any],
                            boards: app_commands.Range[int, MIN_BOARDS, MAX_BOARDS] = 8,
                            level: Level = "advanced") -> None:
        channel = interaction.channel
        guild_id = interaction.guild_id
        if guild_id is None or not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "A team match starts from a server's text channel "
                                      "(not a thread): its tables get threads of their own.")
            return
        kind = _kind(level)
        if kind is None:
            await refuse(interaction, f"`{level}` is not a level; choose advanced or basic.")
            return
        missing = missing_for_table(interaction.app_permissions, in_thread=False,
                                    new_thread=False, private_thread=True)
        if missing:  # said before the lobby opens, not when its tables cannot start
            await refuse(interaction, missing_text(missing))
            return
        match = await self.teams.open(guild_id, channel.id, _person(interaction), boards,
                                      kind)
        await interaction.response.send_message(**self._lobby(match).send_kwargs())
        with contextlib.suppress(discord.HTTPException):
            message = await interaction.original_response()
            await self.bot.store.set_team_message(match.id, message.id)
            match.message_id = message.id

    @match_group.command(name="leaderboard", description="This server's people by team "
                                                         "matches won")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await self.bot.store.finished_team_matches(interaction.guild_id)
        embed = render.leaderboard_embed([(s.user_id, s.played, s.won, s.tied, s.imps)
                                          for s in standings(rows)])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @match_group.command(name="history", description="This server's recent team matches")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await self.bot.store.finished_team_matches(interaction.guild_id, limit=10)
        lines = [(row.id, row.boards, [n for _, n in row.members.get("A", [])],
                  [n for _, n in row.members.get("B", [])], row.imps_a or 0, row.imps_b or 0)
                 for row in rows]
        await interaction.response.send_message(embed=render.history_embed(lines),
                                                ephemeral=True)

    def _lobby(self, match: TeamMatch) -> Any:
        return render.lobby(match.id, match.boards, _names(match), bot_name(match.bot_kind))

    # -- the lobby's buttons ----------------------------------------------------------

    async def on_join(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                      ) -> None:
        if len(parsed.args) != 1 or parsed.args[0] not in ("A", "B"):
            raise ids.BadCustomId(parsed.verb)
        await self.teams.join(parsed.subject, _person(interaction), parsed.args[0])
        match = self.teams.get(parsed.subject)
        await interaction.response.edit_message(**self._lobby(match).edit_kwargs())

    async def on_leave(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                       ) -> None:
        answer = await self.teams.leave(parsed.subject, interaction.user.id)
        match = self.teams.matches[parsed.subject]
        if match.status == "cancelled":
            await interaction.response.edit_message(content=answer, embed=None, view=None)
        else:
            await interaction.response.edit_message(**self._lobby(match).edit_kwargs())

    async def on_start(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                       ) -> None:
        channel = interaction.channel
        match = self.teams.check_start(parsed.subject, interaction.user.id)
        if not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "This team match's channel is not a text channel.")
            return
        await interaction.response.defer()
        threads: list[discord.Thread] = []
        try:
            for number in (1, 2):
                thread = await channel.create_thread(
                    name=f"Team match #{match.id} · table {number}",
                    type=discord.ChannelType.private_thread, invitable=False,
                    auto_archive_duration=1440)
                threads.append(thread)
        except discord.HTTPException:
            for thread in threads:
                with contextlib.suppress(discord.HTTPException):
                    await thread.delete()
            await interaction.followup.send("I could not open the tables' threads here: I "
                                            "need the Create Private Threads permission.",
                                            ephemeral=True)
            return
        try:
            tables = await self.teams.start(match.id, interaction.user.id, interaction.id,
                                            (threads[0].id, threads[1].id))
        except Exception:  # refused (answered by the router) or failed: no empty threads
            for thread in threads:
                with contextlib.suppress(discord.HTTPException):
                    await thread.delete()
            raise
        for thread, table in zip(threads, tables, strict=True):
            for user_id in table.people():
                with contextlib.suppress(discord.HTTPException):
                    await thread.add_user(discord.Object(user_id))
            message = await thread.send(**table_message(table).send_kwargs())
            await self.bot.tables.set_message(table, message.id)
        if interaction.message is not None and match.message_id != interaction.message.id:
            match.message_id = interaction.message.id
            await self.bot.store.set_team_message(match.id, interaction.message.id)
        await self._show_card(match, final=False, interaction=interaction)

    # -- what the robot would have done ----------------------------------------------

    async def on_robot(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                       ) -> None:
        """Privately: the computer players' auction and result on this board, beside the
        person's own result and the par. Played in the workers, once per board."""
        if len(parsed.args) != 1 or not parsed.args[0].isdigit():
            raise ids.BadCustomId(parsed.verb)
        deal_no, store = int(parsed.args[0]), self.bot.store
        match = await store.get_match(parsed.subject)
        if match is None or not match.options.get(ROBOT_GAMES.get(match.game, "")):
            await refuse(interaction, "The robot's play is shown for deals compared one by "
                                      "one: daily deals, team matches and challenges.")
            return
        seats = await store.seats(match.id)
        seat = next((s.seat for s in seats if interaction.user.id in (s.user_id,
                                                                      s.left_user_id)), None)
        if seat is None:
            await refuse(interaction, "This compares a player's own result with the "
                                      "computer players': you did not play at this table.")
            return
        own = next((d for d in await store.deals(match.id) if d.deal_no == deal_no), None)
        word = game_class(match.game).deal_word(match.options).capitalize()
        if own is None:
            await refuse(interaction, f"{word} {deal_no} is not over at this table yet.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        robot = self._robots.get((match.id, deal_no))
        if robot is None:
            actions = [(a.seat, a.action) for a in await store.actions(match.id)]
            source = deal_source(match.seed, match.settings.get("deals"))
            try:
                robot = await self.bot.tables.off_loop(robot_deal, match.game,
                                                       dict(match.options), source, actions,
                                                       deal_no, ROBOT_THINK)
            except LookupError:  # the log does not hold that deal's end
                await interaction.followup.send(f"{word} {deal_no} cannot be replayed from "
                                                "this table's log.", ephemeral=True)
                return
            self._robots[(match.id, deal_no)] = robot
        lines = own.detail.get("lines") or [{}]
        text = robot_text(match.game, match.id, deal_no, seat, str(lines[0].get("note", "")),
                          own.points, robot.dealer, robot.calls, robot.note, robot.points,
                          robot.par)
        await interaction.followup.send(text, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())

    # -- the score card ---------------------------------------------------------------

    async def publish(self, match: TeamMatch, final: bool) -> None:
        """The teams service's callback: a board was compared, or the match ended. One
        at a time per match, each showing the card as it is then, so an edit that was
        slow never leaves an older card on screen."""
        async with match.showing:
            await self._show_card(match, final)

    async def _move_card(self, match: TeamMatch, message: Any) -> None:
        """Post the card afresh at the bottom before Discord stops taking edits of it (a
        message past an hour old takes only a few); the old one points to the new."""
        channel = self.bot.get_partial_messageable(match.channel_id)
        posted = await channel.send(**message.send_kwargs())
        old, match.message_id = match.message_id, posted.id
        await self.bot.store.set_team_message(match.id, posted.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content=f"The score card moved down: {posted.jump_url}", embeds=[],
                    view=None)

    async def _show_card(self, match: TeamMatch, final: bool,
                         interaction: discord.Interaction[Any] | None = None) -> None:
        card = match.card or score_card(match.boards, {}, {})
        status = match.status if match.status in (FINISHED, ABANDONED) else "playing"
        message = render.card_message(match.boards, card, _names(match), match.threads or (),
                                      status)
        try:
            channel = self.bot.get_partial_messageable(match.channel_id)
            if interaction is not None:
                await interaction.edit_original_response(**message.edit_kwargs())
            elif match.message_id is not None and _aged(match.message_id):
                await self._move_card(match, message)
            elif match.message_id is not None:
                await channel.get_partial_message(match.message_id).edit(
                    **message.edit_kwargs())
            if final and status == FINISHED:
                png = await self.bot.tables.off_loop(render.card_png, match.boards, card,
                                                     _names(match))
                await channel.send(
                    content=render.final_line(card),
                    file=discord.File(io.BytesIO(png), filename=render.PICTURE_NAME,
                                      description=render.final_line(card)),
                    allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.exception("team match %s: could not show its score card", match.id)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Match(bot))
