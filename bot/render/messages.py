"""Messages for a table: the lobby, the public table, a private hand, deal and match ends.

Everything a person other than the seat can see is built from the spectator's view
(`game.view(None)`); a private hand is built from that seat's own view. The per-game
details (auction grids, bids, dummies) come from `bot.render.games`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import handle_message_parameters

from bot.games import GameView, Result, ScoreLine, ScoreSheet
from bot.games.requests import ClaimedDeal, Request

from . import ids, requests
from .components import TableButton, as_view, button, rows
from .emojis import current, plain_cards
from .games import text_for
from .games.base import GameText
from .layout import ActionButton, GroupButton, layout
from .pictures.deals import DealPicture
from .seating import Seating
from .text import clip, hand_compact, latest_within

COLOUR = discord.Colour.dark_green()
RECENT_SHOWN = 1  # the latest move on the public table (the trick shows the rest)
MAX_ROWS = 5  # Discord's rows of buttons in one message


@dataclass(slots=True)
class Message:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    # None: no buttons (a post has none; an edit takes away the old ones)
    buttons: tuple[TableButton, ...] | None = None
    mentions: discord.AllowedMentions = field(
        default_factory=lambda: discord.AllowedMentions(users=True, roles=False,
                                                        everyone=False))
    # A picture to attach to a post (drawn off the event loop, then `attach`ed).
    picture: DealPicture | None = None
    # A line worked out off the event loop once the post is out (the double-dummy verdict
    # on a bridge deal), then edited in as a field `analysis_name` of the first embed.
    analysis: Callable[[], str | None] | None = None
    analysis_name: str = ""
    _files: list[discord.File] = field(default_factory=list)

    def add_analysis(self, text: str) -> None:
        if self.embeds and text:
            self.embeds[0].add_field(name=self.analysis_name, value=clip(text, 1024),
                                     inline=False)

    def attach(self, png: bytes) -> None:
        """Attach the drawn picture, shown as the first embed's image."""
        if self.picture is None:
            return
        name = self.picture.filename
        self._files = [discord.File(io.BytesIO(png), filename=name,
                                    description=self.picture.description or None)]
        if self.embeds:
            self.embeds[0].set_image(url=f"attachment://{name}")

    def components(self) -> list[dict[str, Any]]:
        """The buttons as Discord's action rows."""
        return rows(self.buttons or ())

    def body(self) -> dict[str, Any]:
        """The JSON body Discord receives for this message as an embed (an edit's body; a
        post sends the same plus its files), the buttons laid out with no View built."""
        with handle_message_parameters(content=self.content, embeds=self.embeds,
                                       allowed_mentions=self.mentions) as params:
            body: dict[str, Any] = dict(params.payload or {})
        body["components"] = self.components()
        return body

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds,
                                  "allowed_mentions": self.mentions}
        if self.buttons is not None:
            kwargs["view"] = as_view(self.buttons)
        if self._files:
            kwargs["files"] = self._files
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embeds": self.embeds,
                "view": as_view(self.buttons) if self.buttons is not None else None,
                "allowed_mentions": self.mentions}


def _embed(title: str, description: str = "") -> discord.Embed:
    return discord.Embed(title=clip(title, 256), description=clip(description, 4096),
                         colour=COLOUR)


def _add_fields(embed: discord.Embed, fields: Sequence[tuple[str, str, bool]]) -> None:
    for name, value, inline in fields[:25]:
        embed.add_field(name=clip(name, 256), value=clip(value or "—", 1024), inline=inline)


# -- the lobby ------------------------------------------------------------------------

