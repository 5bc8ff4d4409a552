"""What the bot needs in a channel to run a table there, read from an interaction's
`app_permissions` (the bot's computed permissions in that channel, overwrites included).

A table is refused up front, privately and with the names of what is missing, rather
than made and then left half-posted: the table message and its live edits need Send
Messages (Send Messages in Threads inside a thread) and Embed Links, the end-of-deal
pictures Attach Files, `thread: True` Create Public Threads, and the daily deals' and
team matches' private threads Create Private Threads.
"""

from __future__ import annotations

import discord

# (flag on discord.Permissions, the name Discord's settings show), in the order asked
CHANNEL_NEEDS = (("view_channel", "View Channel"), ("embed_links", "Embed Links"),
                 ("attach_files", "Attach Files"))
SEND = ("send_messages", "Send Messages")
THREAD_NEEDS = (("create_public_threads", "Create Public Threads"),
                ("send_messages_in_threads", "Send Messages in Threads"))
PRIVATE_THREAD_NEEDS = (("create_private_threads", "Create Private Threads"),
                        ("send_messages_in_threads", "Send Messages in Threads"))


def missing_for_table(permissions: discord.Permissions, *, in_thread: bool,
                      new_thread: bool, private_thread: bool = False) -> list[str]:
    """The permissions the bot lacks to open a table here (empty: it has them all).
    `in_thread`: the command was used inside a thread; `new_thread`: the table is to
    open in a new thread of this channel (its notice still goes to the channel);
    `private_thread`: in a new private thread (daily deals, team matches)."""
    needs = list(CHANNEL_NEEDS)
    if in_thread:
        needs.append(("send_messages_in_threads", "Send Messages in Threads"))
    else:
        needs.append(SEND)
    if new_thread:
        needs.extend(THREAD_NEEDS)
    if private_thread:
        needs.extend(need for need in PRIVATE_THREAD_NEEDS if need not in needs)
    return [name for flag, name in needs if not getattr(permissions, flag)]


def missing_text(missing: list[str]) -> str:
    listed = ", ".join(f"**{name}**" for name in missing)
    return (f"I cannot run a table in this channel: I am missing {listed}. Ask someone "
            "who manages the server to give me that here, or use another channel. "
            "Nothing was opened.")
