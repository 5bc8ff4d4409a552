"""Laying out legal actions as buttons within Discord's limits (5 rows of 5 buttons).

Short lists are shown whole. Long ones (a bridge auction has up to 38 calls, a Bid Fair
placement 25) are shown in two steps: first a button per group (a bid level, face up or
face down) plus the ungrouped calls (Pass, Double), then the chosen group's actions with a
Back button. The actions themselves always come from the engine's `legal` list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.cards import Card

from .text import SUIT_ORDER, action_label

MAX_ROWS = 5
PER_ROW = 5
SINGLE_SCREEN = 15  # more actions than this are split into groups


@dataclass(frozen=True, slots=True)
class ActionButton:
    action: str
    label: str
    primary: bool = False
    card: Card | None = None  # the card it plays or places (its emoji goes on the button)


@dataclass(frozen=True, slots=True)
class GroupButton:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Layout:
    rows: tuple[tuple[ActionButton | GroupButton, ...], ...]
    back: bool = False  # a Back button to the group screen goes last


CARD_KINDS = frozenset({"play", "crib", "up", "down"})


def group_of(action: str, card_kinds: frozenset[str] = CARD_KINDS) -> tuple[str, str] | None:
    """The (key, label) of the group an action belongs to in two-step menus, or None."""
    kind, _, arg = action.partition(":")
    if kind == "bid" and kind not in card_kinds and arg[:1].isdigit() and not arg.isdigit():
        return ("L" + arg[0], f"Bid {arg[0]}…")
    if kind in ("up", "down"):
        return (kind, "Bid face up…" if kind == "up" else "Place face down…")
    return None


def card_of(action: str, card_kinds: frozenset[str] = CARD_KINDS) -> Card | None:
    """The card an action plays or places, if its kind names a card."""
    kind, _, arg = action.partition(":")
    if kind not in card_kinds:
        return None
    try:
        return Card.parse(arg)
    except ValueError:
        return None


def _button(action: str, card_kinds: frozenset[str]) -> ActionButton:
    return ActionButton(action=action, label=action_label(action), primary=action == "look",
                        card=card_of(action, card_kinds))


def _sorted(actions: Sequence[str], card_kinds: frozenset[str]) -> list[str]:
    """Cards in suit order (spades first), high to low; other actions keep engine order."""
    def key(item: tuple[int, str]) -> tuple[int, int, int]:
        index, action = item
        card = card_of(action, card_kinds)
        if card is None:
            return (0, index, 0)
        return (1, SUIT_ORDER.index(card.suit), -card.rank)
    return [a for _, a in sorted(enumerate(actions), key=key)]


def _rows(items: Sequence[ActionButton | GroupButton],
          room: int = MAX_ROWS) -> tuple[tuple[ActionButton | GroupButton, ...], ...]:
    """Rows of at most five buttons."""
    rows: list[list[ActionButton | GroupButton]] = []
    for item in items:
        if not rows or len(rows[-1]) == PER_ROW:
            rows.append([])
        rows[-1].append(item)
    if len(rows) > room:
        raise ValueError("too many actions for one message")
    return tuple(tuple(r) for r in rows)


def layout(legal: Sequence[str], group: str | None = None,
           card_kinds: frozenset[str] = CARD_KINDS) -> Layout:
    """The buttons for `legal`, optionally opened at one group of a two-step menu."""
    actions = _sorted(legal, card_kinds)
    if len(actions) <= SINGLE_SCREEN and group is None:
        return Layout(rows=_rows([_button(a, card_kinds) for a in actions]))
    grouped: dict[str, list[str]] = {}
    labels: dict[str, str] = {}
    loose: list[str] = []
    for action in actions:
        found = group_of(action, card_kinds)
        if found is None:
            loose.append(action)
        else:
            grouped.setdefault(found[0], []).append(action)
            labels[found[0]] = found[1]
    if group is not None and group in grouped:
        return Layout(rows=_rows([_button(a, card_kinds) for a in grouped[group]],
                                 MAX_ROWS - 1), back=True)
    items: list[ActionButton | GroupButton] = [GroupButton(k, labels[k]) for k in grouped]
    items.extend(_button(a, card_kinds) for a in loose)
    return Layout(rows=_rows(items))