def lobby(table_id: int, title: str, seating: Sequence[str | None], seat_names: Sequence[str],
          sides: Sequence[tuple[int, ...]], side_names: Sequence[str], creator: str,
          options_text: str, can_start: bool, bot_levels: Sequence[tuple[str, str]] = (),
          extra_fields: Sequence[tuple[str, str, bool]] = ()) -> Message:
    lines = [f"Opened by **{creator}**. {options_text}".strip(), ""]
    if len(sides) > 1 and any(len(side) > 1 for side in sides):
        for side, side_name in zip(sides, side_names, strict=True):
            members = " & ".join(f"{seat_names[s]}: {seating[s] or '*empty*'}" for s in side)
            lines.append(f"**{side_name}** — {members}")
    else:
        for seat, name in enumerate(seating):
            lines.append(f"**{seat_names[seat]}**: {name or '*empty*'}")
    free = any(name is None for name in seating)
    if not free:  # nothing left to join or fill: only Start (or Leave) makes sense
        lines += ["", "Every seat is filled: press **Start** to begin."]
    elif not bot_levels:  # the server's admins turned computer players off
        lines += ["", "Press **Join** to sit down and **Start** when every seat is filled "
                  "(this server's admins turned computer players off)."]
    elif len(bot_levels) > 1:
        others = " or ".join(f"**Add {label} bot**" for _kind, label in bot_levels[1:])
        lines += ["", f"Press **Join** to sit down, **Add bot** to fill a seat with a "
                  f"computer player ({bot_levels[0][1]}; {others} for another level), and "
                  "**Start** when every seat is filled."]
    else:
        lines += ["", "Press **Join** to sit down, **Add bot** to fill a seat with a computer "
                  "player, and **Start** when every seat is filled."]
    embed = _embed(f"{title} · table #{table_id} · waiting for players", "\n".join(lines))
    _add_fields(embed, extra_fields)
    items: list[TableButton] = [
        button(ids.make("join", table_id), "Join", discord.ButtonStyle.primary, row=0,
               disabled=not free),
        button(ids.make("leave", table_id), "Leave", row=0),
        *([button(ids.make("addbot", table_id), "Add bot", row=0, disabled=not free)]
          if bot_levels else []),
        button(ids.make("start", table_id), "Start", discord.ButtonStyle.success, row=0,
               disabled=not can_start),
        button(ids.make("cancel", table_id), "Cancel", discord.ButtonStyle.danger, row=0),
    ]
    seat_buttons = [button(ids.make("sit", table_id, seat), f"Sit {seat_names[seat]}", row=1)
                    for seat in range(len(seat_names)) if seating[seat] is None]
    items.extend(seat_buttons[:5])
    if free:  # other levels, while a seat is free
        items.extend(button(ids.make("addbot", table_id, kind), f"Add {label} bot", row=2)
                     for kind, label in bot_levels[1:6])
    # The game's rules, and the fair deals' commitment, fixed before anyone pressed Start.
    items.append(button(ids.make("rules", table_id), "Rules", row=3))
    return Message(embeds=[embed], buttons=tuple(items))


# -- the public table -----------------------------------------------------------------

def moved(table_id: int, title: str, url: str) -> Message:
    """What a table message becomes once `/table` posted a new one: a line to the new
    one, with no buttons (an old copy must not look live)."""
    return Message(content=f"{title} · table #{table_id} has moved: {url}", buttons=None)


def replaced_hand(table_id: int, title: str) -> Message:
    """What a private hand becomes once a newer hand message replaced it: one line, no
    buttons (an old copy must not look live, nor offer what is over)."""
    return Message(content=f"Replaced by your newer hand below · {title} #{table_id}",
                   buttons=None)


MISSING = {50001: "access to this channel", 50013: "a permission I need in this channel"}


def paused_line(table_id: int, title: str, code: int) -> str:
    """Why a table's channel messages stopped (Discord refused a write with `code`) and how
    to bring them back."""
    lost = MISSING.get(code, "permission to write in this channel")
    return (f"{title} · table #{table_id} is paused: I lost {lost} (Discord error {code}). "
            "Let me view the channel, send messages, embed links and attach files there, "
            "then use /table.")


