"""A team match's messages: its lobby, its running score card (a message kept current in
the channel) and the score card's picture at the end.

Buttons (`tt:<verb>:<team match id>[:<team>]`): `tmjoin:<id>:A` / `:B` joins a team,
`tmleave` leaves, `tmstart` opens the two tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import discord

from bot.games.team_scoring import ComparedBoard, ScoreCard, TableBoard

from . import ids
from .components import button
from .messages import Message
from .pictures.score_table import Line, Row, score_table_png
from .pictures.shapes import INK

COLOUR = discord.Colour.dark_green()
PLACES_TEXT = {"A": "N-S at table 1, E-W at table 2",
               "B": "E-W at table 1, N-S at table 2"}
Teams = Mapping[str, Sequence[str]]


def lobby(match_id: int, boards: int, teams: Teams, bot_name: str) -> Message:
    embed = discord.Embed(
        title=f"Team match · {boards} boards", colour=COLOUR,
        description=("Two tables play the same boards, each in its own thread. A board is "
                     "compared in IMPs once both tables have played it. Up to 4 people a "
                     f"team; {bot_name}s take the empty seats."))
    for team in ("A", "B"):
        names = teams.get(team, ())
        embed.add_field(name=f"Team {team} · {len(names)}/4",
                        value=f"{', '.join(names) or 'nobody yet'}\n*{PLACES_TEXT[team]}*",
                        inline=False)
    buttons = (button(ids.make("tmjoin", match_id, "A"), "Join team A",
                      discord.ButtonStyle.primary),
               button(ids.make("tmjoin", match_id, "B"), "Join team B",
                      discord.ButtonStyle.primary),
               button(ids.make("tmleave", match_id), "Leave"),
               button(ids.make("tmstart", match_id), "Start", discord.ButtonStyle.success))
    return Message(embeds=[embed], buttons=buttons,
                   mentions=discord.AllowedMentions.none())


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else ("0" if points == 0 else f"-{-points}")


SHORT = ((" by North", " N"), (" by East", " E"), (" by South", " S"), (" by West", " W"),
         (" by ", " "), (", made +", "+"), (", made", "="), (", down ", "-"), (", +", "+"))
# A result stored before contracts were written in words: `4♠X by North, +1`.
_MARKED = re.compile(r"(?<=[♠♥♦♣T])(XX|X)(?= by )")


def contract_note(note: str) -> str:
    """A board's stored result as every contract is shown (`Contract.label`: doubling in
    words), results stored in the older form (`4♠X`) included."""
    return _MARKED.sub(lambda m: " redoubled" if m.group(1) == "XX" else " doubled", note)


def short_contract(note: str) -> str:
    """A result as bridge players write it, short for a phone: `4♠ doubled by North,
    down 2` as `4♠ doubled N-2`, `made +1` as `+1`, `made` as `=`."""
    if not note:
        return "passed"
    note = contract_note(note)
    for long, short in SHORT:
        note = note.replace(long, short)
    return note


def board_line(board: ComparedBoard) -> str:
    """One compared board, short enough for a phone: the contract and North-South's score
    at each table, then the IMPs to the team that won them."""
    won = board.imps_a
    verdict = (f"**{won} A**" if won > 0 else f"**{-won} B**" if won < 0 else "0")
    return (f"`{board.board:>2}` {short_contract(board.first.note)} "
            f"{signed(board.first.ns_score)} · {short_contract(board.second.note)} "
            f"{signed(board.second.ns_score)} → {verdict}")


def card_message(boards: int, card: ScoreCard, teams: Teams,
                 threads: Sequence[int] = (), status: str = "playing") -> Message:
    """The running score card: every compared board, and the total in IMPs."""
    a, b = card.imps
    names = {team: ", ".join(teams.get(team, ())) or "computer players" for team in "AB"}
    headline = {"playing": "Team match", "finished": "Team match · final",
                "abandoned": "Team match · abandoned"}.get(status, "Team match")
    embed = discord.Embed(title=f"{headline}: A {a} – {b} B IMPs", colour=COLOUR)
    lines = [f"**A**: {names['A']}", f"**B**: {names['B']}"]
    if threads:
        lines.append("Tables: " + " · ".join(f"<#{t}>" for t in threads))
    lines.append(f"Compared {len(card.compared)} of {boards} boards (played: table 1 "
                 f"{card.played[0]}, table 2 {card.played[1]}).")
    if card.compared:
        lines.append("*Board: table 1 · table 2 (North-South's scores) → IMPs*")
    if card.compared:
        lines += ["", *(board_line(board) for board in card.compared)]
    if status == "finished":
        winner = card.winner()
        lines.append("")
        lines.append(f"**Team {winner} wins by {abs(a - b)} IMPs.**" if winner else
                     "**The match is a tie.**")
    elif status == "abandoned":
        lines += ["", "A table was abandoned, so the match stopped; it does not count."]
    embed.description = "\n".join(lines)[:4096]
    return Message(embeds=[embed], mentions=discord.AllowedMentions.none())


def final_line(card: ScoreCard) -> str:
    a, b = card.imps
    winner = card.winner()
    if winner is None:
        return f"The team match is over: a tie, {a}–{b} IMPs."
    return f"The team match is over: team {winner} wins {max(a, b)}–{min(a, b)} IMPs."


def leaderboard_embed(rows: Sequence[tuple[int, int, int, int, int]]) -> discord.Embed:
    """Rows of (user id, played, won, tied, IMP balance), best first."""
    embed = discord.Embed(title="Team matches · leaderboard", colour=COLOUR)
    if not rows:
        embed.description = "No team match has finished in this server yet: /match teams."
        return embed
    lines = [f"{place}. <@{user}> · {won} won of {played}"
             + (f", {tied} tied" if tied else "") + f" · {signed(imps)} IMPs"
             for place, (user, played, won, tied, imps) in enumerate(rows[:20], 1)]
    embed.description = "\n".join(lines)
    return embed


def history_embed(rows: Sequence[tuple[int, int, Sequence[str], Sequence[str], int, int]]
                  ) -> discord.Embed:
    """Rows of (team match id, boards, team A's names, team B's, IMPs A, IMPs B)."""
    embed = discord.Embed(title="Team matches · recent", colour=COLOUR)
    if not rows:
        embed.description = "No team match has finished in this server yet: /match teams."
        return embed
    embed.description = "\n".join(
        f"#{match_id} · {boards} boards · A ({', '.join(a) or 'bots'}) {ia} – {ib} "
        f"B ({', '.join(b) or 'bots'})" for match_id, boards, a, b, ia, ib in rows)[:4096]
    return embed


# -- the picture -------------------------------------------------------------------------

PICTURE_NAME = "team-match.png"


def card_png(boards: int, card: ScoreCard, teams: Teams) -> bytes:
    """The final score card as a picture: a row per board, the totals at the top."""
    a, b = card.imps
    winner = card.winner()
    title = (f"Team {winner} wins {max(a, b)}–{min(a, b)} IMPs" if winner
             else f"Tie, {a}–{b} IMPs")
    lines = [Line(f"{team}: {', '.join(teams.get(team, ())) or 'computer players'}"[:60],
                  22, INK) for team in "AB"]

    def cell(side: TableBoard) -> tuple[tuple[str, ...], str]:
        if not side.note:
            return ("passed out",), signed(side.ns_score)
        return (contract_note(side.note), short_contract(side.note)), signed(side.ns_score)
    rows = [Row(board.board, (cell(board.first), cell(board.second)),
                f"{board.imps_a} A" if board.imps_a > 0 else
                f"{-board.imps_a} B" if board.imps_a < 0 else "0", board.imps_a != 0)
            for board in card.compared]
    return score_table_png(title, lines, ("Board", "Table 1", "Table 2", "IMPs"), rows, 24)
