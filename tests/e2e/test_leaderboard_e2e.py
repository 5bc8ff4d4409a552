"""/leaderboard, /stats and /history through the Discord double: content, paging (also
after a restart), empty states, another member, a member who never played, score sheets,
and a real match rating its players when it ends."""

from __future__ import annotations

from typing import Any

from bot.ai import bot_name, make_player, player_kinds
from bot.games import create
from tests.e2e.harness import running
from tests.ratings.helpers import add_finished, bot, person


def _text(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", ""),
                  embed.get("footer", {}).get("text", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def _labels(h: Any, message: Any) -> dict[str, bool]:
    """Button label -> enabled."""
    return {b["label"]: not b.get("disabled", False)
            for b in h.buttons(h.driver.message(message))}


async def _reply(h: Any, user: Any, name: str, **options: Any) -> Any:
    handle = await h.slash(user, name, **options)
    assert handle.responded
    return handle


def _played_bidfair(seed: int) -> list[tuple[int, str]]:
    game = create("bidfair", options={"target": 150}, seed=seed)
    # The rule-based level: a real finished match to count, made in a fraction of the time.
    players = [make_player("bidfair", seed + s, "bidfair-basic") for s in (0, 1)]
    while not game.finished:
        seat = min(game.to_act())
        game.apply(seat, players[seat].choose(game.view(seat), game.legal(seat)))
    return list(game.history)


async def test_leaderboard_empty_then_paged_with_buttons_that_survive_a_restart(
        discord_double, tmp_path):
    world = await discord_double.make_world()
    alice = world.users[0]
    async with running(discord_double, tmp_path, world=world) as h:
        handle = await _reply(h, alice, "leaderboard", game="spades")
        assert not handle.ephemeral
        assert "Nobody has finished a Spades match on this server yet" in _text(handle.message)
        assert not h.buttons(handle.message), "nothing to page through"

        guild = world.guild.id
        # Users 1001..1012 each beat user 2000 once (provisional); 3001 wins 5 (established).
        for user in range(1001, 1013):
            await add_finished(h.bot.store, "tennis", guild, [person(user), person(2000)],
                               [[0], [1]], [0, 1])
        for _ in range(5):
            await add_finished(h.bot.store, "tennis", guild,
                               [person(3001), bot("tennis-basic")], [[0], [1]], [0, 1])
        await add_finished(h.bot.store, "tennis", 999, [person(4242), person(2000)],
                           [[0], [1]], [0, 1])  # another server: never listed here

        board = (await _reply(h, alice, "leaderboard", game="tennis")).message
        text = _text(board)
        assert "Tennis leaderboard" in text and "Page 1 of 2" in text
        assert text.index("<@3001>") < text.index("Fewer than 5 games"), "established first"
        assert "**1.** <@3001>" in text and "5 games: 5 won, 0 lost" in text
        # Ratings as players read them: positive, on the scale the footer states once.
        shown = [int(line.split("**")[3]) for line in text.splitlines()
                 if line.startswith("**") and " — **" in line]
        assert len(shown) == 10 and all(500 < rating < 2500 for rating in shown), shown
        assert text.count("Ratings start at 1000") == 1 and "about 1500" in text
        assert "Computer players" in text and "Basic bot: " in text
        assert "<@4242>" not in text
        assert _labels(h, board) == {"◀ Prev": False, "Next ▶": True}

        await h.press(alice, board, "Next ▶")
        second = _text(h.driver.message(board))
        assert "Page 2 of 2" in second and "**11.**" in second and "**1.**" not in second
        assert _labels(h, board) == {"◀ Prev": True, "Next ▶": False}
        bob = world.users[1]
        direct = (await _reply(h, bob, "leaderboard", game="tennis", page=2)).message
        assert "Page 2 of 2" in _text(direct)
        far = (await _reply(h, bob, "leaderboard", game="tennis", page=40)).message
        assert "Page 2 of 2" in _text(far), "past the end: the last page"
        board_id = board.id

    async with running(discord_double, tmp_path, world=world) as h:
        old = discord_double.message(board_id)
        await h.press(alice, old, "◀ Prev")
        assert "Page 1 of 2" in _text(discord_double.message(board_id))


async def test_stats_for_self_another_member_and_someone_who_never_played(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice, bob, carol = h.user(0), h.user(1), h.user(2)
        mine = await _reply(h, alice, "stats")
        assert mine.ephemeral
        assert "Alice has not finished a match on this server yet" in _text(mine.message)

        guild = h.world.guild.id
        for seed in (3, 4, 5):
            await add_finished(h.bot.store, "bidfair", guild, [person(bob.id, "Bob"),
                                                               person(alice.id, "Alice")],
                               [[0], [1]], [0, 1], history=_played_bidfair(seed), seed=seed,
                               options={"target": 150})
        await add_finished(h.bot.store, "spades", guild,
                           [person(bob.id), bot("spades-basic"), person(alice.id),
                            bot("spades-basic")], [[0, 2], [1, 3]], [0, 0])
        others = await _reply(h, alice, "stats", member=bob)
        text = _text(others.message)
        assert "Stats for Bob" in text and "Bid Fair" in text and "Spades" in text
        assert "3 games: 3 won, 0 lost, 0 drawn" in text
        assert "1 game: 0 won, 0 lost, 1 drawn" in text
        assert "Contracts fulfilled:" in text and "Nil bids made: 0 of 0" in text
        assert "Trend: ▲" in text and "over the last 3" in text
        own = _text((await _reply(h, alice, "stats")).message)
        assert "3 games: 0 won, 3 lost" in own and "Trend: ▼" in own
        never = _text((await _reply(h, alice, "stats", member=carol)).message)
        assert "Carol has not finished a match on this server yet" in never
        assert h.driver.visible_to(bob, h.channel) == [], "stats are private to the asker"


async def test_history_pages_and_score_sheets(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice, bob, carol = h.user(0), h.user(1), h.user(2)
        empty = await _reply(h, alice, "history")
        assert empty.ephemeral and "Alice has not finished a match" in _text(empty.message)
        assert not h.buttons(empty.message)

        guild = h.world.guild.id
        first = await add_finished(
            h.bot.store, "spades", guild,
            [person(bob.id, "Bob"), person(carol.id, "Carol"), bot("spades-basic"),
             person(alice.id, "Alice")], [[0, 2], [1, 3]], [1, 0], totals=[310, 505],
            deals=[[120, -40], [190, 545]])
        for _ in range(6):
            await add_finished(h.bot.store, "tennis", guild,
                               [person(bob.id, "Bob"), person(alice.id, "Alice")],
                               [[0], [1]], [1, 0], totals=[14, 9])
        listing = (await _reply(h, alice, "history", member=bob)).message
        text = _text(listing)
        assert "Match history of Bob" in text and text.count("Tennis") == 5
        assert "**Lost** 14–9 errors" in text and "vs Alice" in text, "Tennis counts errors"
        labels = _labels(h, listing)
        assert labels["Next ▶"] and not labels["◀ Prev"]
        assert sum(label.startswith("Sheet #") for label in labels) == 5

        await h.press(alice, listing, "Next ▶")
        page2 = _text(h.driver.message(listing))
        assert "Page 2" in page2 and f"#{first} Spades" in page2
        assert "**Lost** 310–505 ·" in page2 and "with spades-basic" not in page2
        assert "with Basic bot" in page2 and "vs Carol, Alice" in page2

        await h.press(alice, listing, f"Sheet #{first}")
        sheet = h.driver.ephemerals(alice)[-1]
        sheet_text = _text(sheet)
        assert f"Spades #{first} · score sheet" in sheet_text
        assert "Deal 1: 120 / -40 — note 1" in sheet_text
        assert "Deal 2: 190 / 545" in sheet_text and "**Final:** 310 / 505" in sheet_text

        never = (await _reply(h, bob, "history", member=h.user(3))).message
        assert "Dave has not finished a match on this server yet" in _text(never)


async def _play_bidfair_against_a_bot(h: Any, alice: Any) -> Any:
    table = await h.open_table(alice, "bidfair", target=100)
    await h.press(alice, h.table_message(), "Add bot")
    await h.press(alice, h.table_message(), "Start")
    await h.play_people([alice], until=lambda: table.game.finished)
    await h.driver.settle()
    return table


async def test_a_real_match_rates_its_players_and_posts_the_changes(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await _play_bidfair_against_a_bot(h, alice)
        posted = [_text(m) for m in h.driver.channel_messages(h.channel)]
        changes = [text for text in posted if "Bid Fair rating changes" in text]
        assert "rating changes" in posted[-1], "after the table's own end-of-match message"
        default = bot_name(player_kinds("bidfair")[0])
        assert len(changes) == 1 and "Alice" in changes[0] and default in changes[0]
        # `Alice 1037 (+37)`: a positive rating on the shown scale, and its change.
        after = changes[0].split("Alice ", 1)[1]
        number, change = after.split(" ", 1)
        assert number.isdigit() and 500 < int(number) < 2500, changes[0]
        assert change[0] == "(" and change[1] in "+−±", changes[0]
        assert "." not in changes[0].split(":", 1)[1], "whole points, no decimals"
        stats = _text((await _reply(h, alice, "stats")).message)
        won = table.game.result().ranks[table.seat_of(alice.id)] == 0
        assert "Bid Fair" in stats and "Contracts fulfilled:" in stats
        assert ("1 game: 1 won" if won else "1 game: 0 won, 1 lost") in stats
        board = _text((await _reply(h, alice, "leaderboard", game="bidfair")).message)
        assert f"<@{alice.id}>" in board and "Fewer than 5 games" in board


async def test_a_computer_player_on_both_sides_is_left_out_of_the_ratings(
        discord_double, tmp_path, fixed_deals):
    """Alice and a bot (North-South) against two bots of the same kind (East-West): that
    kind played itself, so it gets no rating change and no game; Alice is rated."""
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, 3)
        alice = h.user(0)
        table = await h.open_table(alice, "spades", target=100)
        for _ in range(3):
            await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        await h.play_people([alice], until=lambda: table.game.finished)
        await h.driver.settle()
        kind = table.seats[1].bot_kind
        assert kind and {table.game.side_of(s) for s in (1, 2)} == {0, 1}
        changes = await h.bot.tables.store.connection.execute_fetchall(
            "SELECT player FROM rating_changes WHERE match_id = ?", (table.id,))
        assert [row[0] for row in changes] == [f"u:{alice.id}"]
        board = _text((await _reply(h, alice, "leaderboard", game="spades")).message)
        assert kind not in board, "no record for a kind that played itself"
        stats = _text((await _reply(h, alice, "stats")).message)
        assert "1 game:" in stats


async def test_rating_changes_owed_by_a_killed_bot_are_posted_after_its_restart(
        discord_double, tmp_path, monkeypatch):
    """The bot dies after the match's result is stored and before its rating changes are
    posted (its post never runs, as when killed); the next start posts them, once."""
    world = await discord_double.make_world()
    alice = world.users[0]

    async def killed_before_posting(*args: Any) -> None:
        return None

    async with running(discord_double, tmp_path, world=world) as h:
        with monkeypatch.context() as patch:  # the loaded cog (extensions load afresh)
            patch.setattr(h.bot.get_cog("Leaderboard"), "_post_changes", killed_before_posting)
            await _play_bidfair_against_a_bot(h, alice)
            posted = [_text(m) for m in h.driver.channel_messages(h.channel)]
            assert not any("rating changes" in text for text in posted)

    def rating_posts(h: Any) -> list[str]:
        return [text for text in (_text(m) for m in h.driver.channel_messages(h.channel))
                if "Bid Fair rating changes" in text]

    async with running(discord_double, tmp_path, world=world) as h:
        await h.driver.wait_for(lambda: rating_posts(h), timeout=60,
                                what="the owed rating post")
        await h.driver.settle()
        (post,) = rating_posts(h)
        assert "Alice" in post and bot_name(player_kinds("bidfair")[0]) in post
        assert await h.bot.store.owed_rating_posts() == []

    async with running(discord_double, tmp_path, world=world) as h:
        await h.driver.settle()
        assert len(rating_posts(h)) == 1, "posted once, not again at the next start"