def public_table(table_id: int, game_name: str, title: str, view: GameView, seating: Seating,
                 recent: Sequence[str], waiting: Sequence[int], closed_note: str = "",
                 extra_fields: Sequence[tuple[str, str, bool]] = (),
                 decisions: Sequence[int] = ()) -> Message:
    """The table everyone in the channel sees (built from the spectator's view only);
    `decisions` (per seat) make the Accept/Reject buttons of a person asked to answer a
    claim or undo."""
    if closed_note:  # a closed table: why, and the final score, each said once
        embed = _embed(f"{title} · table #{table_id}", closed_note)
        if view.score.running:
            embed.set_footer(text=f"Final score: {_totals(view.score, bold=False)}")
        return Message(embeds=[embed], buttons=None)
    text = text_for(game_name)
    # Whose turn it is and what is asked come first.
    turn = text.turn_line(view, seating)
    asked = requests.pending(view)
    status = [turn, *(line for line in text.status_lines(view, seating) if line != turn)]
    if asked is not None:
        status.insert(0, requests.request_line(asked, seating))
    embed = _embed(f"{title} · table #{table_id} · {view.deal_word} {view.deal_no}",
                   "\n".join(status))
    _add_fields(embed, [*text.public_fields(view, seating), *extra_fields])
    # Under it, in the footer's small print (no field names: a phone's lines are few): the
    # latest move and the score's totals (the last deal's line is in its end-of-deal post,
    # just above; duplicate boards have no running total: each is compared elsewhere).
    small = [*recent[-RECENT_SHOWN:],
             *([f"Score: {_totals(view.score, bold=False)}"] if view.score.running else [])]
    if small:
        embed.set_footer(text=clip("\n".join(small), 2048))
    content = None
    if waiting:
        people = [seating.user_ids[s] for s in waiting if seating.user_ids[s] is not None]
        if people:
            content = " ".join(f"<@{uid}>" for uid in people) + (
                " — accept or reject?" if asked is not None else " — your turn."
                if len(people) == 1 else " — your turn (everyone at once).")
    items = [button(ids.make("hand", table_id), "My hand", discord.ButtonStyle.primary),
             *trick_buttons(table_id, text, view, seating),
             button(ids.make("rules", table_id), "Rules")]
    if seating.away:
        items.insert(1, button(ids.make("join", table_id), "Take my seat back"))
    if decisions:
        items += requests.answer_buttons(table_id, asked, decisions, seating)
    return Message(content=content, embeds=[embed], buttons=tuple(items))


def trick_buttons(table_id: int, text: GameText[Any, Any], view: GameView, seating: Seating,
                  row: int | None = None) -> list[TableButton]:
    """Last trick, and Tricks where a game lists a deal's tricks: answered privately."""
    out = [button(ids.make("last", table_id), "Last trick", row=row,
                  disabled=text.last_trick_text(view, seating) is None)]
    if text.lists_tricks:
        out.append(button(ids.make("tricks", table_id), "Tricks", row=row,
                          disabled=text.trick_history_text(view, seating) is None))
    return out


def trick_history(table_id: int, game_name: str, title: str, view: GameView,
                  seating: Seating) -> Message:
    """Every complete trick of the deal so far, for the person who asked (Tricks)."""
    with_text = text_for(game_name).trick_history_text(view, seating)
    head = (f"**{title}** · table #{table_id} · {view.deal_word} {view.deal_no} · **Tricks** "
            "(each from its leader; the winning card in bold)")
    return Message(content=clip(f"{head}\n{with_text or 'No trick is complete yet.'}", 2000))


def last_trick(table_id: int, game_name: str, title: str, view: GameView,
               seating: Seating) -> Message:
    """The trick before the current one, for the person who asked (Last trick)."""
    with_text = text_for(game_name).last_trick_text(view, seating)
    head = (f"**{title}** · table #{table_id} · {view.deal_word} {view.deal_no} · "
            "**Last trick**")
    return Message(content=clip(f"{head}\n{with_text or 'No trick is complete yet.'}", 2000))


def score_text(sheet: ScoreSheet, last: int = 4) -> str:
    """The totals and the `last` few lines: the running score under a table or a deal."""
    recent = [_sheet_line(line) for line in sheet.lines[-last:]] if last else []
    return clip("\n".join([_totals(sheet), *recent]), 1024)


def _totals(sheet: ScoreSheet, bold: bool = True) -> str:
    mark = "**" if bold else ""  # a footer shows no markdown
    totals = " · ".join(f"{side}: {mark}{total}{mark}" for side, total in
                        zip(sheet.sides, sheet.totals, strict=True))
    return totals + (" (fewest wins)" if sheet.lower_wins else "")


def _sheet_line(line: ScoreLine, longest_note: int | None = None) -> str:
    """`Deal 3: 420 / 0 — 4♠ by South, made 10`; a note longer than `longest_note` (a
    Tennis game's bids and tricks) is left to the deal's own post."""
    note = line.note if longest_note is None or len(line.note) <= longest_note else ""
    return (f"{line.label}: " + " / ".join(str(p) for p in line.points)
            + (f" — {note}" if note else ""))


