"""The gateway websocket: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, RESUME, dispatch.

Sessions are sharded as Discord's are: an IDENTIFY may carry [shard_id, shard_count], and
the session then hears only of the servers on its shard ((guild_id >> 22) % shard_count);
events without a server (direct messages) go to shard 0.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads

if TYPE_CHECKING:
    from .server import DiscordDouble

log = logging.getLogger("discord_double")

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
GUILD_MESSAGES_INTENT = 1 << 9


class Session:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.intents = 0
        self.ready = False
        self.shard = (0, 1)  # [shard_id, shard_count] from IDENTIFY

    def owns(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self.seq += 1
            frame["s"] = self.seq
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(frame))


class Gateway:
    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.sessions: list[Session] = []
        self.known_sessions: dict[str, int] = {}  # session id -> last seq, for RESUME
        self.known_shards: dict[str, tuple[int, int]] = {}  # session id -> its shard
        self.resumes = 0

    @property
    def connected(self) -> bool:
        return any(s.ready and not s.ws.closed for s in self.sessions)

    def ready_shards(self) -> set[tuple[int, int]]:
        """The (shard_id, shard_count) of every identified, open session."""
        return {s.shard for s in self.sessions if s.ready and not s.ws.closed}

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        session = Session(ws)
        self.sessions.append(session)
        try:
            await session.send(HELLO, {"heartbeat_interval": 41250})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_frame(session, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.sessions.remove(session)
            self.known_sessions[session.session_id] = session.seq
        return ws

    async def _on_frame(self, session: Session, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data: Any = frame.get("d") or {}
        if op == HEARTBEAT:
            await session.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            session.intents = int(data.get("intents", 0))
            shard = data.get("shard") or [0, 1]
            session.shard = (int(shard[0]), int(shard[1]))
            await self._ready(session)
        elif op == RESUME:
            if data.get("session_id") not in self.known_sessions:
                await session.send(INVALID_SESSION, False)
                return
            session.session_id = data["session_id"]
            session.shard = self.known_shards.get(session.session_id, (0, 1))
            session.seq = int(data.get("seq") or 0)
            session.ready = True
            self.resumes += 1
            await session.send(DISPATCH, {}, "RESUMED")
        elif op == REQUEST_MEMBERS:
            guild = self.double.state.guilds[int(data["guild_id"])]
            await session.send(DISPATCH, {
                "guild_id": str(guild.id), "chunk_index": 0, "chunk_count": 1,
                "nonce": data.get("nonce"),
                "members": [payloads.member(self.double.state, m)
                            for m in guild.members.values()],
            }, "GUILD_MEMBERS_CHUNK")
        elif op in (3, 4):
            pass  # presence and voice state updates need no answer
        else:
            log.error("Discord double: unexpected gateway op %r: %r", op, frame)

    async def _ready(self, session: Session) -> None:
        state = self.double.state
        await session.send(DISPATCH, {
            "v": 10, "user": {**payloads.user(state.bot_user), "verified": True,
                              "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in state.guilds.values()
                       if session.owns(g.id) and state.bot_user.id in g.members],
            "session_id": session.session_id, "session_type": "normal",
            "resume_gateway_url": self.double.gateway_url,
            "application": {"id": str(state.application_id), "flags": 0},
            "shard": list(session.shard), "private_channels": [], "relationships": [],
            "presences": [], "guild_join_requests": [], "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }, "READY")
        session.ready = True
        self.known_sessions[session.session_id] = 0
        self.known_shards[session.session_id] = session.shard
        for guild in state.guilds.values():
            if session.owns(guild.id) and state.bot_user.id in guild.members:
                await session.send(DISPATCH, payloads.guild_create(state, guild),
                                   "GUILD_CREATE")

    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int = 0) -> None:
        """Send an event to every identified session of its server's shard (that asked
        for `intent`, if any)."""
        by_id = event in ("GUILD_CREATE", "GUILD_DELETE")  # a server's own events
        guild = data.get("id") if by_id else data.get("guild_id")
        guild_id = int(guild) if guild is not None else None
        for session in list(self.sessions):
            if session.ready and session.owns(guild_id) and (
                    not intent or session.intents & intent):
                await session.send(DISPATCH, data, event)
        self.double.touch()

    async def reconnect(self) -> None:
        """Op 7: the client closes and RESUMEs at resume_gateway_url."""
        for session in list(self.sessions):
            await session.send(RECONNECT, None)

    async def close_all(self) -> None:
        for session in list(self.sessions):
            await session.ws.close()
