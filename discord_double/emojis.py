"""Application emojis: list and create them (Discord's rules), and check every emoji a
message uses is one the application owns.

Discord refuses a button whose emoji it does not know (50035 "Invalid emoji"); an unknown
emoji in text is shown as plain `:name:`, which for a test is just as much a bug, so both
are violations.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .bodies import read_body
from .state import AppEmoji, DoubleState

if TYPE_CHECKING:
    from .server import DiscordDouble

APP_EMOJIS_MAX = 2000
EMOJI_BYTES_MAX = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
IN_TEXT = re.compile(r"<a?:([A-Za-z0-9_]{2,32}):(\d+)>")
DATA_URI = re.compile(r"data:image/(png|jpeg|gif);base64,(.*)", re.DOTALL)


def payload(state: DoubleState, emoji: AppEmoji) -> dict[str, Any]:
    from . import payloads

    return {"id": str(emoji.id), "name": emoji.name, "roles": [],
            "user": payloads.user(state.owner), "require_colons": True, "managed": False,
            "animated": False, "available": True}


def _ours(double: DiscordDouble, request: web.Request) -> bool:
    return request.match_info["app_id"] == str(double.state.application_id)


async def list_emojis(double: DiscordDouble, request: web.Request) -> web.Response:
    from .server import error, reply

    if not _ours(double, request):
        return error(404, 10002, "Unknown Application")
    state = double.state
    return reply({"items": [payload(state, e) for e in state.app_emojis.values()]})


async def create_emoji(double: DiscordDouble, request: web.Request) -> web.Response:
    from .server import error, reply

    if not _ours(double, request):
        return error(404, 10002, "Unknown Application")
    body, _ = await read_body(request)
    state = double.state
    name = body.get("name")
    problems = []
    if not isinstance(name, str) or NAME.fullmatch(name) is None:
        problems.append(f"emoji name {name!r}: 2 to 32 letters, digits or underscores")
    elif any(e.name == name for e in state.app_emojis.values()):
        problems.append(f"the application already has an emoji named {name!r}")
    found = DATA_URI.fullmatch(str(body.get("image") or ""))
    image = b""
    if found is None:
        problems.append("image is not a PNG, JPEG or GIF data URI")
    else:
        try:
            image = base64.b64decode(found.group(2), validate=True)
        except binascii.Error:
            problems.append("image is not valid base64")
        if len(image) > EMOJI_BYTES_MAX:
            problems.append(f"image has {len(image)} bytes (at most {EMOJI_BYTES_MAX})")
    if len(state.app_emojis) >= APP_EMOJIS_MAX:
        return error(400, 30018, "Maximum number of emojis reached")
    if problems:
        for problem in problems:
            double.violation("emoji", problem, request)
        return error(400, 50035, "Invalid Form Body: " + "; ".join(problems))
    emoji = AppEmoji(state.snowflakes.next(), str(name), image)
    state.app_emojis[emoji.id] = emoji
    return reply(payload(state, emoji), 201)


def _component_emojis(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    stack = list(components)
    while stack:
        comp = stack.pop()
        if isinstance(comp.get("emoji"), dict):
            yield comp["emoji"]
        stack.extend(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])


def _texts(body: dict[str, Any]) -> Iterator[str]:
    if isinstance(body.get("content"), str):
        yield body["content"]
    for embed in body.get("embeds") or []:
        yield str(embed.get("title") or "")
        yield str(embed.get("description") or "")
        for fld in embed.get("fields") or []:
            yield str(fld.get("name") or "")
            yield str(fld.get("value") or "")
    for comp in body.get("components") or []:  # Components V2 text displays
        stack = [comp]
        while stack:
            item = stack.pop()
            if isinstance(item.get("content"), str):
                yield item["content"]
            stack.extend(item.get("components") or [])


def unknown_in_components(state: DoubleState, body: dict[str, Any]) -> list[str]:
    """Custom emojis on components that the application does not own (Discord refuses)."""
    problems = []
    for emoji in _component_emojis(body.get("components") or []):
        emoji_id = emoji.get("id")
        if emoji_id is None:
            continue  # a unicode emoji
        known = state.app_emojis.get(int(emoji_id))
        if known is None or known.name != emoji.get("name", known.name):
            problems.append(f"Invalid emoji: {emoji.get('name')!r} ({emoji_id}) on a "
                            "component is not one of the application's emojis")
    return problems


def unknown_in_text(state: DoubleState, body: dict[str, Any]) -> list[str]:
    """Custom emojis written in text that the application does not own (shown as text)."""
    problems = []
    for text in _texts(body):
        for name, emoji_id in IN_TEXT.findall(text):
            known = state.app_emojis.get(int(emoji_id))
            if known is None or known.name != name:
                problems.append(f"emoji <:{name}:{emoji_id}> in text is not one of the "
                                "application's emojis")
    return problems


ROUTES = [
    ("GET", "/applications/{app_id}/emojis", list_emojis),
    ("POST", "/applications/{app_id}/emojis", create_emoji),
]
