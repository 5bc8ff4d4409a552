"""The bot's computer players thinking in worker processes, end to end, as the bot runs by
default: a table plays on, each computer player keeps its memory from one decision to the
next, and every game's default players play a whole deal there without a failed decision."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.ai import player_kinds
from bot.games import GAMES
from bot.tables.thinking import ThinkingPool
from discord_double import User
from tests.e2e.harness import Harness, running


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


async def _open_the_bidding(h: Harness, user: User) -> None:
    """In an auction, `user` bids the lowest bid offered (Bid 1…, then its first bid), so
    the deal is played rather than thrown in when everyone passes; elsewhere nothing."""
    hand = await h.open_hand(user)
    levels = [c["custom_id"] for c in h.buttons(hand)
              if c["custom_id"].startswith("tt:pick:") and c["custom_id"].split(":")[5][:1] == "L"]
    if not levels:
        return
    await h.driver.click(user, hand, levels[0])
    bids = [c["custom_id"] for c in h.moves(hand) if c["custom_id"].split(":")[5] == "bid"]
    await h.driver.click(user, hand, bids[0])


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_deal_is_played_by_the_default_computer_players_in_a_worker_process(
        game, discord_double, tmp_path, fixed_deals, monkeypatch):
    """As the bot runs by default: every decision of the strongest computer players is
    thought in a worker process and the player comes back from it. No decision fails
    (counted by the turn flow's error hook, and logged as an error, which fails the
    harness), and the players choose for themselves: a player that raised at every
    decision would play its first legal action every time."""
    decisions: list[tuple[list[str], str, bool, bool]] = []
    choose = ThinkingPool.choose

    async def spied(pool, player, view, legal):
        choice, thought = await choose(pool, player, view, legal)
        decisions.append((list(legal), choice, thought is not None,
                          isinstance(pool._pool, ProcessPoolExecutor)))
        return choice, thought

    monkeypatch.setattr(ThinkingPool, "choose", spied)
    failed: list[tuple[str, str]] = []
    async with running(discord_double, tmp_path, think_processes=1) as h:
        fixed_deals(h, 3)
        turns = h.bot.tables.turns
        counted = turns.on_error

        def on_error(kind: str, cause: str) -> None:
            failed.append((kind, cause))
            if counted is not None:
                counted(kind, cause)

        turns.on_error = on_error
        alice = h.user(0)
        table = await h.start_with_bots(alice, game)
        game_ = table.game
        bots = [s for s in range(game_.SEATS) if s != table.seat_of(alice.id)]
        assert {turns.player(table, s).kind for s in bots} == {player_kinds(game)[0]}
        await _open_the_bidding(h, alice)
        await h.play_people([alice], until=lambda: game_.finished
                            or game_.view(None).deal_no > 1)
        await discord_double.settle()
    assert failed == []
    assert decisions and all(in_worker for *_, in_worker in decisions)
    assert all(came_back for _, _, came_back, _ in decisions), "a player stayed behind"
    assert any(choice != legal[0] for legal, choice, _, _ in decisions), \
        "every computer decision was the first legal action"
    cards = sum(1 for legal, *_ in decisions if legal[0].startswith("play:"))
    assert cards >= 6, f"the computer players played {cards} cards: the deal was not played"
