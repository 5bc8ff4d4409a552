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


async def test_a_deal_s_picture_and_double_dummy_line_are_made_in_a_worker_process(
        discord_double, tmp_path, fixed_deals, monkeypatch):
    """Drawing the end-of-deal picture and solving its double-dummy line would hold the
    bot process's GIL against every click: both go to the worker processes."""
    from bot.tables.thinking import ThinkingPool
    from tests.e2e.test_deal_analysis_e2e import DD_NAME, _dd_field
    from tests.e2e.test_handrecord_e2e import (
        SINGLE_DUMMY_SEED,
        _deal_end_message,
        _play_until_a_contract_is_played,
    )

    sent: list[tuple[str, bool]] = []
    run = ThinkingPool.run

    async def spied(pool, work, *args):
        sent.append((getattr(work, "__name__", getattr(getattr(work, "func", None),
                                                       "__name__", "?")),
                     isinstance(pool._pool, ProcessPoolExecutor)))
        return await run(pool, work, *args)

    monkeypatch.setattr(ThinkingPool, "run", spied)
    async with running(discord_double, tmp_path, think_processes=1) as h:
        table, summary = await _play_until_a_contract_is_played(
            h, "single_dummy", SINGLE_DUMMY_SEED, fixed_deals)
        assert summary is not None
        await discord_double.settle()
        post = discord_double.message(_deal_end_message(h, summary.deal_no))
        latest = post.versions[-1]
        assert [a.filename for a in latest.attachments] == \
            [f"deal-{table.id}-{summary.deal_no}.png"]
        assert _dd_field(latest.embeds), f"no {DD_NAME} line"
    assert ("render", True) in sent and ("deal_verdict", True) in sent
