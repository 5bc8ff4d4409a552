"""Every card a view (or any engine value) holds: the privacy tests' common tool."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from bot.games.cards import Card


def cards_in(obj: object, skip: Collection[str] = ()) -> set[Card]:
    """Cards reachable through dataclass fields (except those named in `skip`), tuples,
    lists, sets and dict keys and values."""
    found: set[Card] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item)
                         if f.name not in skip)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
    return found
