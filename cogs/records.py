"""Hand records: the "Hand record" button under a bridge end-of-deal message.

The click (`tt:rec:<table id>:<deal no>`) is answered privately with the deal's
double-dummy table and par, the card-by-card double-dummy post-mortem, the deal as PBN and
LIN files, and a link that opens the LIN in Bridge Base Online's handviewer. The deal is
rebuilt from the stored action log, so the button works after a restart and after the
table is closed; a deal that has not ended is refused (the record is only ever taken at
its end).
"""

from __future__ import annotations

import asyncio
import io
from datetime import date
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.club.privacy import record_withheld
from bot.games import game_class
from bot.games.cards import SEAT_NAMES
from bot.games.fairness import deal_source
from bot.handrecord import HAND_RECORD_GAMES, DealNotOver, HandRecord, Heading, replay_deal, to_pbn
from bot.handrecord.lin import handviewer_url, to_lin
from bot.render import ids
from bot.render.pictures.deals import DealPicture
from bot.render.text import count
from bot.router import Subject
from bot.store import MatchRow, SeatRow

if TYPE_CHECKING:
    from bot.app import TrickTableBot

VERB = "rec"
CONTENT_MAX = 2000  # Discord's limit on a message's text


def _names(game: str, seats: list[SeatRow]) -> tuple[str, str, str, str]:
    """Player names by compass seat N, E, S, W (Single Dummy: each player's dummy too)."""
    by_seat = {s.seat: s.display_name for s in seats}
    if game == "single_dummy":
        south, west = by_seat.get(0, "South"), by_seat.get(1, "West")
        return (f"{south} (dummy)", f"{west} (dummy)", south, west)
    n, e, s, w = (by_seat.get(i, name) for i, name in
                  enumerate(SEAT_NAMES))
    return (n, e, s, w)


def _comments(record: HandRecord) -> list[str]:
    if record.game != "single_dummy":
        return []
    return ["Single Dummy Bridge: South plays North as a dummy and West plays East; "
            "North and East pass throughout the auction; the declarer's opponent leads."]


def picture(match: MatchRow, seats: list[SeatRow], record: HandRecord) -> bytes | None:
    """The deal's picture, as posted at its end (blocking: run it in a thread)."""
    if record.summary is None:
        return None
    game = game_class(match.game)
    names = {s.seat: s.display_name for s in seats}
    return DealPicture(match.game, game.TITLE, match.id,
                       tuple(names.get(seat, name) for seat, name in enumerate(game.SEAT_NAMES)),
                       record.summary, deal_word=game.deal_word(match.options)).render()


def build(match: MatchRow, seats: list[SeatRow], actions: list[tuple[int, str]],
          deal_no: int) -> tuple[HandRecord, str, str, str]:
    """Replay, write the PBN and LIN, and solve (blocking: run it in a thread). Returns
    the record, its PBN and LIN, and the reply's analysis text."""
    source = deal_source(match.seed, match.settings.get("deals"))
    record = replay_deal(match.game, match.options, source, actions, deal_no)
    title = game_class(match.game).TITLE
    started = match.started_at or match.created_at
    names = _names(match.game, seats)
    heading = Heading(event=f"TrickTable {title}, table #{match.id}", site="Discord",
                      day=date(started.year, started.month, started.day), names=names)
    text = to_pbn(record, heading, _comments(record))
    lin = to_lin(record, names)
    # endplay is slow to import: load it on the first hand record only.
    from bot.handrecord.postmortem import analyse, table_lines
    from bot.handrecord.solver import grid, par_text, solve
    analysis = solve(record)
    parts = [f"Double-dummy tricks by declarer and strain:\n```\n{grid(analysis)}\n```\n"
             f"{par_text(analysis)}"]
    lines = table_lines(analyse(record))
    if lines:
        parts.append("Card by card: the declaring side's double-dummy tricks before > after "
                     "each trick; -1 marks a card that cost its side a trick.\n```\n"
                     + "\n".join(lines) + "\n```")
    return record, text, lin, "\n".join(parts)


class Records(commands.Cog):
    """Owns the `rec` button verb."""

    def __init__(self, bot: TrickTableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.router.register(VERB, self.hand_record, Subject.TABLE)

    async def cog_unload(self) -> None:
        self.bot.router.unregister(VERB)

    async def hand_record(self, interaction: discord.Interaction[Any],
                          parsed: ids.ParsedId) -> None:
        if len(parsed.args) != 1 or not parsed.args[0].isdigit():
            raise ids.BadCustomId(parsed.verb)
        deal_no = int(parsed.args[0])
        store = self.bot.store
        match = await store.get_match(parsed.subject)
        if match is None:
            await _say(interaction, "That table no longer exists.")
            return
        if match.game not in HAND_RECORD_GAMES:
            await _say(interaction, "Hand records are kept for the bridge games only.")
            return
        hidden = await record_withheld(self.bot.store, match.id, deal_no,
                                       interaction.user.id)
        if hidden is not None:
            await _say(interaction, hidden)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        seats = await store.seats(match.id)
        actions = [(a.seat, a.action) for a in await store.actions(match.id)]
        try:
            record, text, lin, summary = await asyncio.to_thread(build, match, seats,
                                                                 actions, deal_no)
        except DealNotOver:
            await interaction.followup.send(await self._no_record(match, deal_no),
                                            ephemeral=True)
            return
        word = game_class(match.game).deal_word(match.options)
        heading = (f"**Hand record** · table #{match.id} · {word} {deal_no} "
                   f"({_outcome(record)})")
        link = f"[Open in BBO's handviewer](<{handviewer_url(lin)}>)"
        content = f"{heading}\n{link}\n{summary}"
        if len(content) > CONTENT_MAX:  # very long names: the LIN file is attached anyway
            content = f"{heading}\n{summary}"
        name = f"table{match.id}-deal{deal_no}"
        files = [discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{name}.pbn"),
                 discord.File(io.BytesIO(lin.encode("utf-8")), filename=f"{name}.lin")]
        drawn = await asyncio.to_thread(picture, match, seats, record)
        if drawn is not None:
            files.append(discord.File(io.BytesIO(drawn),
                                      filename=f"deal-{match.id}-{deal_no}.png"))
        await interaction.followup.send(content, files=files, ephemeral=True)


    async def _no_record(self, match: MatchRow, deal_no: int) -> str:
        """Why a deal has no record: it is being played, or it never was."""
        ended = len(await self.bot.store.deals(match.id))
        word = game_class(match.game).deal_word(match.options)
        if match.status == "playing" and deal_no == ended + 1:
            return (f"{word.capitalize()} {deal_no} at table #{match.id} is not over yet: its "
                    "hand record comes when the last card is played.")
        return (f"Table #{match.id} has no {word} {deal_no}: {count(ended, word)} "
                f"{'has' if ended == 1 else 'have'} ended there.")


def _outcome(record: HandRecord) -> str:
    """`2♦ by South, 4 tricks` (the record's declarer is a compass seat)."""
    if record.contract is None:
        return "passed out"
    return f"{record.contract.text(SEAT_NAMES)}, {record.declarer_tricks} tricks"


async def _say(interaction: discord.Interaction[Any], text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: TrickTableBot) -> None:
    await bot.add_cog(Records(bot))
