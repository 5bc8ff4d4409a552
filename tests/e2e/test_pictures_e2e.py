"""Card emojis end to end: made once per application, on every card button and in hands,
and given up for text (without failing a click) when Discord refuses one."""

from __future__ import annotations

import re

import pytest

from bot.games.cards import Card
from bot.render import emojis, ids
from bot.render.components import button
from bot.render.messages import Message
from tests.e2e.harness import running

EMOJI_IN_TEXT = re.compile(r"<:tt1_([2-9TJQKA][CDHS]):(\d+)>")


def _emoji_requests(discord_double: object, method: str) -> int:
    return sum(1 for r in discord_double.double.requests  # type: ignore[attr-defined]
               if r.method == method and r.path.endswith("/emojis"))


async def _spades_with_bots(h: object, alice: object) -> object:
    table = await h.open_table(alice, "spades", target=100)  # type: ignore[attr-defined]
    lobby = h.table_message()  # type: ignore[attr-defined]
    for _ in range(3):
        await h.press(alice, lobby, "Add bot")  # type: ignore[attr-defined]
    await h.press(alice, lobby, "Start")  # type: ignore[attr-defined]
    return table


async def test_the_first_start_creates_53_emojis_and_a_second_start_makes_no_call(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path, card_emojis=True):
        assert emojis.current().enabled
    owned = discord_double.state.app_emojis
    assert len(owned) == 53 == _emoji_requests(discord_double, "POST")
    assert sorted(e.name for e in owned.values()) == sorted(emojis.NAMES)
    assert all(e.image.startswith(b"\x89PNG") for e in owned.values())
    assert not emojis.current().enabled, "a stopped bot leaves text behind"
    before = len(discord_double.double.requests)
    async with running(discord_double, tmp_path, card_emojis=True) as h:
        assert emojis.current().enabled
        after = [r for r in discord_double.double.requests[before:]
                 if r.path.endswith("/emojis")]
        assert after == [], "the ids came from the database"
        assert await h.bot.store.app_emojis(h.bot.application_id) == {
            e.name: e.id for e in owned.values()}
    assert len(discord_double.state.app_emojis) == 53


async def test_only_missing_emojis_are_created(discord_double, tmp_path):
    async with running(discord_double, tmp_path, card_emojis=True):
        pass
    gone = next(e for e in discord_double.state.app_emojis.values() if e.name == "tt1_QH")
    del discord_double.state.app_emojis[gone.id]
    posts = _emoji_requests(discord_double, "POST")
    # A new database: the ids are not known, so the application's emojis are listed.
    async with running(discord_double, tmp_path, db_name="other.db", card_emojis=True):
        assert emojis.current().enabled
    assert _emoji_requests(discord_double, "POST") == posts + 1
    assert len(discord_double.state.app_emojis) == 53


async def _to_alices_first_card(h: object, discord_double: object) -> object:
    """Spades with three bots, played until Alice (North) has cards to play."""
    alice = h.user(0)  # type: ignore[attr-defined]
    table = await _spades_with_bots(h, alice)
    await h.open_hand(alice)  # type: ignore[attr-defined]
    for _ in range(60):
        if table.game.view(0).phase == "play" and table.game.legal(0):  # type: ignore
            break
        await h.act_once(alice)  # type: ignore[attr-defined]
        await discord_double.settle()  # type: ignore[attr-defined]
    return table


async def test_card_buttons_and_hands_carry_the_card_emojis(discord_double, tmp_path):
    async with running(discord_double, tmp_path, card_emojis=True) as h:
        alice = h.user(0)
        table = await _to_alices_first_card(h, discord_double)
        owned = {str(e.id): e.name for e in discord_double.state.app_emojis.values()}
        hand = h.driver.message(h.hand_of(alice))
        cards = [b for b in h.action_buttons(hand) if ":play:" in b["custom_id"]]
        assert cards, "Alice has cards to play"
        for card_button in cards:
            card_text = card_button["custom_id"].rsplit(":", 1)[-1]
            assert owned[card_button["emoji"]["id"]] == card_button["emoji"]["name"] \
                == f"tt1_{card_text}"
        shown = EMOJI_IN_TEXT.findall(hand.content)
        assert {str(c) for c in table.game.view(0).hand} <= {c for c, _ in shown}
        assert all(owned[i] == f"tt1_{c}" for c, i in shown)


async def test_an_emoji_discord_refuses_falls_back_to_text_without_failing_the_click(
        discord_double, tmp_path):
    async with running(discord_double, tmp_path, card_emojis=True) as h:
        alice = h.user(0)
        table = await _to_alices_first_card(h, discord_double)
        # Someone deletes the emojis in the Developer Portal while the bot runs.
        discord_double.state.app_emojis.clear()
        hand = h.driver.message(h.hand_of(alice))
        card = next(b for b in h.action_buttons(hand) if ":play:" in b["custom_id"])
        handle = await discord_double.click(alice, hand, card["custom_id"])
        assert handle.responded and handle.ephemeral
        assert table.game.view(0).hand_sizes[0] == 12, "the card was played"
        hand = h.driver.message(h.hand_of(alice))
        assert hand is not None and "<:tt1_" not in hand.content
        assert all("emoji" not in b for b in h.buttons(hand))
        assert not emojis.current().enabled
        assert await h.bot.store.app_emojis(h.bot.application_id) == {}, \
            "the next start asks Discord again"
        refused = discord_double.take_violations()
        assert refused and all(v.rule == "emoji" for v in refused)
        warnings = [r.getMessage() for r in h.errors.records]
        assert sum("refused a card emoji" in w for w in warnings) == 1


