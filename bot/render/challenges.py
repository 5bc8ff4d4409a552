"""A challenge's messages: the offer in the channel (Accept, Decline, Cancel), the accepted
challenge (Play my deals), its result (a short line, the deals both played, the fair
deals' seeds, and a picture of the comparison), the deadline ping and /challenge list.

Takes a challenge as a plain object (duck-typed: bot.store.challenges.ChallengeRow) and
its comparison (bot.games.challenge_scoring.ChallengeCard), so this layer needs nothing
from the store or the club.

Buttons (`tt:<verb>:<challenge id>`): `chyes` accepts, `chno` declines, `chcancel`
cancels the offer, `chplay` opens the presser's own table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games import game_class
from bot.games.challenge_scoring import ChallengeCard, ComparedDeal, PersonDeal

from . import ids
from .components import button
from .fairness import Field
from .messages import Message
from .pictures.score_table import Line, Row, score_table_png
from .pictures.shapes import INK, MUTED
from .teams import contract_note, short_contract, signed
from .text import clip

COLOUR = discord.Colour.blurple()
PICTURE_NAME = "challenge.png"


def _word(row: Any, count: int | None = None) -> str:
    word = "board" if _boards(row.game) else "deal"
    return word if count == 1 else word + "s"


def _boards(game: str) -> bool:
    challenge = game_class(game).CHALLENGE
    return challenge is not None and challenge.length_option == "boards"


def _title(row: Any) -> str:
    return game_class(row.game).TITLE


def _when(moment: int) -> str:
    return f"<t:{moment}:f> (<t:{moment}:R>)"


def _how(row: Any, level: str) -> str:
    """What a challenge is, in two sentences."""
    challenge = game_class(row.game).CHALLENGE
    seat = (game_class(row.game).SEAT_NAMES[challenge.seat] if challenge is not None
            else "the same seat")
    compared = ("in IMPs" if challenge is not None and challenge.compare == "imps"
                else "by points")
    return (f"{row.names[0]} and {row.names[1]} each play the same {row.deals} "
            f"{_word(row, row.deals)} (fair deals) at their own table in a private thread, "
            f"as {seat}, with {level} computer players in "
            f"the other seats, each at their own pace. Each {_word(row, 1)} is compared "
            f"{compared} once both have played it; nobody sees the other's result first.")


def offer(row: Any, level: str) -> Message:
    """The challenge on offer: it pings the challenged person alone."""
    embed = discord.Embed(title=f"Challenge #{row.id} · {_title(row)} · {row.deals} "
                          f"{_word(row, row.deals)}", colour=COLOUR,
                          description=f"{_how(row, level)}\n\nAnswer by {_when(row.deadline)}.")
    buttons = (button(ids.make("chyes", row.id), "Accept", discord.ButtonStyle.success),
               button(ids.make("chno", row.id), "Decline", discord.ButtonStyle.danger),
               button(ids.make("chcancel", row.id), "Cancel"))
    return Message(content=f"<@{row.people[1]}>, **{row.names[0]}** challenges you to "
                           f"{_title(row)}!", embeds=[embed], buttons=buttons,
                   mentions=discord.AllowedMentions(users=[discord.Object(row.people[1])],
                                                    roles=False, everyone=False))


def accepted(row: Any, level: str) -> Message:
    embed = discord.Embed(title=f"Challenge #{row.id} · {_title(row)} · {row.deals} "
                          f"{_word(row, row.deals)}", colour=COLOUR,
                          description=(f"{_how(row, level)}\n\nPlay by {_when(row.deadline)}: "
                                       f"{_word(row)} not played by then do not count. Press "
                                       "**Play my deals** when you are ready."))
    return Message(content=f"**{row.names[1]}** accepted **{row.names[0]}**'s challenge.",
                   embeds=[embed],
                   buttons=(button(ids.make("chplay", row.id), "Play my deals",
                                   discord.ButtonStyle.primary),),
                   mentions=discord.AllowedMentions.none())


def closed(row: Any) -> Message:
    """The offer once declined, cancelled or expired (no buttons left)."""
    text = {"declined": f"**{row.names[1]}** declined **{row.names[0]}**'s challenge.",
            "cancelled": f"**{row.names[0]}** cancelled the challenge to **{row.names[1]}**.",
            "expired": f"**{row.names[0]}**'s challenge to **{row.names[1]}** expired "
                       "unanswered."}.get(row.status, f"Challenge #{row.id} is over.")
    return Message(content=f"{text} (challenge #{row.id}, {_title(row)})",
                   buttons=None, mentions=discord.AllowedMentions.none())


def _short_note(game: str, note: str) -> str:
    """A deal's result short enough for a phone: the contract (bridge boards), else the
    part about the person's side where the note has one per side (Spades:
    `North-South: ... | East-West: ...`; Tennis: `First player: ...; Second ...`)."""
    if _boards(game):
        return short_contract(note)
    cls = game_class(game)
    challenge = cls.CHALLENGE
    seat = challenge.seat if challenge is not None else 0
    side = next((i for i, seats in enumerate(cls.SIDES) if seat in seats), 0)
    prefix = f"{cls.SIDE_NAMES[side]}: "
    for separator in (" | ", "; "):
        if separator not in note:
            continue
        for part in note.split(separator):
            if part.startswith(prefix):
                return clip(part[len(prefix):], 48)
    return clip(note, 48) or "—"


def _value(deal: ComparedDeal, names: Sequence[str], unit: str) -> str:
    won = deal.value
    if won == 0:
        return "0"
    if abs(won) == 1:
        unit = unit.rstrip("s")  # 1 IMP, 1 pt
    return f"**{abs(won)} {unit} {names[0] if won > 0 else names[1]}**"


def deal_line(game: str, deal: ComparedDeal, names: Sequence[str]) -> str:
    unit = "IMPs" if deal.compare == "imps" else "pts"
    return (f"`{deal.deal:>2}` {names[0]}: {_short_note(game, deal.first.note)} "
            f"{signed(deal.first.net)} · {names[1]}: {_short_note(game, deal.second.note)} "
            f"{signed(deal.second.net)} → {_value(deal, names, unit)}")


def figures(card: ChallengeCard, winner: int | None, dash: str = "–") -> str:
    """The two totals, the winner's first: `12–3 IMPs`, or `+120 to -20 points`."""
    a, b = card.totals
    first, second = (b, a) if winner == 1 else (a, b)
    if card.compare == "imps":
        return f"{first}{dash}{second} IMPs"
    return f"{signed(first)} to {signed(second)} points"


