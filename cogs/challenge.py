"""/challenge: challenge a member to a game; both play the same deals, each in their own
private thread at their own pace, compared deal by deal. Thin: bot.club.challenges runs
them, bot.render.challenges draws them.

`/challenge new` posts the offer in the channel (Accept / Decline for the challenged
person, Cancel for the challenger); once accepted it shows **Play my deals**, which opens
the presser's table in a private thread. The result is posted in the channel when both
have played or the deadline passes; `/challenge list` shows a person's challenges."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import level_label
from bot.club.challenges import (
    CHALLENGE_GAMES,
    DAYS_DEFAULT,
    DAYS_MAX,
    DAYS_MIN,
    Challenges,
    all_levels,
)
from bot.games import game_class
from bot.games.challenge_scoring import ChallengeCard
from bot.games.fairness import FairDeals
from bot.render import challenges as render
from bot.render import ids
from bot.render.fairness import Field, fair_deals_field
from bot.render.turns import jump_url
from bot.router import Subject
from bot.store.challenges import ChallengeRow
from bot.tables import Person
from cogs.utils.answers import refuse
from cogs.utils.permissions import missing_for_table, missing_text
from cogs.utils.threads import NO_THREAD, post_table, private_thread

if TYPE_CHECKING:
    from bot.app import TrickTableBot

log = logging.getLogger(__name__)

VERBS = ("chyes", "chno", "chcancel", "chplay")
SWEEP_EVERY = 60.0  # seconds between looks for challenges that are due
GAME_CHOICES = [app_commands.Choice(name=game_class(name).TITLE, value=name)
                for name in CHALLENGE_GAMES]
LEVEL_CHOICES = [app_commands.Choice(name=level.capitalize(), value=level)
                 for level in all_levels()]


def _person(user: discord.abc.User) -> Person:
    return Person(user.id, user.display_name)


def _missing(interaction: discord.Interaction[Any]) -> str | None:
    """Why the bot cannot open a person's private thread here (None: it can)."""
    missing = missing_for_table(interaction.app_permissions, in_thread=False,
                                new_thread=False, private_thread=True)
    return missing_text(missing) if missing else None


def _fair(row: ChallengeRow) -> Field | None:
    """The fair deals' seeds, public once the challenge is over: the last deal's server
    seed gives every earlier one (each is the hash of the next)."""
    if not row.client_seed:
        return None
    deals = FairDeals(client_seed=row.client_seed, secret=row.secret)
    return fair_deals_field(row.game, deals.commitment, row.client_seed,
                            (row.deals, deals.server_seed(row.deals)))


