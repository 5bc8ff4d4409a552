"""Discord-shaped JSON for the double's objects (what the gateway and REST answers carry)."""

from __future__ import annotations

from typing import Any

from .state import Channel, DoubleState, Guild, Member, Message, Role, User

ALL_PERMISSIONS = (1 << 50) - 1
ADMINISTRATOR = 1 << 3
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38


def user(u: User) -> dict[str, Any]:
    return {
        "id": str(u.id), "username": u.name, "global_name": u.display_name,
        "discriminator": "0", "avatar": None, "bot": u.bot, "public_flags": 0,
    }


def member(state: DoubleState, m: Member, *, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in m.role_ids], "nick": m.nick, "avatar": None,
        "joined_at": state.clock.iso(m.joined_at), "deaf": False, "mute": False,
        "flags": 0, "pending": False,
    }
    if with_user:
        data["user"] = user(m.user)
    return data


def channel(state: DoubleState, c: Channel) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(c.id), "type": c.type, "guild_id": str(c.guild_id), "name": c.name,
        "position": c.position, "permission_overwrites": [], "nsfw": False,
        "rate_limit_per_user": 0, "last_message_id": None,
    }
    if c.parent_id is not None:
        data["parent_id"] = str(c.parent_id)
    if c.is_thread:
        data.update({
            "owner_id": str(c.owner_id or state.bot_user.id), "message_count": 0,
            "member_count": 1, "total_message_sent": 0, "flags": 0,
            "thread_metadata": {
                "archived": False, "auto_archive_duration": 1440, "locked": False,
                "archive_timestamp": state.clock.iso(c.created_at),
                "create_timestamp": state.clock.iso(c.created_at),
            },
        })
    return data


def role(r: Role, position: int) -> dict[str, Any]:
    return {"id": str(r.id), "name": r.name, "permissions": str(r.permissions),
            "position": position, "color": 0, "hoist": False, "managed": False,
            "mentionable": False, "flags": 0}


def guild_create(state: DoubleState, g: Guild) -> dict[str, Any]:
    chans = [state.channels[cid] for cid in g.channel_ids]
    return {
        "id": str(g.id), "name": g.name, "icon": None, "owner_id": str(state.owner.id),
        "unavailable": False, "large": False, "member_count": len(g.members),
        "roles": [role(r, i) for i, r in enumerate(g.roles)],
        "channels": [channel(state, c) for c in chans if not c.is_thread],
        "threads": [channel(state, c) for c in chans if c.is_thread],
        "members": [member(state, m) for m in g.members.values()],
        "emojis": [], "stickers": [], "features": [], "voice_states": [],
        "presences": [], "stage_instances": [], "guild_scheduled_events": [],
        "soundboard_sounds": [], "preferred_locale": "en-US", "premium_tier": 0,
        "joined_at": state.clock.iso(0),
    }


def message(state: DoubleState, m: Message) -> dict[str, Any]:
    v = m.latest
    data: dict[str, Any] = {
        "id": str(m.id), "type": m.type, "channel_id": str(m.channel_id),
        "author": user(m.author), "content": v.content, "embeds": v.embeds,
        "components": v.components, "flags": v.flags, "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
        "timestamp": state.clock.iso(m.versions[0].at),
        "edited_timestamp": state.clock.iso(v.at) if len(m.versions) > 1 else None,
        "attachments": [
            {"id": str(a.id), "filename": a.filename, "size": len(a.data),
             "url": f"https://cdn.invalid/attachments/{m.channel_id}/{a.id}/{a.filename}",
             "proxy_url": f"https://media.invalid/attachments/{a.id}/{a.filename}",
             "content_type": a.content_type, "description": a.description}
            for a in v.attachments],
    }
    if m.interaction_id is not None:
        inter = state.interactions[m.interaction_id]
        data["webhook_id"] = str(state.application_id)
        data["application_id"] = str(state.application_id)
        data["interaction_metadata"] = {
            "id": str(inter.id), "type": inter.type, "user": user(inter.user),
            "authorizing_integration_owners": {"0": str(m.guild_id or 0)},
        }
    if m.thread_id is not None:
        data["thread"] = channel(state, state.channels[m.thread_id])
    return data


def message_event(state: DoubleState, m: Message) -> dict[str, Any]:
    """MESSAGE_CREATE/UPDATE dispatch: the REST shape plus guild_id and the author member."""
    data = message(state, m)
    if m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
        g = state.guilds[m.guild_id]
        if m.author.id in g.members:
            data["member"] = member(state, g.members[m.author.id], with_user=False)
    return data


def member_permissions(g: Guild, user_id: int) -> int:
    """What a member may do: @everyone's permissions joined with their roles' (the owner
    and administrators would have all; the double has no overwrites)."""
    found = g.members.get(user_id)
    wanted = {g.id, *(found.role_ids if found else ())}
    perms = 0
    for r in g.roles:
        if r.id in wanted:
            perms |= r.permissions
    return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms


def bot_permissions(state: DoubleState, c: Channel) -> int:
    """What the bot may do in a channel: its server permissions less the channel's
    denials (a thread inherits its parent's)."""
    g = state.guild_of(c)
    denied = c.bot_denied
    parent = state.channels.get(c.parent_id or 0)
    if parent is not None:
        denied |= parent.bot_denied
    return member_permissions(g, state.bot_user.id) & ~denied


def interaction_base(state: DoubleState, inter_id: int, token: str, kind: int, u: User,
                     c: Channel) -> dict[str, Any]:
    g = state.guild_of(c)
    mem = member(state, g.members[u.id]) if u.id in g.members else {
        "user": user(u), "roles": [], "flags": 0, "joined_at": state.clock.iso(0)}
    mem["permissions"] = str(member_permissions(g, u.id))
    return {
        "id": str(inter_id), "type": kind, "token": token, "version": 1,
        "application_id": str(state.application_id), "guild_id": str(g.id),
        "guild": {"id": str(g.id), "locale": "en-US", "features": []},
        "channel_id": str(c.id), "channel": channel(state, c), "member": mem,
        "app_permissions": str(bot_permissions(state, c)), "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [], "authorizing_integration_owners": {"0": str(g.id)},
        "context": 0, "attachment_size_limit": 10 * 1024 * 1024,
    }


def error(code: int, message: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"code": code, "message": message}
    if errors:
        data["errors"] = errors
    return data
