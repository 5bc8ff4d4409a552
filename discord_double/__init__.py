"""A local double of Discord's REST API and gateway for end-to-end tests and benchmarks
with discord.py. Import what you need from here (`from discord_double import Driver`); the
modules `limits` (Discord's sizes) and `payloads` (permission bits) are public too."""

from __future__ import annotations

from . import limits, payloads
from .components import button, buttons, custom_ids, find_component, iter_components
from .driver import Driver, World
from .interactions import InteractionHandle
from .ratelimits import Limit, RateLimits
from .runner import discord_pointed_at
from .server import DiscordDouble
from .state import (
    TOKEN_LIFETIME,
    Attachment,
    Audience,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    RecordedPayload,
    Role,
    User,
    Version,
    Violation,
)

__all__ = [
    "TOKEN_LIFETIME", "Attachment", "Audience", "Channel", "DiscordDouble", "Driver", "Guild",
    "Interaction", "InteractionHandle", "Limit", "Member", "Message", "RateLimits",
    "RecordedPayload", "Role", "User", "Version", "Violation", "World", "button", "buttons",
    "custom_ids", "discord_pointed_at", "find_component", "iter_components", "limits",
    "payloads",
]
