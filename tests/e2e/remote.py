"""Playing against a bot that runs in another process (shards, chaos): the test cannot look
at the bot's tables, so it finds them in the double."""

from __future__ import annotations

from discord_double import Message
from tests.e2e.harness import Harness


class RemoteHarness(Harness):
    """A Harness for a bot in another process: the table is found in the double only."""

    def table_message(self, table_id: int | None = None) -> Message:
        boards = [m for m in self.driver.channel_messages(self.channel)
                  if any(b.get("label") in ("My hand", "Start") for b in self.buttons(m))]
        assert boards, "no table message in the channel"
        return max(boards, key=lambda m: m.id)
