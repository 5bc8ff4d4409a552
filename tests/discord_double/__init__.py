"""A local double of Discord's REST API and gateway for end-to-end tests with discord.py."""

from __future__ import annotations

from .components import button, buttons, custom_ids, find_component, iter_components
from .driver import Driver, World
from .interactions import InteractionHandle
from .server import DiscordDouble
from .state import Attachment, Audience, Channel, Guild, Member, Message, User, Version, Violation

__all__ = [
    "Attachment", "Audience", "Channel", "DiscordDouble", "Driver", "Guild", "InteractionHandle",
    "Member", "Message", "User", "Version", "Violation", "World", "button", "buttons",
    "custom_ids", "find_component", "iter_components",
]
