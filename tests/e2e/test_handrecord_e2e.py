"""Hand records end to end: the button under a bridge deal's end, answered privately."""

from __future__ import annotations

import re

from endplay.parsers import lin, pbn

from bot.games.cards import SEAT_NAMES, Seat
from bot.handrecord import replay_deal
from bot.handrecord.lin import handviewer_url
from bot.handrecord.postmortem import analyse, summary_line
from bot.handrecord.solver import grid, solve
from tests.e2e.harness import Harness, running
from tests.handrecord.helpers import call_text, contract_code, hands_of, our_card

# Fixed seeds: the same deals every run. (Some random auctions trip the privacy guard,
# which reads bid buttons such as `bid:5S` as cards; see the report to the lead.)
BRIDGE_SEED = 1
SINGLE_DUMMY_SEED = 2


def _deal_end_message(h: Harness, deal_no: int):
    for message in h.driver.channel_messages(h.channel):
        if f"deal {deal_no} is over" in str(message.embeds):
            return message
    raise AssertionError(f"no end-of-deal message for deal {deal_no}")


async def _answer(h: Harness, handle):
    """The private reply to a Hand record click. The bot defers ("thinking") while it
    replays and solves the deal off the event loop, then its followup replaces that."""
    await h.driver.wait_for(lambda: handle.message is not None and handle.message.content,
                            timeout=15)
    return handle.message


async def _play_until_a_contract_is_played(h: Harness, game_name: str, seed: int,
                                            fixed_deals):
    """1 person (first legal action) and bots, until a deal with a contract has ended
    (a deal can be thrown in when everyone passes). Returns the table and that deal.
    The deals are fixed (the fixed_deals fixture) so the run is the same every time."""
    fixed_deals(h, seed)
    alice = h.user(0)
    table = await h.open_table(alice, game_name)
    for _ in range(table.game.SEATS - 1):
        await h.press(alice, h.table_message(), "Add bot")
    await h.press(alice, h.table_message(), "Start")
    game = table.game

    def played() -> bool:
        summary = game.view(None).previous_deal
        return game.finished or (summary is not None and summary.contract is not None)

    await h.play_people([alice], until=played)
    await h.driver.settle()
    return table, game.view(None).previous_deal


