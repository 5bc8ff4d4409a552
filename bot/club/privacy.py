"""Who may see a compared deal yet. Club play compares deals that two sides play apart, so
what one side has not played yet stays hidden from it: a challenge's tables from everyone
but their own player until the challenge ends, and a team match's board from the players of
the other table until that table has played it. The cogs ask here, whatever the button or
command that leads to a deal."""

from __future__ import annotations

from bot.store import Store

CHALLENGE_TABLE_HIDDEN = ("That table is one side of a challenge still being played: its "
                          "hand records are shown when the challenge ends.")
CHALLENGE_MATCH_HIDDEN = ("That match is one side of a challenge still being played: its "
                          "deals are shown when the challenge ends.")


async def tables_hidden_from(store: Store, viewer_id: int) -> set[int]:
    """The tables not listed to this person (in /history, say) while they are compared."""
    return await store.challenge_tables_hidden_from(viewer_id)


async def match_withheld(store: Store, table_id: int, viewer_id: int) -> str | None:
    """Why this person may not see a table's score sheet yet (None: they may)."""
    if table_id in await tables_hidden_from(store, viewer_id):
        return CHALLENGE_MATCH_HIDDEN
    return None


async def record_withheld(store: Store, table_id: int, deal_no: int,
                          viewer_id: int) -> str | None:
    """Why this person may not see a deal's hand record yet (None: they may)."""
    if table_id in await tables_hidden_from(store, viewer_id):
        return CHALLENGE_TABLE_HIDDEN
    beside = await store.team_table_beside(table_id)
    if beside is not None and any(viewer_id in (seat.user_id, seat.left_user_id)
                                  for seat in await store.seats(beside)):
        played = {deal.deal_no for deal in await store.deals(beside)}
        if deal_no not in played:
            return (f"Board {deal_no} has not been played at your table yet: its hand "
                    "record from the other table comes once yours has played it.")
    return None