class Challenge(commands.Cog):
    challenge_group = app_commands.Group(
        name="challenge", description="Challenge a member: you both play the same deals, "
        "each at your own pace", guild_only=True)

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot
        self.challenges = Challenges(bot.tables, bot.store)
        self.challenges.announce = self.announce
        self.challenges.remind = self.remind
        self._restored = asyncio.Event()
        self._sweeper: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.router.register_all(Subject.CHALLENGE, {
            "chyes": self.on_accept, "chno": self.on_decline, "chcancel": self.on_cancel,
            "chplay": self.on_play})
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="challenge-sweeper")

    async def cog_unload(self) -> None:
        self.bot.router.unregister(*VERBS)
        if self.challenges in self.bot.tables.watchers:
            self.bot.tables.watchers.remove(self.challenges)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    @commands.Cog.listener()
    async def on_tables_restored(self) -> None:
        try:
            await self.challenges.restore()
        except Exception:
            log.exception("challenges: could not restore them")
        finally:
            self._restored.set()

    async def _sweep_forever(self) -> None:
        await self._restored.wait()  # the tables first: a due challenge closes its tables
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.challenges.sweep()
            except Exception:
                log.exception("challenges: could not look after their deadlines")

    # -- commands ---------------------------------------------------------------------

    @challenge_group.command(name="new", description="Challenge a member to a game: you "
                                                     "both play the same deals")
    @app_commands.describe(member="Whom you challenge", game="Which game",
                           deals="How many deals (bridge: boards); default 4",
                           days=f"Days to accept, then to play ({DAYS_MIN} to {DAYS_MAX}; "
                                f"default {DAYS_DEFAULT})",
                           level="The computer players in the other seats (default: "
                                 "the strongest)")
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    async def new(self, interaction: discord.Interaction[Any], member: discord.User,
                  game: str, deals: int | None = None, days: int = DAYS_DEFAULT,
                  level: str | None = None) -> None:
        channel = interaction.channel
        guild_id = interaction.guild_id
        if guild_id is None or not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "A challenge starts from a server's text channel (not "
                                      "a thread): each player's deals get a thread of it.")
            return
        missing = _missing(interaction)
        if missing:
            await refuse(interaction, missing)
            return
        row = await self.challenges.offer(
            guild_id, channel.id, _person(interaction.user), _person(member),
            challenged_is_bot=member.bot, game=game, deals=deals, days=days, level=level)
        await interaction.response.send_message(
            **render.offer(row, level_label(row.bot_kind)).send_kwargs())
        with contextlib.suppress(discord.HTTPException):
            message = await interaction.original_response()
            await self.bot.store.set_challenge_message(row.id, message.id)

    @challenge_group.command(name="list", description="Your open and recent challenges")
    async def list_command(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None  # the group is guild_only
        entries = await self.challenges.seen_by(interaction.guild_id, interaction.user.id)
        message = render.listing(interaction.user.id, entries)
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    # -- the offer's buttons ------------------------------------------------------------

    async def on_accept(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                        ) -> None:
        row = await self.challenges.answer(parsed.subject, interaction.user.id, True,
                                           interaction.id)
        await interaction.response.edit_message(
            **render.accepted(row, level_label(row.bot_kind)).edit_kwargs())

    async def on_decline(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                         ) -> None:
        row = await self.challenges.answer(parsed.subject, interaction.user.id, False,
                                           interaction.id)
        await interaction.response.edit_message(**render.closed(row).edit_kwargs())

    async def on_cancel(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                        ) -> None:
        row = await self.challenges.cancel(parsed.subject, interaction.user.id)
        await interaction.response.edit_message(**render.closed(row).edit_kwargs())

    async def on_play(self, interaction: discord.Interaction[Any], parsed: ids.ParsedId
                      ) -> None:
        """Open the presser's own table, in a private thread of the challenge's channel."""
        channel = interaction.channel
        row, _ = await self.challenges.check_play(parsed.subject, interaction.user.id)
        if not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "This challenge's channel is not a text channel.")
            return
        missing = _missing(interaction)
        if missing:
            await refuse(interaction, missing)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        person = _person(interaction.user)
        title = game_class(row.game).TITLE
        thread = await private_thread(channel, f"Challenge #{row.id} · {title} — "
                                               f"{person.name}", interaction.user)
        if thread is None:
            await interaction.followup.send(NO_THREAD, ephemeral=True)
            return
        try:
            table = await self.challenges.play(row.id, person, thread.id)
        except Exception:  # refused (answered by the router) or failed: no empty thread
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise
        await post_table(self.bot, thread, table)
        seat = table.game.seat_name(table.seat_of(person.user_id) or 0)
        await interaction.followup.send(
            f"Your deals are ready in {thread.mention}: you are {seat}, computer players "
            "hold the other seats. Press **My hand** there to play.", ephemeral=True)

    # -- the end, and the pings ---------------------------------------------------------

    async def announce(self, row: ChallengeRow, card: ChallengeCard | None) -> None:
        """The service's callback: a challenge ended (card None: an offer that expired)."""
        channel = self.bot.get_partial_messageable(row.channel_id)
        if card is None:
            await self._edit_offer(row, render.closed(row).edit_kwargs())
            return
        message = render.result(row, card, _fair(row))
        url: str | None = None
        try:
            png = await self.bot.tables.off_loop(render.card_png, row, card)
            embed = message.embeds[0]
            embed.set_image(url=f"attachment://{render.PICTURE_NAME}")
            posted = await channel.send(
                content=message.content, embeds=message.embeds,
                file=discord.File(io.BytesIO(png), filename=render.PICTURE_NAME,
                                  description=render.verdict(row, card)),
                allowed_mentions=discord.AllowedMentions.none())
            url = jump_url(row.guild_id, row.channel_id, posted.id)
        except discord.HTTPException:
            log.exception("challenge %s: could not post its result", row.id)
        # The result is said once, in its post: the offer only points to it.
        await self._edit_offer(row, render.ended_offer(row, card, url).edit_kwargs())

    async def _edit_offer(self, row: ChallengeRow, kwargs: dict[str, Any]) -> None:
        """Take the buttons off the challenge's message (an old message may refuse: its
        buttons then answer that the challenge is over)."""
        if row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(row.message_id).edit(**kwargs)

    async def remind(self, row: ChallengeRow, place: int, card: ChallengeCard) -> bool:
        """The service's callback: ping a person who has not finished as the deadline
        nears (once; not at all if they turned pings off)."""
        user_id = row.people[place]
        try:
            if not await self.bot.store.pings_enabled(user_id):
                return True
        except Exception:
            log.warning("challenge %s: could not read a ping setting", row.id, exc_info=True)
            return False
        url = jump_url(row.guild_id, row.channel_id, row.message_id)
        message = render.ping(row, place, card, url)
        try:
            await self.bot.get_partial_messageable(row.channel_id).send(
                **message.send_kwargs())
        except discord.HTTPException:
            log.warning("challenge %s: could not ping a player", row.id, exc_info=True)
            return False
        return True


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Challenge(bot))