async def test_the_hand_record_button_gives_the_pbn_and_double_dummy_table(discord_double,
                                                                           tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        bob = h.user(1)
        table, summary = await _play_until_a_contract_is_played(h, "bridge", BRIDGE_SEED,
                                                                fixed_deals)
        assert summary is not None and summary.contract is not None
        n = summary.deal_no
        ended = _deal_end_message(h, n)
        assert h.button(ended, "Hand record") == f"tt:rec:{table.id}:{n}"

        # Anyone may ask, seated or not: the deal is over and public.
        reply = await _answer(h, await h.press(bob, ended, "Hand record"))
        assert reply.ephemeral_to == bob.id
        text = reply.attachment(f"table{table.id}-deal{n}.pbn").decode("utf-8")
        assert reply.attachment(f"deal-{table.id}-{n}.png").startswith(b"\x89PNG")
        board = pbn.loads(text)[0]
        assert board.board_num == n
        assert hands_of(board) == {Seat(i): frozenset(hand)
                                   for i, hand in enumerate(summary.hands)}
        assert [call_text(b) for b in board.auction] == [c.text for _, c in summary.calls]
        # Earlier deals were thrown in and the next one has no card played yet: every
        # card in the log belongs to this deal.
        plays = [a[5:] for _, a in table.game.history if a.startswith("play:")]
        assert len(plays) == 52
        assert [our_card(c).text for c in board.play] == plays
        assert contract_code(board.contract) == summary.contract.code
        assert int(board.contract.declarer) == summary.contract.declarer
        names = [info.name for info in table.seats]
        assert f'[North "{names[0]}"]' in text and f'[West "{names[3]}"]' in text

        # The reply shows the solver's table as a monospace grid, and the par.
        record = replay_deal("bridge", table.game.options, table.deal_source,
                             table.game.history, n)
        assert f"```\n{grid(solve(record))}\n```" in reply.content
        assert "Par:" in reply.content and f"deal {n}" in reply.content
        # Contracts as every text writes them: `2♦ by South`, not `2D by South`.
        said = f"({summary.contract.text(SEAT_NAMES)}, "
        assert said in reply.content
        shown = re.sub(r"\(<[^>]*>\)", "", reply.content)  # the link's LIN is a file format
        assert not re.search(r"\b[1-7][SHDC]X*\b|[1-7](?:NT|[♠♥♦♣])X", shown)

        # The LIN beside it, and BBO's handviewer link carrying the same LIN.
        lin_text = reply.attachment(f"table{table.id}-deal{n}.lin").decode("utf-8")
        parsed = lin.loads(lin_text)[0]
        assert hands_of(parsed) == hands_of(board)
        assert [our_card(c).text for c in parsed.play] == plays
        assert f"(<{handviewer_url(lin_text)}>)" in reply.content
        # The end-of-deal post named the cards that cost a trick, double dummy.
        verdict = summary_line(analyse(record))
        assert verdict and verdict in str(ended.embeds)
        # The post-mortem: a line per trick, each with its four cards.
        tricks = [line for line in reply.content.splitlines() if ">" in line[:8]]
        assert len(tricks) == 13
        assert [line.split()[0] for line in tricks] == [str(i) for i in range(1, 14)]


async def test_a_deal_in_progress_or_another_game_gets_no_hand_record(discord_double,
                                                                      tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table, summary = await _play_until_a_contract_is_played(h, "single_dummy",
                                                                SINGLE_DUMMY_SEED, fixed_deals)
        assert summary is not None and not table.game.finished
        n = summary.deal_no
        reply = await _answer(h, await h.press(alice, _deal_end_message(h, n),
                                               "Hand record"))
        assert "Hand record" in reply.content
        board = pbn.loads(reply.attachment(f"table{table.id}-deal{n}.pbn").decode())[0]
        assert len(board.play) == 52 and board.vul.name == "none"

        # The next deal is being played: a forged button for it is refused, showing nothing.
        assert table.game.deal_no == n + 1
        refused = await _answer(h, await h.forge(alice, f"tt:rec:{table.id}:{n + 1}"))
        assert "not over yet" in refused.content and "Par" not in refused.content
        assert not refused.attachments

        # A match of another game (stored, say, before a restart) has no hand records.
        spades = await h.bot.store.create_match("spades", {}, 5, h.world.guild.id,
                                                h.channel.id, alice.id, {})
        await h.forge(alice, f"tt:rec:{spades}:1")
        assert "bridge games only" in h.last_reply(alice)
        await h.forge(alice, f"tt:rec:{table.id}:x")
        assert "not one of TrickTable's" in h.last_reply(alice)


async def test_the_hand_record_button_works_after_a_restart(discord_double, tmp_path, fixed_deals):
    world = await discord_double.make_world()
    async with running(discord_double, tmp_path, world=world) as h:
        table, summary = await _play_until_a_contract_is_played(h, "bridge", BRIDGE_SEED,
                                                                fixed_deals)
        assert summary is not None
        table_id, n, seed = table.id, summary.deal_no, table.deal_source
        ended = _deal_end_message(h, n)
        history = list(table.game.history)

    async with running(discord_double, tmp_path, world=world) as h:
        await discord_double.settle()
        reply = await _answer(h, await h.press(world.users[2], ended, "Hand record"))
        board = pbn.loads(reply.attachment(f"table{table_id}-deal{n}.pbn").decode())[0]
        record = replay_deal("bridge", {}, seed, history, n)
        assert hands_of(board) == {Seat(i): frozenset(hand)
                                   for i, hand in enumerate(record.hands)}
        assert len(board.play) == 52
