"""Fair deals end to end: the commitment behind the table's Rules button (not on the
table itself), the seed revealed there once a deal has ended, never before (the privacy
guard checks every payload), and the revealed seed checks out."""

from __future__ import annotations

import re

from bot.games.fairness import check_seed
from bot.verify import verify
from tests.e2e.harness import running

VERIFY = re.compile(r"python -m bot verify (\w+) ([0-9a-f]{64}) ([0-9a-f]{32}) (\d+) "
                    r"([0-9a-f]{64})")


def _fields(message) -> str:
    return " ".join(f.get("name", "") + " " + f.get("value", "")
                    for e in message.embeds for f in e.get("fields", []))


def _newest(h, user):
    return max(h.driver.ephemerals(user), key=lambda m: m.id)


async def test_fairness_the_table_commits_reveals_and_verify_agrees(discord_double, tmp_path):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        # 500: no single deal can end the match, so the table is still open after it.
        table = await h.open_table(alice, "spades", target=500)
        lobby = h.table_message()
        commitment = table.commitment
        assert commitment and commitment not in str(lobby.embeds), "not on every table"
        await h.press(alice, lobby, "Rules")
        assert commitment in _fields(_newest(h, alice))
        for _ in range(3):
            await h.press(alice, lobby, "Add bot")
        await h.press(alice, lobby, "Start")
        client = table.settings.client_seed
        assert commitment not in str(h.table_message().embeds)
        await h.press(alice, h.table_message(), "Rules")
        shown = _fields(_newest(h, alice))
        assert commitment in shown and client in shown and "verify" not in shown
        await h.open_hand(alice)
        ended = []
        for _ in range(600):
            ended = [m for m in discord_double.channel_messages(h.channel)
                     if any("is over" in e.get("title", "") for e in m.embeds)]
            if ended or table.closed:
                break
            if not await h.act_once(alice):
                await discord_double.settle()
                if not h.action_buttons(h.hand_of(alice)):
                    await h.open_hand(alice)
        assert ended, "a deal ended"
        assert commitment not in str(ended[0].embeds), "the deal's post stays short"
        await h.press(alice, h.table_message(), "Rules")
        found = VERIFY.search(_fields(_newest(h, alice)))
        assert found is not None
        game, seed, client_shown, deal_no, commitment_shown = found.groups()
        assert (game, client_shown, commitment_shown) == ("spades", client, commitment)
        assert int(deal_no) == table.game.revealed_seed()[0]
        assert check_seed(seed, int(deal_no), commitment)
        ok, lines = verify(game, seed, client_shown, int(deal_no), commitment_shown)
        assert ok and [line.split(":")[0].strip() for line in lines[2:]] == [
            "North", "East", "South", "West"]
        assert h.privacy is not None and h.privacy.seeds_checked > 20


def test_fairness_the_guard_catches_a_seed_shown_too_early():
    from types import SimpleNamespace

    from bot.games import create
    from bot.games.fairness import FairDeals
    from tests.e2e.privacy import PrivacyGuard

    deals = FairDeals(client_seed="c", secret="ab" * 32)
    game = create("spades", seed=deals)
    table = SimpleNamespace(settings=SimpleNamespace(deal_secret="ab" * 32), game=game,
                            status="lobby")
    harness = SimpleNamespace(driver=SimpleNamespace(state=SimpleNamespace(payloads=[])),
                              bot=SimpleNamespace(tables=SimpleNamespace(
                                  in_channel=lambda _id: table), get_cog=lambda _name: None),
                              channel=SimpleNamespace(id=1))
    guard = PrivacyGuard(harness)
    say = SimpleNamespace(kind="message", audience=None, body={"content": "the commitment "
                                                               + deals.commitment})
    harness.driver.state.payloads.append(say)
    assert not guard.leaks
    early = SimpleNamespace(kind="message", audience=None,
                            body={"content": f"seed {deals.server_seed(1)}"})
    harness.driver.state.payloads.append(early)
    assert len(guard.leaks) == 1