async def test_a_post_refused_for_its_card_emojis_is_sent_again_with_text_cards(
        discord_double, tmp_path):
    """A post Discord refuses because of a card emoji is not dropped: cards turn to text,
    and the post goes out with them. (No post the bot makes now carries a card emoji on a
    button, where Discord checks it: the end of a deal is plain text. So this post is made
    here, as a table's post would be.)"""
    async with running(discord_double, tmp_path, card_emojis=True) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "spades")
        queen = Card.parse("QH")
        post = Message(content=f"Led: {emojis.card_text(queen)}", buttons=(
            button(ids.make("rules", table.id), queen.label,
                   emoji=emojis.current().component(queen)),))
        assert EMOJI_IN_TEXT.search(post.content or "")
        discord_double.state.app_emojis.clear()  # deleted in the Developer Portal
        h.bot.publisher.writer.post(table, post)
        h.bot.publisher.mark(table)

        def posted() -> list:
            return [m for m in discord_double.channel_messages(h.channel)
                    if (m.content or "").startswith("Led: ")]

        await discord_double.wait_for(posted, timeout=10, what="the post, sent again")
        [sent] = posted()
        assert sent.content == f"Led: {queen.label}"
        assert [b.get("emoji") for b in h.buttons(sent)] == [None]
        assert not emojis.current().enabled
        refused = discord_double.take_violations()
        assert refused and all(v.rule == "emoji" for v in refused)
        warnings = [r.getMessage() for r in h.errors.records]
        assert sum("refused a card emoji" in w for w in warnings) == 1


def _hands_of(summary) -> list:
    """The hands of a deal's summary, whatever the game calls them."""
    for names in (("hands",), ("backhands", "forehands")):
        if all(hasattr(summary, n) for n in names):
            return [h for n in names for h in getattr(summary, n)]
    raise AssertionError(f"no hands in {summary!r}")


@pytest.mark.parametrize("game", ["bridge", "spades", "single_dummy", "tennis", "bidfair"])
async def test_a_whole_deal_with_pictures_on(game, discord_double, tmp_path):
    """Alice and computer players play one deal: card buttons carry the card emojis, the
    end-of-deal post carries the deal's picture (sent once the deal is over: the privacy
    guard checks), and its text stays for screen readers."""
    async with running(discord_double, tmp_path, card_emojis=True, think_seconds=0.05) as h:
        alice = h.user(0)
        table = await h.open_table(alice, game)
        lobby = h.table_message()
        first_table_message = lobby.id
        while not table.is_full():
            await h.press(alice, lobby, "Add bot")
        await h.press(alice, lobby, "Start")
        await h.play_people([alice], until=lambda: table.game.deal_no > 1 or table.closed)
        await discord_double.settle()
        card_buttons = [c for p in discord_double.state.payloads
                        for row in p.body.get("components") or []
                        for c in row.get("components") or []
                        if re.match(r"tt:act:.*:(play|crib|up|down):", c.get("custom_id", ""))]
        cards_pressed = [a for a in await h.bot.store.actions(table.id) if a.actor == "user"
                         and a.action.split(":")[0] in ("play", "crib", "up", "down")]
        # (Bridge: Alice may have been dummy, or the deal passed out.)
        assert bool(card_buttons) >= bool(cards_pressed)
        assert all(c["emoji"]["name"] == "tt1_" + c["custom_id"].rsplit(":", 1)[1]
                   for c in card_buttons)

        def deal_ends() -> list:
            return [m for m in discord_double.channel_messages(h.channel)
                    if any("deal 1 is over" in e.get("title", "") for e in m.embeds)]

        # The picture is drawn in a worker thread: the double may be idle meanwhile.
        await discord_double.wait_for(deal_ends, timeout=10)
        ends = deal_ends()
        assert len(ends) == 1
        end = ends[0]
        name = f"deal-{table.id}-1.png"
        assert [a.filename for a in end.attachments] == [name]
        assert end.attachment(name).startswith(b"\x89PNG")
        assert end.embeds[0]["image"]["url"] == f"attachment://{name}"
        assert "<:tt1_" not in str(end.embeds), "the end of a deal is plain text"
        # Short: the result once, the score once (the totals), the picture; the hands only
        # as the picture's description (alt text, for screen readers), a part per hand.
        fields = {f["name"]: f["value"] for f in end.embeds[0].get("fields", [])}
        assert "Hands" not in fields and "\n" not in fields["Score"]
        summary = table.game.view(None).previous_deal
        if table.game.deal_no > 1 and summary.deal_no == 1:  # the deal's own line, once
            note = table.game.scores().lines[0].note
            assert not note or str(end.embeds).count(note) <= 1, note
        described = end.attachments[0].description.split("; ")
        assert len(described) >= len(_hands_of(summary)) and all(": " in d for d in described)
        assert len(str(end.embeds)) < 1400
        if not table.closed:  # the next deal's table is posted below, the old one points
            # (after the post, once the channel's write budget allows: wait for it)
            await discord_double.wait_for(lambda: h.table_message().id > end.id, timeout=10,
                                          what="the table posted below the deal's end")
            old = discord_double.message(first_table_message)
            assert "has moved" in old.content and not old.components


async def test_last_trick_answers_privately(discord_double, tmp_path):
    async with running(discord_double, tmp_path, think_seconds=0.05) as h:
        alice, bob = h.user(0), h.user(1)
        table = await _spades_with_bots(h, alice)
        await h.play_people([alice], until=lambda: table.game.view(None).last_trick
                            is not None)
        await discord_double.settle()
        handle = await h.press(bob, h.table_message(), "Last trick")
        assert handle.ephemeral and "Last trick" in handle.message.content
        assert "Won by" in handle.message.content
