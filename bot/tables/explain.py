"""What the computer players' calls mean, for the table's messages.

Render may not ask the bidding system (bot.ai), so the table layer reads the auction
with it and hands render one phrase per call. The phrases are worked out again from the
auction alone (the system's reader is deterministic), so a restarted bot shows them too.
"""

from __future__ import annotations

from functools import lru_cache

from bot.ai.bridge.bidding import Score, explain_calls
from bot.games.bridge_auction import Call
from bot.games.bridge_view import BridgeView

from .model import LOBBY, Table


@lru_cache(maxsize=512)
def _explained(calls: tuple[tuple[int, Call], ...], score: Score | None,
               ) -> tuple[str, ...]:
    return explain_calls(calls, score)


def call_notes(table: Table) -> tuple[str, ...]:
    """Per call of the current auction: its explanation when a computer player made it,
    else "" (a person's call means what that person meant)."""
    if not table.game.EXPLAINED_BIDDING or table.status == LOBBY:
        return ()
    view = table.game.view(None)
    if not isinstance(view, BridgeView) or not view.calls:
        return ()
    # The computer players bid to the rubber's score: read their calls with it.
    notes = _explained(tuple(view.calls), Score.of(view))
    bots = [bool(info and info.is_bot) for info in table.seats]
    return tuple(note if bots[seat] else "" for (seat, _), note in zip(view.calls, notes,
                                                                      strict=True))
