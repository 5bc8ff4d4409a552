"""A message as Discord's Components V2 layout, built from the same `Message` as its embed.

Components V2 (message flag 1 << 15) replaces `content` and `embeds` with layout
components: a container with an accent colour holding text displays, separators, a media
gallery for a picture and the buttons' action rows. This builds that body from a rendered
message, so the two forms can be drawn side by side (`bot.render.preview`) and compared
from the very bodies Discord would get. Which form each message uses is said in
docs/components-v2.md.

Written for the V2 layout rather than copied field by field: a field with a one-line
value reads `**Name**: value` on one line (no line of its own for the name), the picture
comes before the text it illustrates, and the buttons sit inside the container.
"""

from __future__ import annotations

from typing import Any

from .messages import Message

IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR, CONTAINER = 1, 9, 10, 12, 14, 17
MAX_COMPONENTS = 40  # in all, nested ones counted
MAX_TEXT = 4000  # characters over all text displays


def text(content: str) -> dict[str, Any]:
    return {"type": TEXT_DISPLAY, "content": content}


def separator(large: bool = False) -> dict[str, Any]:
    return {"type": SEPARATOR, "divider": True, "spacing": 2 if large else 1}


def _field_text(name: str, value: str) -> str:
    if "\n" in value or value.startswith("```"):
        return f"**{name}**\n{value}"
    return f"**{name}**: {value}"


def v2_body(message: Message, picture_first: bool = False) -> dict[str, Any]:
    """The Components V2 body for `message` (its first embed; a message without one is a
    single text display). `picture_first`: the attached picture opens the container."""
    inside: list[dict[str, Any]] = []
    top: list[dict[str, Any]] = []
    if message.content:  # a ping ("@Ann — your turn."): above the container, read first
        top.append(text(message.content))
    embed: dict[str, Any] | None = dict(message.embeds[0].to_dict()) if message.embeds else None
    accent = None
    gallery: dict[str, Any] | None = None
    if embed is not None:
        accent = embed.get("color")
        head = f"### {embed.get('title', '')}"
        if embed.get("description"):
            head += "\n" + str(embed["description"])
        inside.append(text(head))
        fields = embed.get("fields", [])
        if fields:
            inside.append(separator())
            inside.append(text("\n".join(_field_text(f["name"], f["value"]) for f in fields)))
        image = (embed.get("image") or {}).get("url")
        if image:
            description = message.picture.description if message.picture else ""
            item: dict[str, Any] = {"media": {"url": image}}
            if description:
                item["description"] = description[:1024]
            gallery = {"type": MEDIA_GALLERY, "items": [item]}
            if picture_first:
                inside.insert(0, gallery)
            else:
                inside += [separator(), gallery]
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            inside.append(text(f"-# {footer}"))
    rows = message.components()
    if embed is None:
        return {"flags": IS_COMPONENTS_V2, "components": [*top, *rows],
                "allowed_mentions": message.mentions.to_dict()}
    container: dict[str, Any] = {"type": CONTAINER, "components": [*inside, *rows]}
    if accent is not None:
        container["accent_color"] = accent
    return {"flags": IS_COMPONENTS_V2, "components": [*top, container],
            "allowed_mentions": message.mentions.to_dict()}


def count_components(components: list[dict[str, Any]]) -> int:
    """Every component, nested ones included (Discord's limit is 40)."""
    return sum(1 + ("accessory" in c) + count_components(c.get("components", []))
               for c in components)


def text_length(components: list[dict[str, Any]]) -> int:
    """Characters over all text displays (Discord's limit is 4,000)."""
    return sum((len(c.get("content", "")) if c.get("type") == TEXT_DISPLAY else 0)
               + text_length(c.get("components", [])) for c in components)
