"""Who sits where, as every message names them (the table's messages and each game's
text both need it, so it has a module of its own)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where, as the messages name them."""

    seat_names: tuple[str, ...]  # "North", ...
    names: tuple[str | None, ...]  # display name per seat (None: empty)
    user_ids: tuple[int | None, ...]
    bots: tuple[bool, ...]
    away: bool = False  # someone left mid-match and may take their seat back
    # per call of the current auction, what it means when a computer player made it
    # ("" for people's calls; empty for games without an auction)
    call_notes: tuple[str, ...] = ()

    def who(self, seat: int) -> str:
        name = self.names[seat]
        return f"{self.seat_names[seat]} ({name or 'empty'})"

    def name(self, seat: int) -> str:
        """Who sits there: a person's name, or a computer player's ("Advanced bot", the
        one name bot.ai.bot_name gives it everywhere)."""
        return self.names[seat] or self.seat_names[seat]

    def person(self, user_id: int) -> str:
        """A person's name if they sit at the table, else a mention (the table's creator
        may have left their seat)."""
        for seat, seated in enumerate(self.user_ids):
            name = self.names[seat]
            if seated == user_id and name:
                return name
        return f"<@{user_id}>"
