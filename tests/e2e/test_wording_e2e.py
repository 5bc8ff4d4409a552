"""What people read, the same everywhere: computer players' one name, ten written 10,
neutral card buttons, and where the final standings are (issue 14, item 10)."""

from __future__ import annotations

import re

from bot.ai import bot_name, player_kinds
from tests.e2e.harness import running

DANGER = 4  # Discord's red button style
CARD_WITH_T = re.compile(r"(?:[♠♥♦♣] ?[AKQJ2-9]*T)|(?:\bT[♠♥♦♣])")


async def test_one_name_for_bots_ten_as_10_neutral_buttons_and_the_standings_place(
        discord_double, tmp_path, fixed_deals):
    async with running(discord_double, tmp_path) as h:
        fixed_deals(h, 3)  # a two-deal match to 100
        alice = h.user(0)
        table = await h.open_table(alice, "spades", target=100)
        for _ in range(3):
            await h.press(alice, h.table_message(), "Add bot")
        await h.press(alice, h.table_message(), "Start")
        styles, labels = set(), set()

        def watch(actions):
            styles.update(a["style"] for a in actions)
            labels.update(a["label"] for a in actions)
            return actions[0]

        await h.play_people([alice], until=lambda: table.game.finished, choose=watch)
        await discord_double.settle()
        assert DANGER not in styles, "no red 'danger' card buttons"
        assert any(label.startswith("10") for label in labels), "a ten is a 10"
        assert not any("T" in label for label in labels if label[:1].isdigit() or
                       label[:1] == "T")
        posts = [str(m.embeds) + m.content for m in discord_double.channel_messages(h.channel)]
        everything = " ".join(posts)
        assert bot_name(player_kinds("spades")[0]) in everything
        assert not re.search(r"(North|East|South|West) bot\b", everything)
        assert "(spades-" not in everything and "Bot (" not in everything
        assert not CARD_WITH_T.search(everything), CARD_WITH_T.search(everything)
        hand = h.hand_of(alice)
        assert "final standings are posted in the channel" in discord_double.message(
            hand).content
        assert any("final standings" in post for post in posts)
