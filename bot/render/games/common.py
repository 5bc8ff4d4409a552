"""Pieces several games' texts share: score lines, tricks, the auction grid.

Everything here formats what it is given; the callers pass only what their view (or the
finished deal's public summary) holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot.games.base import ScoreLine
from bot.games.cards import Card, Suit
from bot.games.tricks import Trick
from bot.render.emojis import card_text
from bot.render.text import count

Namer = Callable[[int], str]
plural = count  # `3 tricks`: a count spelled one way everywhere

MATCH_OVER = "The match is over: the final standings are posted in the channel."

# The bridge games' /stats ratios: both count declarers' contracts the same way
# (bot/ratings/figures/bridge.py).
DECLARER_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("Contracts made as declarer", "made", "declared"),
    ("Slams made", "slams_made", "slams_bid"))

# Room kept for an auction grid inside an embed field (1024) or a hand message (2000).
GRID_LIMIT = 900


def play_lines(plays: Sequence[tuple[int, Card]], name: Namer,
               order: Sequence[int] | None = None) -> str:
    """`North (Ann): **Q♥**` per card, the card just played marked `◀`. In the order
    played, or by position (`order`: the players around the table, clockwise from the
    top; four of them as a compass: top, then left · right, then bottom), with `—` for
    whoever has not played yet."""
    if not plays:
        return "—"
    newest = plays[-1][0]

    def line(who: int, card: Card | None) -> str:
        if card is None:
            return f"{name(who)}: —"
        return f"{name(who)}: **{card_text(card)}**" + (" ◀" if who == newest else "")

    if order is None:
        return "\n".join(line(who, card) for who, card in plays)
    played = dict(plays)
    if len(order) == 4:  # a compass in three lines: top; left · right; bottom
        top, right, bottom, left = (line(who, played.get(who)) for who in order)
        return f"{top}\n{left} · {right}\n{bottom}"
    return "\n".join(line(who, played.get(who)) for who in order)


def plays_inline(plays: Iterable[tuple[int, Card]], name: Namer) -> str:
    """`North Q♥ · East 2♥` on one line."""
    return " · ".join(f"{name(who)} {card_text(card)}" for who, card in plays) or "—"


def trick_history(tricks: Sequence[Trick], letter: Namer) -> str:
    """One line per complete trick, from its leader, the winning card in bold:
    `3. W K♠ · N **A♠** · E 2♠ · S 5♠`."""
    return "\n".join(
        f"{number}. " + " · ".join(
            f"{letter(who)} " + (f"**{card_text(card)}**" if who == trick.winner
                                 else card_text(card))
            for who, card in trick.cards)
        for number, trick in enumerate(tricks, start=1))


def follow_hint(trick: Sequence[tuple[int, Card]], hand: Sequence[Card]) -> str:
    """What the rules ask of the next card, said briefly (empty when leading)."""
    if not trick:
        return ""
    led = trick[0][1].suit
    if any(c.suit == led for c in hand):
        return f" (follow {led.symbol} {led.title.lower()})"
    return f" (no {led.title.lower()} left: any card)"


def score_lines(lines: Iterable[ScoreLine], sides: Sequence[str],
                signed: bool = True, first_note: bool = True) -> list[str]:
    """A deal's score lines: `Deal 3: North-South +120, East-West 0 — 4♠ by South, made`.
    Without `first_note` the first line's note starts after its first "; ": the part
    before it is the contract's result, said above it; what follows (honours) and the
    notes of later lines (a rubber's bonus) stay."""
    out = []
    for index, line in enumerate(lines):
        points = ", ".join(f"{side} {p:+d}" if p and signed else f"{side} {p}"
                           for side, p in zip(sides, line.points, strict=False))
        note = line.note if first_note or index else line.note.partition("; ")[2]
        out.append(f"{line.label}: {points}" + (f" — {note}" if note else ""))
    return out


# -- the bridge auction grid ----------------------------------------------------------

_CALL_MARKS = {"pass": "Pass", "double": "X", "redouble": "XX"}
_STRAINS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT", "N": "NT"}


def call_label(text: str) -> str:
    """A call as an auction grid writes it: `1♣`, `2NT`, `X`, `XX`, `Pass`."""
    if text in _CALL_MARKS:
        return _CALL_MARKS[text]
    bid = text.removeprefix("bid:")
    return bid[:1] + _STRAINS.get(bid[1:].upper(), bid[1:])


def auction_line(calls: Iterable[str]) -> str:
    """A finished auction on one line: `1♥ Pass 2NT Pass 3NT Pass Pass Pass`."""
    return " ".join(call_label(text) for text in calls) or "—"


def grid(columns: Sequence[str], calls: Sequence[tuple[int, str]], next_to_call: int | None,
         limit: int = GRID_LIMIT) -> str:
    """The auction as a monospace grid, one column per caller, dealer's row first.

    `calls` are (column, label) in calling order; a row ends after the last column, so the
    first row leaves the cells before the dealer empty. `next_to_call` marks the next cell
    with `?`. When the grid is too long for `limit` only its latest rounds are kept.
    """
    width = max(5, *(len(c) for c in columns)) + 1
    cells = list(calls)
    if next_to_call is not None:
        cells.append((next_to_call, "?"))
    rows: list[list[str]] = []
    row: list[str] = [""] * len(columns)
    for column, label in cells:
        if column == 0 and any(row):
            rows.append(row)
            row = [""] * len(columns)
        row[column] = label
    if any(row):
        rows.append(row)

    def line(items: Sequence[str]) -> str:
        return "".join(item.ljust(width) for item in items).rstrip()

    body = [line(r) for r in rows]
    head = line(columns)
    dropped = 0
    while body and len(head) + sum(len(b) + 1 for b in body) + 40 > limit:
        body.pop(0)
        dropped += 1
    if dropped:
        body.insert(0, f"({plural(dropped, 'earlier round')} not shown)")
    if not body:
        body = ["(no calls yet)"]
    return "```\n" + "\n".join([head, *body]) + "\n```"


def suit_word(suit: Suit | None) -> str:
    """`♥ hearts`, or `notrump`."""
    return "notrump" if suit is None else f"{suit.symbol} {suit.title.lower()}"