def verdict(row: Any, card: ChallengeCard) -> str:
    """Who won, on what, and how unplayed deals counted: one line."""
    names = row.names
    word = _word(row, row.deals)
    played = len(card.compared)
    winner = card.winner()
    if max(card.played) == 0:
        return f"Neither {names[0]} nor {names[1]} played a {_word(row, 1)}: no result."
    if card.forfeit():
        absent = names[1 - winner] if winner is not None else ""
        return f"**{names[winner or 0]}** wins: {absent} played no {_word(row, 1)} (forfeit)."
    scope = ((f"all {row.deals} {word}" if row.deals > 2 else
              f"both {word}" if row.deals == 2 else f"the {word}")
             if card.complete else
             f"the {'one' if played == 1 else played} {_word(row, played)} both played "
             f"(of {row.deals}; the others do not count)")
    if winner is None:
        return f"A tie, {figures(card, None)}, on {scope}."
    return f"**{names[winner]}** wins {figures(card, winner)} on {scope}."


def result(row: Any, card: ChallengeCard, fair: Field | None) -> Message:
    """The post in the channel when a challenge ends; attach its picture with `attach`."""
    names = row.names
    embed = discord.Embed(title=f"Challenge #{row.id} · {_title(row)} · {names[0]} v "
                          f"{names[1]}", colour=COLOUR)
    # The verdict is the post's first line (its content), said once: not again here.
    lines = [f"Played: {names[0]} {card.played[0]}/{row.deals}, "
             f"{names[1]} {card.played[1]}/{row.deals}."]
    if card.compared:
        lines += ["", *(deal_line(row.game, deal, names) for deal in card.compared)]
    embed.description = clip("\n".join(lines), 4096)
    if fair is not None:
        name, value, inline = fair
        embed.add_field(name=name, value=clip(value, 1024), inline=inline)
    return Message(content=f"Challenge #{row.id} is over: {verdict(row, card)}",
                   embeds=[embed], mentions=discord.AllowedMentions.none())


def ended_offer(row: Any, card: ChallengeCard, result_url: str | None) -> Message:
    """The offer once the challenge is over (no buttons left): it points to the result's
    post (`result_url`), which says the result, rather than say it a second time; with no
    post (it could not be sent), the result is said here."""
    head = f"Challenge #{row.id} ({_title(row)}, {row.names[0]} v {row.names[1]}) is over"
    text = (f"{head}: [see its result]({result_url})." if result_url is not None
            else f"{head}: {verdict(row, card)}")
    return Message(content=text, buttons=None, mentions=discord.AllowedMentions.none())


