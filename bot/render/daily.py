"""Daily deals' messages: a day's standings and boards (for a viewer, or the end-of-day
post), and the daily leaderboard. Takes the day's results as plain objects (duck-typed:
bot.tables.daily.DayResults), so this layer needs nothing from the table layer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games import game_class
from bot.games.bridge_scoring import board_dealer, board_vulnerability
from bot.games.cards import Card, by_suit

from .text import clip

COLOUR = discord.Colour.dark_gold()
SEATS = "NESW"
_VUL = {(False, False): "none vul", (True, False): "N-S vul", (False, True): "E-W vul",
        (True, True): "all vul"}


def hand_line(cards: Sequence[str]) -> str:
    """`♠ A K 5 ♥ Q J 3 ♦ 10 9 8 ♣ 7 6 5 4` (— for a void)."""
    groups = by_suit(Card.parse(text) for text in cards)
    return " ".join(f"{suit.symbol} " + (" ".join(c.rank.label for c in held) or "—")
                    for suit, held in groups.items())


def _signed(value: float) -> str:
    return f"{value:+.1f}"


def standings_lines(results: Any, scoring: str, places: Sequence[tuple[int, Any]]) -> list[str]:
    if not places:
        return ["Nobody has finished a board yet."]
    lines = []
    for place, s in places:
        figure = (f"{_signed(s.imps)} IMPs" if scoring == "imps" else f"{s.percent:.1f}%")
        plural = "s" if s.boards != 1 else ""
        lines.append(f"{place}. **{s.name}** — {figure} ({s.boards} board{plural})")
    return lines


def board_field(game: str, board: int, results: Sequence[Any],
                hands: dict[str, list[str]] | None, scoring: str) -> tuple[str, str]:
    """One board: its hands (the hand record) and every result with its contract."""
    if game == "bridge":
        name = (f"Board {board} · dealer {SEATS[board_dealer(board)]} · "
                f"{_VUL[board_vulnerability(board)]}")
    else:
        name = f"Deal {board}"
    lines: list[str] = []
    if hands:
        for seat in range(4):
            cards = hands.get(str(seat))
            if cards:
                lines.append(f"`{SEATS[seat]}` {hand_line(cards)}")
    for r in results:
        figure = _signed(r.imps) + " IMPs" if scoring == "imps" else f"{r.percent:.0f}%"
        score = f"{r.score:+d}" if game == "bridge" else str(r.score)
        lines.append(f"**{r.name}**: {r.note or '—'} · {score} · {figure}")
    return name, clip("\n".join(lines), 900)  # four boards and the standings: < 6000


def day_embed(results: Any, places: Sequence[tuple[int, Any]], scoring: str,
              hidden: Sequence[int] = (), final: bool = False) -> discord.Embed:
    """The day's standings and each board shown; `hidden` boards are named, not shown."""
    title = game_class(results.game).TITLE
    state = "final standings" if final else "standings so far"
    embed = discord.Embed(title=f"Daily {title} · {results.day} · {state}",
                          description=clip("\n".join(standings_lines(results, scoring,
                                                                     places)), 1800),
                          colour=COLOUR)
    for board in sorted(results.boards):
        name, value = board_field(results.game, board, results.boards[board],
                                  results.hands.get(board), scoring)
        embed.add_field(name=name, value=value or "—", inline=False)
    if hidden:
        shown = ", ".join(str(b) for b in hidden)
        embed.add_field(name="Not shown yet", value=(
            f"Board{'s' if len(hidden) > 1 else ''} {shown}: the field's results appear "
            "once you have played them (`/daily " + results.game + "`)."), inline=False)
    scoring_note = ("cross-IMPs: each result against every other, averaged"
                    if scoring == "imps" else "matchpoints: 2 per result beaten, 1 per tie")
    embed.set_footer(text=f"Scored by {scoring_note}.")
    return embed


def leaderboard_embed(game: str, rows: Sequence[Any]) -> discord.Embed:
    title = game_class(game).TITLE
    if not rows:
        text = "No finished days yet. Play with `/daily " + game + "`."
    else:
        text = "\n".join(
            f"{i}. <@{row.user_id}> — {row.wins} day{'s' if row.wins != 1 else ''} won · "
            f"{row.average:.1f}% average over {row.days} day{'s' if row.days != 1 else ''}"
            for i, row in enumerate(rows[:25], start=1))
    return discord.Embed(title=f"Daily {title} · leaderboard", description=clip(text, 4096),
                         colour=COLOUR)
