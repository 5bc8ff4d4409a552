"""Text pieces shared by every game's messages: cards, hands by suit, action labels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games.cards import Card, Suit, by_suit

from .emojis import card_text, current

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
STRAIN_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}


def cards_inline(cards: Iterable[Card]) -> str:
    text = " ".join(card_text(c) for c in cards)
    return text or "—"


def hand_lines(hand: Iterable[Card]) -> list[str]:
    """One line per suit, spades first, high to low: `♠ A K 7 3`; a void shows a dash.
    With card emojis each line is the suit's cards as a row of emojis."""
    groups = by_suit(hand)
    emojis = current()
    if emojis.enabled:
        return [f"{suit.symbol} " + ("".join(emojis.text(c) for c in groups[suit]) or "—")
                for suit in SUIT_ORDER]
    return [f"{suit.symbol} " + (" ".join(c.rank.label for c in groups[suit]) or "—")
            for suit in SUIT_ORDER]


def hand_block(hand: Iterable[Card]) -> str:
    return "\n".join(hand_lines(hand))


def hand_pairs(hand: Iterable[Card]) -> str:
    """A hand in two lines, two suits a line (♠ ♥, then ♦ ♣): a dummy on a phone screen."""
    lines = hand_lines(hand)
    return f"{lines[0]}   {lines[1]}\n{lines[2]}   {lines[3]}"


def hand_compact(hand: Iterable[Card]) -> str:
    """One line for a whole hand: `♠AK73 ♥J4 ♦— ♣Q10852`."""
    groups = by_suit(hand)
    return " ".join(
        suit.symbol + ("".join(c.rank.label for c in groups[suit]) or "—") for suit in SUIT_ORDER)


def strain_label(text: str) -> str:
    """`3NT` -> `3NT`, `4S` -> `4♠`."""
    level, strain = text[:1], text[1:]
    return level + STRAIN_SYMBOLS.get(strain, strain)


def action_label(action: str) -> str:
    """How a button names an action: `play:QH` -> `Q♥`, `bid:3NT` -> `3NT`, `pass` -> `Pass`."""
    kind, _, arg = action.partition(":")
    if kind in ("play", "crib") and arg:
        return Card.parse(arg).label
    if kind == "up" and arg:
        return f"{Card.parse(arg).label} up"
    if kind == "down" and arg:
        return f"{Card.parse(arg).label} down"
    if kind == "bid":
        if arg == "nil":
            return "Nil"
        if arg == "double_nil":
            return "Double Nil"
        if arg.isdigit():
            return arg
        if len(arg) in (2, 3) and arg[:1].isdigit():
            return strain_label(arg)
        try:
            return Card.parse(arg).label
        except ValueError:
            return arg
    if kind == "dummy":
        return "Take the revealed dummy" if arg == "revealed" else "Take the hidden dummy"
    named = {"pass": "Pass", "double": "Double", "redouble": "Redouble",
             "look": "Look at my hand", "exchange": "Exchange with the crib",
             "keep": "Keep my hand", "accept": "Accept", "reject": "Reject"}
    return named.get(action, action)


def latest_within(lines: Sequence[str], budget: int) -> list[str]:
    """The last of `lines` that fit in `budget` characters (a newline after each), in
    their order: what a message keeps of something too long to show whole."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        used += len(line) + 1
        if used > budget:
            break
        kept.append(line)
    kept.reverse()
    return kept


def clip(text: str, limit: int) -> str:
    """Keep within a Discord limit, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`1 game`, `3 games`, `0 games`: a number with its noun in agreement."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