def ping(row: Any, place: int, card: ChallengeCard, url: str) -> Message:
    """Pings a person who has not finished as the deadline nears (a new message, theirs
    alone)."""
    user = row.people[place]
    other = row.names[1 - place]
    word = _word(row, row.deals)
    text = (f"<@{user}>, your {_title(row)} challenge with {other} ends "
            f"<t:{row.deadline}:R>: you have played {card.played[place]} of {row.deals} "
            f"{word}. [Open the challenge]({url}) and press **Play my deals** (or go on in "
            f"your thread). {word.capitalize()} not played by then do not count; playing "
            "none forfeits it.")
    return Message(content=text, buttons=None,
                   mentions=discord.AllowedMentions(users=[discord.Object(user)],
                                                    roles=False, everyone=False))


def listing(user_id: int, entries: Sequence[tuple[Any, ChallengeCard | None]]) -> Message:
    """/challenge list: the person's open and recent challenges."""
    embed = discord.Embed(title="Your challenges", colour=COLOUR)
    if not entries:
        embed.description = ("You have no challenges here yet. Challenge someone with "
                             "`/challenge new`.")
        return Message(embeds=[embed], mentions=discord.AllowedMentions.none())
    blocks = [_entry(user_id, row, card) for row, card in entries]
    embed.description = clip("\n\n".join(blocks), 4096)
    return Message(embeds=[embed], mentions=discord.AllowedMentions.none())


def _entry(user_id: int, row: Any, card: ChallengeCard | None) -> str:
    place = 0 if row.people[0] == user_id else 1
    other = row.names[1 - place]
    head = (f"**#{row.id} {_title(row)}** · {row.deals} {_word(row, row.deals)} · "
            f"{'you challenged' if place == 0 else 'from'} {other}")
    state = {"offered": (f"waiting for {row.names[1]} to accept, until "
                         f"<t:{row.deadline}:R>"),
             "accepted": f"being played, ends <t:{row.deadline}:R>",
             "declined": "declined", "cancelled": "cancelled",
             "expired": "expired unanswered"}.get(row.status, row.status)
    lines = [head]
    if card is None:
        lines.append(state)
        return "\n".join(lines)
    if row.status == "finished":
        lines.append(verdict(row, card))
    else:
        lines.append(f"{state} · played: you {card.played[place]}, {other} "
                     f"{card.played[1 - place]}")
    if card.compared:
        unit = "IMPs" if card.compare == "imps" else "pts"
        mine = [deal.value if place == 0 else -deal.value for deal in card.compared]
        lines.append(f"Both played ({unit} to you): " + " · ".join(
            f"{deal.deal}: {signed(value)}" for deal, value in zip(card.compared, mine,
                                                                   strict=True)))
    return "\n".join(lines)


# -- the picture -------------------------------------------------------------------------

def card_png(row: Any, card: ChallengeCard) -> bytes:
    """The comparison as a picture: a row per deal both played, the verdict at the top."""
    names = row.names
    winner = card.winner()
    if winner is None:
        title = f"A tie, {figures(card, None, '-')}"
    elif card.forfeit():
        title = f"{names[winner]} wins by forfeit"
    else:
        title = f"{names[winner]} wins {figures(card, winner, '-')}"
    lines = [Line(clip(f"{_title(row)} · challenge #{row.id}", 60), 22, INK),
             Line(f"Played: {clip(names[0], 20)} {card.played[0]}/{row.deals}, "
                  f"{clip(names[1], 20)} {card.played[1]}/{row.deals}", 20, MUTED)]

    def cell(side: PersonDeal) -> tuple[tuple[str, ...], str]:
        if not _boards(row.game):
            return (), signed(side.net)
        short = _short_note(row.game, side.note)
        return (contract_note(side.note), short) if side.note else (short,), signed(side.net)
    rows = [Row(deal.deal, (cell(deal.first), cell(deal.second)),
                f"{abs(deal.value)} {clip(names[0 if deal.value > 0 else 1], 8)}"
                if deal.value else "0", deal.value != 0)
            for deal in card.compared]
    headings = ("Board" if _boards(row.game) else "Deal", clip(names[0], 22),
                clip(names[1], 22), "IMPs" if card.compare == "imps" else "Pts")
    return score_table_png(clip(title, 40), lines, headings, rows, 22)