SHEET_BUDGET = 4000  # characters of the whole sheet at a match's end (an embed holds 6000)
SHEET_NOTE = 60  # the longest note the final sheet keeps on a line


def sheet_fields(sheet: ScoreSheet, match_id: int) -> list[tuple[str, str, bool]]:
    """The whole score sheet, every line, in as many fields as it needs. A sheet too long
    for one message keeps its last lines and says where the whole one is."""
    lines = [_sheet_line(line, SHEET_NOTE) for line in sheet.lines]
    kept = [clip(line, 1000) for line in latest_within(lines, SHEET_BUDGET)]
    fields: list[tuple[str, str, bool]] = []
    chunk: list[str] = []
    for line in kept:
        if chunk and len("\n".join([*chunk, line])) > 1024:
            fields.append(("Score sheet" if not fields else "Score sheet, continued",
                           "\n".join(chunk), False))
            chunk = []
        chunk.append(line)
    if chunk:
        fields.append(("Score sheet" if not fields else "Score sheet, continued",
                       "\n".join(chunk), False))
    if len(kept) < len(lines):
        left_out = len(lines) - len(kept)
        fields.append(("Earlier lines", f"The first {left_out} lines are left out here; the "
                       f"whole sheet is under **Sheet #{match_id}** in `/history`.", False))
    return fields


# -- a private hand -------------------------------------------------------------------

def hand(table_id: int, game_name: str, title: str, seat: int, view: GameView,
         legal: Sequence[str], decision: int, seating: Seating, note: str = "",
         group: str | None = None, you: int | None = None,
         ask_again_at: float | None = None) -> Message:
    """A seat's own hand with a button for exactly each legal action. `you`: the seat of
    the person it is for, when that is not `seat` (a person who declares for their
    computer partner sees and plays declarer's hand). `ask_again_at`: the seat's last
    claim or undo has just ended, and it may ask again only from then (a moment in
    seconds since the epoch): Undo is disabled and the hand says when."""
    text = text_for(game_name)
    you = seat if you is None else you
    lines = [f"**{title}** · table #{table_id} · {view.deal_word} {view.deal_no} · "
             f"you are **{seating.seat_names[you]}**"]
    private, prompt = text.private_lines(view, seating), text.prompt(view, legal) if legal else ""
    if you != seat:
        lines.append(f"You declare for {seating.who(seat)}: you play "
                     f"{seating.seat_names[seat]}'s cards and your own as dummy.")
        theirs = f"{seating.seat_names[seat]}'s hand"  # what the seat's view calls yours
        private = [f"{theirs} (you play it):" if line == "Your hand:" else line
                   for line in private]
        prompt = prompt.replace("from your hand", f"from {theirs}")
    if note:
        lines.append(f"> {note}")
    lines += private
    asked = requests.pending(view)
    if asked is not None:
        lines.append(requests.request_line(asked, seating))
    cooling = ask_again_at is not None and bool(requests.asks_of(view))
    if cooling and ask_again_at is not None:
        lines.append(requests.ask_again_line(ask_again_at))
    items: list[TableButton] = []
    if group == requests.CLAIM_GROUP and requests.claims_of(view):
        claim_prompt, items = requests.claim_screen(table_id, seat, decision, view, cooling)
        lines.append(claim_prompt)
        return Message(content=clip("\n".join(lines), 2000), buttons=tuple(items))
    if legal:
        lines.append(requests.answer_prompt(asked) if asked is not None else prompt)
    elif view.phase != "match_over" and asked is None:
        waiting = [seating.who(s) for s in sorted(view.to_act)] or ["nobody"]
        lines.append(f"Waiting for {', '.join(waiting)}.")
    if legal:
        plan = layout(legal, group, text.card_kinds)
        for row_no, row in enumerate(plan.rows):
            for item in row:
                if isinstance(item, GroupButton):
                    items.append(button(ids.make("pick", table_id, seat, decision, item.key),
                                        item.label, discord.ButtonStyle.primary, row=row_no))
                else:
                    items.append(_action_button(table_id, seat, decision, item, row_no,
                                                asked))
        if plan.back:
            items.append(button(ids.make("pick", table_id, seat, decision, "-"), "Back",
                                row=len(plan.rows)))
        free_row = len(plan.rows) + bool(plan.back)
        if free_row < MAX_ROWS and view.phase == "play":
            items += trick_buttons(table_id, text, view, seating, row=free_row)
        if not plan.back:  # Claim… and Undo on the first screen (a group's is its choices)
            items += requests.ask_buttons(table_id, seat, decision, view, row=free_row,
                                          cooling=cooling)
    else:
        items.append(button(ids.make("hand", table_id), "Refresh"))
        if view.phase == "play":
            items += trick_buttons(table_id, text, view, seating)
        items += requests.ask_buttons(table_id, seat, decision, view, row=None,
                                      cooling=cooling)
    return Message(content=clip("\n".join(lines), 2000), buttons=tuple(items))


