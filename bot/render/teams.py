"""A team match's messages: its lobby, its running score card (a message kept current in
the channel) and the score card's picture at the end.

Buttons (`tt:<verb>:<team match id>[:<team>]`): `tmjoin:<id>:A` / `:B` joins a team,
`tmleave` leaves, `tmstart` opens the two tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord
from PIL import ImageDraw

from bot.games.cards import Suit
from bot.games.team_scoring import ComparedBoard, ScoreCard

from . import ids
from .components import button
from .messages import Message
from .pictures.shapes import FELT, GOLD, INK, MUTED, SCALE, WHITE, canvas, draw_suit, finish
from .pictures.shapes import font as picture_font
from .pictures.shapes import png as encode_png

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
         (" by ", " "), (", made", "="), (", down ", "-"), (", +", "+"))


def short_contract(note: str) -> str:
    """A result as bridge players write it: `4♠ by N, down 2` as `4♠ N-2`."""
    if not note:
        return "passed"
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

WIDTH = 800
ROW = 44
SYMBOLS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
PICTURE_NAME = "team-match.png"


def _text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int,
          fill: tuple[int, int, int], scale: int) -> float:
    """Draw `text` at (x, y) in picture units, suit symbols as shapes; returns the end x."""
    face = picture_font(size * scale)
    text = text.translate(_PLAIN)
    for char_run in _runs(text):
        if char_run in SYMBOLS:
            side = size * 0.8
            box = (x * scale, (y + size * 0.15) * scale, (x + side) * scale,
                   (y + size * 0.15 + side) * scale)
            suit = SYMBOLS[char_run]
            colour = (232, 64, 64) if suit in (Suit.HEARTS, Suit.DIAMONDS) else WHITE
            draw_suit(draw, suit, box, colour)
            x += side + 2
        else:
            draw.text((x * scale, y * scale), char_run, font=face, fill=fill)
            x += face.getlength(char_run) / scale
    return x


_PLAIN = str.maketrans({"–": "-", "−": "-", "×": "x"})  # not in the picture font


def _width(text: str, size: int) -> float:
    return picture_font(size).getlength(text.translate(_PLAIN))


def _runs(text: str) -> list[str]:
    out: list[str] = []
    for char in text:
        if char in SYMBOLS or not out or out[-1] in SYMBOLS:
            out.append(char)
        else:
            out[-1] += char
    return out


def card_png(boards: int, card: ScoreCard, teams: Teams) -> bytes:
    """The final score card as a picture: a row per board, the totals at the top."""
    rows = len(card.compared)
    height = 150 + ROW * (rows + 1) + 24
    image, draw = canvas(WIDTH, height, (*FELT, 255))
    a, b = card.imps
    winner = card.winner()
    title = (f"Team {winner} wins {max(a, b)}–{min(a, b)} IMPs" if winner
             else f"Tie, {a}–{b} IMPs")
    _text(draw, 24, 16, title, 34, GOLD, SCALE)
    for i, team in enumerate("AB"):
        names = ", ".join(teams.get(team, ())) or "computer players"
        _text(draw, 24, 64 + 30 * i, f"{team}: {names}"[:60], 22, INK, SCALE)
    y = 150
    columns = (24, 100, 380, 680)
    for x, label in zip(columns, ("Board", "Table 1", "Table 2", "IMPs"), strict=True):
        _text(draw, x, y, label, 20, MUTED, SCALE)
    for board in card.compared:
        y += ROW
        if board.board % 2 == 0:
            draw.rectangle((0, (y - 6) * SCALE, WIDTH * SCALE, (y + ROW - 6) * SCALE),
                           fill=(18, 80, 50, 255))
        _text(draw, columns[0] + 16, y, str(board.board), 24, INK, SCALE)
        for x, side in ((columns[1], board.first), (columns[2], board.second)):
            end = _text(draw, x, y, side.note or "passed out", 20, INK, SCALE)
            score = signed(side.ns_score)
            _text(draw, max(end + 8, x + 250 - _width(score, 22)), y, score, 22, WHITE,
                  SCALE)
        won = board.imps_a
        text = f"{won} A" if won > 0 else f"{-won} B" if won < 0 else "0"
        _text(draw, columns[3], y, text, 24, GOLD if won else MUTED, SCALE)
    return encode_png(finish(image), fast=True)
