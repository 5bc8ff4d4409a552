"""Login, gateway discovery, users, members and application command sync."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads
from .bodies import read_body
from .server import error, reply

if TYPE_CHECKING:
    from .server import DiscordDouble


async def me(double: DiscordDouble, request: web.Request) -> web.Response:
    return reply({**payloads.user(double.state.bot_user), "verified": True, "flags": 0,
                  "mfa_enabled": False, "locale": "en-US"})


async def application(double: DiscordDouble, request: web.Request) -> web.Response:
    state = double.state
    return reply({
        "id": str(state.application_id), "name": state.bot_user.name, "description": "",
        "icon": None, "bot_public": True, "bot_require_code_grant": False,
        "owner": payloads.user(state.owner), "verify_key": "0" * 64, "flags": 0,
        "team": None, "summary": "", "rpc_origins": [], "bot": payloads.user(state.bot_user),
    })


async def gateway_bot(double: DiscordDouble, request: web.Request) -> web.Response:
    return reply({"url": double.gateway_url, "shards": double.shard_count,
                  "session_start_limit": {
        "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})


async def get_user(double: DiscordDouble, request: web.Request) -> web.Response:
    user = double.state.users.get(int(request.match_info["user_id"]))
    if user is None:
        return error(404, 10013, "Unknown User")
    return reply(payloads.user(user))


async def get_member(double: DiscordDouble, request: web.Request) -> web.Response:
    guild = double.state.guilds.get(int(request.match_info["guild_id"]))
    if guild is None:
        return error(404, 10004, "Unknown Guild")
    member = guild.members.get(int(request.match_info["user_id"]))
    if member is None:
        return error(404, 10007, "Unknown Member")
    return reply(payloads.member(double.state, member))


def _commands_for(double: DiscordDouble, request: web.Request) -> list[dict[str, Any]] | None:
    if request.match_info["app_id"] != str(double.state.application_id):
        return None
    if "guild_id" in request.match_info:
        return double.state.guild_commands.setdefault(int(request.match_info["guild_id"]), [])
    return double.state.global_commands


async def put_commands(double: DiscordDouble, request: web.Request) -> web.Response:
    stored = _commands_for(double, request)
    if stored is None:
        return error(404, 10002, "Unknown Application")
    body, _ = await read_body(request)
    state = double.state
    stored.clear()
    for cmd in body.get("_list", []):
        full = {"type": 1, "description": "", "options": [], **cmd,
                "id": str(state.snowflakes.next()), "application_id": str(state.application_id),
                "version": str(state.snowflakes.next()), "default_member_permissions": None,
                "dm_permission": True, "nsfw": False}
        if "guild_id" in request.match_info:
            full["guild_id"] = request.match_info["guild_id"]
        stored.append(full)
    return reply(stored)


async def get_commands(double: DiscordDouble, request: web.Request) -> web.Response:
    stored = _commands_for(double, request)
    if stored is None:
        return error(404, 10002, "Unknown Application")
    return reply(stored)


ROUTES = [
    ("GET", "/users/@me", me),
    ("GET", "/oauth2/applications/@me", application),
    ("GET", "/applications/@me", application),
    ("GET", "/gateway/bot", gateway_bot),
    ("GET", "/gateway", gateway_bot),
    ("GET", "/users/{user_id:\\d+}", get_user),
    ("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
    ("PUT", "/applications/{app_id}/commands", put_commands),
    ("GET", "/applications/{app_id}/commands", get_commands),
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", put_commands),
    ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", get_commands),
]
