"""An answered interaction is freed by its last reference, not left for the collector's
rare full passes (bot/router.py `release`): clicks, commands and refusals alike."""

from __future__ import annotations

import gc

import discord

from tests.e2e.harness import running


def _interactions_left_to_the_collector() -> int:
    """Interactions that only a cyclic collection would free now."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        return sum(isinstance(o, discord.Interaction) for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_answered_interactions_are_freed_without_the_collector(discord_double,
                                                                     tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        gc.collect()
        gc.disable()  # no collection may free them behind the test's back
        try:
            await h.slash(alice, "abandon")  # a command refused (no table here)
            table = await h.open_table(alice, "spades")  # a command answered
            for _ in range(table.game.SEATS - 1):
                await h.press(alice, h.table_message(), "Add bot")  # clicks answered
            await h.press(alice, h.table_message(), "Start")
            await h.open_hand(alice)
            await h.forge(alice, "tt:hand:99999")  # a click refused
            assert "There is no table #99999" in h.last_reply(alice)
            assert _interactions_left_to_the_collector() == 0
        finally:
            gc.enable()
