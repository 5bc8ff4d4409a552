"""The turn ping (one person, a link, no buttons) and the /tables list within Discord's
limits (ten tables, then how many more)."""

from __future__ import annotations

from bot.render import turns


def test_a_ping_mentions_and_may_notify_only_its_person():
    message = turns.ping(42, "Spades", "North", turns.jump_url(1, 2, 3), None, False)
    assert message.content is not None and message.content.startswith("<@42>")
    assert "https://discord.com/channels/1/2/3" in message.content
    assert message.buttons is None
    assert message.send_kwargs()["allowed_mentions"].to_dict() == {"users": [42], "parse": []}
    assert "My hand" not in message.content and "<t:" not in message.content


def test_a_slow_ping_says_when_the_computer_moves_and_to_ask_for_the_hand():
    message = turns.ping(42, "Bid Fair", "South", turns.jump_url(1, 2, None), 1_900_000_000.5,
                         True)
    assert message.content is not None
    assert "<t:1900000000:R>" in message.content and "My hand" in message.content
    assert "https://discord.com/channels/1/2)" in message.content


def test_the_tables_list_shows_ten_and_counts_the_rest_within_an_embed():
    long_name = "N" * 32
    lines = [turns.TableLine(n, "Contract Bridge", turns.jump_url(10**18, 10**18, 10**18),
                             10**18, [long_name] * 4, [long_name], 1_700_000_000.0, True)
             for n in range(25)]
    message = turns.tables_list(lines, mine=False)
    text = message.embeds[0].description or ""
    assert len(text) <= 4096 and "… and 15 more." in text
    assert text.count("Contract Bridge #") == turns.TABLES_SHOWN
    assert message.send_kwargs()["allowed_mentions"].to_dict() == {"parse": []}


def test_no_tables_is_said_plainly():
    assert "No table is open" in (turns.tables_list([], mine=False).content or "")
    assert "not seated" in (turns.tables_list([], mine=True).content or "")
