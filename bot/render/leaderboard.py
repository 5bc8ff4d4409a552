"""Messages for /leaderboard, /stats and /history, the score sheet of a past match, and the
"rating changes" line after a match.

Ratings are the conservative OpenSkill estimate, mu - 3 sigma, shown on a familiar scale
(`shown_rating`): a newcomer 1000, an average player whose rating has firmed up about
1500. Rows come from bot.store.ratings; they are
described here by the fields read (Protocols), so this layer does not import the store.

Buttons (custom ids carry everything, so pages keep working after a restart; the server
is the one the click comes from):
- `tt:lb:<page>:<game>`: a leaderboard page (0-based);
- `tt:hist:<user id>:<page>`: a page of a person's history;
- `tt:sheet:<match id>`: a past match's deal-by-deal score sheet (ephemeral).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import discord

from bot.games import game_class

from . import ids
from .components import TableButton, button
from .games import text_for
from .messages import Message
from .text import clip, count

COLOUR = discord.Colour.dark_gold()
PER_PAGE = 10  # leaderboard rows
HISTORY_PER_PAGE = 5  # one score-sheet button each, in one row
NO_MENTIONS = discord.AllowedMentions.none()



class RatingLike(Protocol):
    """A rating row (bot.store.ratings.RatingRow)."""

    @property
    def player(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def conservative(self) -> float: ...


class ChangeLike(Protocol):
    """One match's rating change of one entity (bot.store.ratings.RatingChange)."""

    @property
    def player(self) -> str: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def mu_after(self) -> float: ...
    @property
    def sigma_after(self) -> float: ...
    @property
    def change(self) -> float: ...