def _action_button(table_id: int, seat: int, decision: int, item: ActionButton,
                   row: int, asked: Request | None = None) -> TableButton:
    # Red suits keep the neutral style: Discord's red "danger" reads as destructive.
    style = discord.ButtonStyle.primary if item.primary else discord.ButtonStyle.secondary
    emoji = current().component(item.card) if item.card is not None else None
    action = requests.answer_action(item.action, asked)
    return button(ids.action_id(table_id, seat, decision, action), item.label, style,
                  row=row, emoji=emoji)


# -- ends of deals and matches --------------------------------------------------------

def deal_end(table_id: int, game_name: str, title: str, view: GameView,
             seating: Seating, buttons: Sequence[TableButton] = (),
             extra_fields: Sequence[tuple[str, str, bool]] = ()) -> Message | None:
    """The deal that just ended: its result once, the match's score once, and the picture
    of all its hands; `buttons` (from other features, e.g. "Hand record") go under it."""
    summary = view.previous_deal
    if summary is None:
        return None
    text = text_for(game_name)
    # Short: the picture lays the hands out; they are in text only as the picture's
    # description (its alt text), one line each, for people who use a screen reader.
    hands = [f"{who}: {hand_compact(cards)}" for who, cards in text.deal_hands(summary, seating)]
    claim = summary.claim if isinstance(summary, ClaimedDeal) else None  # the bridge games
    with plain_cards():
        embed = _embed(f"{title} · table #{table_id} · {view.deal_word} {summary.deal_no} "
                       "is over",
                       "\n".join([*text.deal_lines(summary, seating),
                                  *([f"⚖️ {claim}"] if claim else [])]))
        _add_fields(embed, text.deal_fields(summary, seating))
        # The deal's own line is the result above: the score is the match's totals (none
        # for duplicate boards, each compared elsewhere).
        _add_fields(embed, [*([("Score", score_text(view.score, last=0), False)]
                              if view.score.running else []), *extra_fields])
    picture = DealPicture(game_name, title, table_id,
                          tuple(seating.name(s) for s in range(len(seating.names))), summary,
                          description=clip("; ".join(hands), 1024),
                          deal_word=view.deal_word)
    return Message(embeds=[embed], buttons=tuple(buttons) if buttons else None,
                   picture=picture)


def match_end(table_id: int, title: str, result: Result, sheet: ScoreSheet,
              seating: Seating) -> Message:
    if not sheet.running:  # duplicate boards: no total decides, their comparison does
        embed = _embed(f"{title} · table #{table_id} · every board played",
                       "Each board was scored on its own; how it compares with the other "
                       "table or the field is the result (the score card, the day's "
                       "standings, the challenge).")
        _add_fields(embed, sheet_fields(sheet, table_id))
        return Message(embeds=[embed])
    order = sorted(range(len(result.sides)), key=lambda i: result.ranks[i])
    lines = []
    for place, side in enumerate(order, start=1):
        people = ", ".join(seating.name(s) for s in result.side_seats[side])
        medal = "🏆 " if result.ranks[side] == 0 and not result.is_draw else ""
        lines.append(f"{place}. {medal}**{result.sides[side]}** ({people}): "
                     f"{result.totals[side]}")
    if result.is_draw:
        lines.insert(0, "**A draw.**")
    if sheet.lower_wins:
        lines.append("The lowest total wins.")
    embed = _embed(f"{title} · table #{table_id} · final standings", "\n".join(lines))
    _add_fields(embed, sheet_fields(sheet, table_id))
    return Message(embeds=[embed])
