"""Finding buttons and selects in a stored message's components."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .state import Message

BUTTON = 2


def iter_components(message: Message) -> Iterator[dict[str, Any]]:
    """Every interactive component, in display order (rows, then nested layouts)."""
    stack = list(reversed(message.components))
    while stack:
        comp = stack.pop()
        children = list(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            children.append(comp["accessory"])
        if isinstance(comp.get("component"), dict):
            children.append(comp["component"])
        if children:
            stack.extend(reversed(children))
        if "custom_id" in comp or comp.get("type") == BUTTON:
            yield comp


def buttons(message: Message) -> list[dict[str, Any]]:
    return [c for c in iter_components(message) if c.get("type") == BUTTON]


def custom_ids(message: Message) -> list[str]:
    return [c["custom_id"] for c in iter_components(message) if "custom_id" in c]


def find_component(message: Message, *, custom_id: str | None = None, label: str | None = None,
                   prefix: str | None = None) -> dict[str, Any]:
    """The one component matching exactly one of: custom_id, label, custom_id prefix."""
    found = [c for c in iter_components(message)
             if (custom_id is not None and c.get("custom_id") == custom_id)
             or (label is not None and c.get("label") == label)
             or (prefix is not None and str(c.get("custom_id", "")).startswith(prefix))]
    wanted = custom_id or label or prefix
    if not found:
        shown = [(c.get("label"), c.get("custom_id")) for c in iter_components(message)]
        raise AssertionError(f"no component {wanted!r} on message {message.id}; it has {shown}")
    if len(found) > 1 and custom_id is None:
        raise AssertionError(f"{len(found)} components match {wanted!r} on message {message.id}")
    return found[0]


def button(message: Message, label: str | None = None, *, prefix: str | None = None,
           custom_id: str | None = None) -> dict[str, Any]:
    """A button by label, custom_id prefix or custom_id (its dict: custom_id, label, ...)."""
    return find_component(message, custom_id=custom_id, label=label, prefix=prefix)