class BoardLike(Protocol):
    """A leaderboard page (bot.store.ratings.BoardPage)."""

    @property
    def rows(self) -> Sequence[RatingLike]: ...
    @property
    def first_index(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def established(self) -> int: ...


def title_of(game: str) -> str:
    try:
        return game_class(game).TITLE
    except ValueError:
        return game


def _embed(title: str, description: str = "") -> discord.Embed:
    return discord.Embed(title=clip(title, 256), description=clip(description, 4096),
                         colour=COLOUR)


def _pager(prev_id: str, next_id: str, page: int, last: int, row: int = 0
           ) -> list[TableButton]:
    return [button(prev_id, "◀ Prev", row=row, disabled=page <= 0),
            button(next_id, "Next ▶", row=row, disabled=page >= last)]


# The shown scale: a newcomer (mu 25, sigma 25/3: conservative 0) shows 1000; an average
# player whose rating has firmed up (sigma about 1.5: conservative about 20) about 1500;
# one OpenSkill point is 25 shown points.
SHOWN_BASE = 1000
SHOWN_PER_POINT = 25
RATING_MEANING = ("Ratings start at 1000 and move towards your level as results firm them "
                  "up: about 1500 is an average player with many games.")


def shown_rating(conservative: float) -> int:
    """A conservative rating (mu - 3 sigma) as players read it (never below 0)."""
    return max(0, round(SHOWN_BASE + SHOWN_PER_POINT * conservative))


def rating_text(conservative: float) -> str:
    return str(shown_rating(conservative))


def signed(change: float) -> str:
    """A change of the conservative rating, in shown points: `+37`, `−12`, `±0`."""
    points = round(SHOWN_PER_POINT * change)
    return "±0" if points == 0 else f"{points:+d}".replace("-", "−")


def record_text(r: RatingLike) -> str:
    drawn = f", {r.draws} drawn" if r.draws else ""
    return f"{count(r.games, 'game')}: {r.wins} won, {r.losses} lost{drawn}"


# -- /leaderboard ---------------------------------------------------------------------------


def leaderboard(game: str, page: int, board: BoardLike, bots: Sequence[RatingLike],
                min_games: int, bot_names: Mapping[str, str]) -> Message:
    """One page of a game's board; `bot_names` names each computer player's entity key
    ("b:spades-advanced" -> "Advanced bot")."""
    title = f"{title_of(game)} leaderboard"
    if board.total == 0:
        lines = [f"Nobody has finished a {title_of(game)} match on this server yet. "
                 f"Start one with `/play {game}`."]
    else:
        lines = []
        for index, r in enumerate(board.rows, start=board.first_index):
            if index == board.established:
                lines.append(f"*Fewer than {min_games} games so far:*")
            lines.append(f"**{index + 1}.** <@{r.user_id}> — **{rating_text(r.conservative)}**"
                         f" · {record_text(r)}")
        if not board.rows:
            lines.append("No one on this page.")
    embed = _embed(title, "\n".join(lines))
    if bots:
        embed.add_field(name="Computer players (not ranked)", value=clip(" · ".join(
            f"{bot_names.get(r.player, r.player[2:])}: {rating_text(r.conservative)} "
            f"({record_text(r)})"
            for r in bots[:6]), 1024), inline=False)
    last = max(0, (board.total - 1) // PER_PAGE)
    embed.set_footer(text=f"Page {min(page, last) + 1} of {last + 1} · {RATING_MEANING}")
    items = _pager(ids.make("lb", max(0, page - 1), game), ids.make("lb", page + 1, game),
                   page, last) if board.total > PER_PAGE else []
    return Message(embeds=[embed], buttons=tuple(items) or None, mentions=NO_MENTIONS)


# -- /stats ---------------------------------------------------------------------------------


def trend_text(changes: Sequence[ChangeLike]) -> str:
    """How the rating moved over the latest rated matches (`changes` come newest first):
    `▲ +80 over the last 3 matches (+25 +62 −7, newest last)`. One match is no trend:
    its change is said as it is."""
    if not changes:
        return "no rated match yet"
    steps = [c.change for c in reversed(changes)]
    if len(steps) == 1:
        return f"none yet (one rated match: {signed(steps[0])})"
    total = sum(steps)
    arrow = "▲" if total > 0.02 else "▼" if total < -0.02 else "▬"
    return (f"{arrow} {signed(total)} over the last {len(steps)} matches "
            f"({' '.join(map(signed, steps))}, newest last)")


def figure_lines(game: str, figures: Mapping[str, int]) -> list[str]:
    return text_for(game).figure_lines(figures)


def stats(name: str, ratings: Sequence[RatingLike],
          changes: Mapping[str, Sequence[ChangeLike]],
          figures: Mapping[str, Mapping[str, int]]) -> Message:
    if not ratings:
        return Message(embeds=[_embed(f"Stats for {name}",
                                      f"{name} has not finished a match on this server yet.")],
                       mentions=NO_MENTIONS)
    embed = _embed(f"Stats for {name}", RATING_MEANING)
    for r in ratings[:25]:
        lines = [f"Rating **{rating_text(r.conservative)}**",
                 f"Trend: {trend_text(changes.get(r.game, ()))}",
                 f"{count(r.games, 'game')}: {r.wins} won, {r.losses} lost, {r.draws} drawn",
                 *figure_lines(r.game, figures.get(r.game, {}))]
        embed.add_field(name=title_of(r.game), value=clip("\n".join(lines), 1024),
                        inline=False)
    return Message(embeds=[embed], mentions=NO_MENTIONS)


# -- /history -------------------------------------------------------------------------------

OUTCOME_WORDS = {"win": "Won", "loss": "Lost", "draw": "Draw"}


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:d>"


def _who(player: Any) -> str:
    """As the table named them (a computer player: "Advanced bot", from bot.ai.bot_name)."""
    return str(player.name)


def history_line(entry: Any) -> str:
    partners = [p for p in entry.players if p.side == entry.side and p.seat != entry.seat]
    opponents = [p for p in entry.players if p.side != entry.side]
    totals = [str(t) for t in entry.result.get("totals") or []]
    mine = entry.side
    score = "–".join([totals[mine], *(t for i, t in enumerate(totals) if i != mine)]) \
        if mine < len(totals) else "?"
    unit = text_for(entry.game).score_unit
    parts = [f"**#{entry.match_id} {title_of(entry.game)}** · {_when(entry.finished_at)}",
             f"**{OUTCOME_WORDS.get(entry.outcome, entry.outcome)}** {score}"
             + (f" {unit}" if unit else "")]
    if partners:
        parts.append("with " + ", ".join(map(_who, partners)))
    parts.append("vs " + (", ".join(map(_who, opponents)) or "nobody"))
    return " · ".join(parts)


def history(name: str, user_id: int, page: int, entries: Sequence[Any], more: bool
            ) -> Message:
    if not entries:
        text = (f"{name} has not finished a match on this server yet." if page == 0 else
                "No more matches.")
        embed = _embed(f"Match history of {name}", text)
    else:
        embed = _embed(f"Match history of {name}", "\n".join(map(history_line, entries)))
        embed.set_footer(text=f"Page {page + 1} · newest first · a button shows that "
                              "match's score sheet")
    items: list[TableButton] = [
        button(ids.make("sheet", e.match_id), f"Sheet #{e.match_id}", row=0)
        for e in entries[:HISTORY_PER_PAGE]]
    if page > 0 or more:
        items += _pager(ids.make("hist", user_id, max(0, page - 1)),
                        ids.make("hist", user_id, page + 1), page,
                        page + 1 if more else page, row=1)
    return Message(embeds=[embed], buttons=tuple(items) or None, mentions=NO_MENTIONS)


def score_sheet(sheet: Any) -> Message:
    sides = [str(s) for s in sheet.result.get("sides") or []]
    side_seats = sheet.result.get("side_seats") or []
    names = {p.seat: _who(p) for p in sheet.players}
    header = [f"**{side}**" + (f" ({', '.join(names.get(s, '?') for s in side_seats[i])})"
                               if i < len(side_seats) else "")
              for i, side in enumerate(sides)]
    lines = [" vs ".join(header), ""]
    for deal in sheet.deals:
        labels = [str(line.get("label", "")) for line in deal.detail.get("lines", [])]
        notes = [str(line.get("note", "")) for line in deal.detail.get("lines", [])
                 if line.get("note")]
        label = labels[0] if len(labels) == 1 and labels[0] else f"Deal {deal.deal_no}"
        lines.append(f"{label}: " + " / ".join(str(p) for p in deal.points)
                     + (f" — {'; '.join(notes)}" if notes else ""))
    if not sheet.deals:
        lines.append("No deal scores were recorded for this match.")
    totals = " / ".join(str(t) for t in sheet.result.get("totals") or [])
    lines += ["", f"**Final:** {totals}", str(sheet.result.get("summary", ""))]
    embed = _embed(f"{title_of(sheet.game)} #{sheet.match_id} · score sheet",
                   "\n".join(lines))
    embed.set_footer(text=f"Finished {sheet.finished_at:%Y-%m-%d %H:%M} UTC")
    return Message(embeds=[embed], mentions=NO_MENTIONS)


# -- after a match --------------------------------------------------------------------------


def rating_changes(title: str, names: Mapping[str, str], changes: Sequence[ChangeLike]
                   ) -> Message | None:
    """One line: each entity's new rating and its change (people first)."""
    if not changes:
        return None
    ordered = sorted(changes, key=lambda c: (c.user_id is None, c.player))
    parts = [f"{names.get(c.player, c.player)} "
             f"{rating_text(c.mu_after - 3 * c.sigma_after)} ({signed(c.change)})"
             for c in ordered]
    return Message(content=clip(f"📈 {title} rating changes: " + " · ".join(parts), 2000),
                   mentions=NO_MENTIONS)
