"""Who a new message notifies: the users its content mentions (`<@id>`), as far as its
`allowed_mentions` lets them be pinged. Discord notifies only on a new, non-ephemeral
message: an edit that adds a mention pings nobody."""

from __future__ import annotations

import re
from typing import Any

_USER = re.compile(r"<@!?(\d+)>")


def notified_users(content: str, allowed: dict[str, Any] | None) -> frozenset[int]:
    mentioned = {int(found) for found in _USER.findall(content or "")}
    if allowed is None:  # no allowed_mentions: Discord pings everyone mentioned
        return frozenset(mentioned)
    if "users" in (allowed.get("parse") or []):
        return frozenset(mentioned)
    listed = {int(user) for user in allowed.get("users") or []}
    return frozenset(mentioned & listed)
