"""The bot's computer players thinking in worker processes, end to end: a table plays on,
and each computer player keeps its memory from one decision to the next."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from tests.e2e.harness import running


async def test_a_tennis_table_plays_with_its_computer_player_in_a_worker_process(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path, think_processes=1) as h:
        alice = h.user(0)
        table = await h.start_with_bots(alice, "tennis")
        turns = h.bot.tables.turns
        assert isinstance(turns.thinking._pool, ProcessPoolExecutor)
        bot_seat = 1 - table.seat_of(alice.id)
        first = turns.player(table, bot_seat)
        await h.play_people([alice], until=lambda: sum(
            1 for seat, _ in table.game.history if seat == bot_seat) >= 6)
        await discord_double.settle()
        stored = await h.bot.store.actions(table.id)
        assert sum(1 for a in stored if a.actor == "bot") >= 6
        # The player now at the seat is the worker's copy after its last decision, and it
        # remembers both of its hands, though each decision's view shows only one.
        now = turns.player(table, bot_seat)
        assert now is not first and type(now) is type(first)
        assert set(now._seen) == {"Backhand", "Forehand"}
