"""What the bot sends on its own: table messages, end-of-deal and end-of-match posts,
live private hands, the after-deal analysis and turn pings. One service, `Publisher`,
owned by the bot (`bot.publisher`, made in `setup_hook`); the cogs ask it, and it never
asks a cog (publisher.py says how its parts share the work)."""

from .messages import snapshot, table_message
from .publisher import Publisher

__all__ = ["Publisher", "snapshot", "table_message"]
