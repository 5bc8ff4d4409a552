"""Reading request bodies (JSON or multipart with payload_json) and turning them into messages."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from .state import EPHEMERAL, LOADING, Attachment, DoubleState, Version


@dataclass(frozen=True)
class Upload:
    field: str  # "files[0]"
    filename: str
    data: bytes
    content_type: str

    @property
    def index(self) -> int | None:
        inside = self.field.partition("[")[2].rstrip("]")
        return int(inside) if inside.isdigit() else None


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """The JSON payload and any uploaded files, as discord.py sends them."""
    if request.content_type == "multipart/form-data":
        payload: dict[str, Any] = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                uploads.append(Upload(
                    part.name or "", part.filename or "", bytes(await part.read()),
                    part.headers.get("Content-Type", "application/octet-stream")))
        return payload, uploads
    if not request.can_read_body:
        return {}, []
    raw = await request.read()
    if not raw:
        return {}, []
    data = json.loads(raw)
    return (data if isinstance(data, dict) else {"_list": data}), []


def _attachments(state: DoubleState, body: dict[str, Any], uploads: list[Upload],
                 previous: list[Attachment]) -> list[Attachment]:
    """Kept attachments (listed by id) plus new uploads (listed by their upload index)."""
    by_index = {u.index: u for u in uploads}
    described = {str(a.get("id")): a for a in body.get("attachments") or []}
    fresh = []
    for upload in uploads:
        meta = described.get(str(upload.index), {})
        fresh.append(Attachment(
            state.snowflakes.next(), meta.get("filename") or upload.filename, upload.data,
            upload.content_type, meta.get("description")))
    if "attachments" not in body:
        return [*previous, *fresh]
    kept = [a for a in previous if str(a.id) in described and a.id not in by_index]
    return [*kept, *fresh]


def new_version(state: DoubleState, body: dict[str, Any], uploads: list[Upload],
                previous: Version | None, *, forced_flags: int | None = None) -> Version:
    """The message after applying a create (previous None) or an edit body."""
    def pick(key: str, empty: Any) -> Any:
        if key in body:
            return body[key] if body[key] is not None else empty
        return getattr(previous, key) if previous is not None else empty

    if previous is None:
        flags = body.get("flags") or 0
    else:
        # The ephemeral bit never changes; an edit finishes a "thinking" message.
        flags = (previous.flags & EPHEMERAL) | ((body.get("flags") or 0) & ~EPHEMERAL & ~LOADING)
        if "flags" not in body:
            flags |= previous.flags & ~LOADING
    if forced_flags is not None:
        flags = forced_flags
    return Version(
        content=pick("content", ""), embeds=list(pick("embeds", [])),
        components=list(pick("components", [])),
        attachments=_attachments(state, body, uploads, previous.attachments if previous else []),
        flags=flags, at=state.clock.now())
