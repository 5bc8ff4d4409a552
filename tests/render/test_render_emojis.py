"""Cards written with the card emojis: in hands, tricks and on buttons; text without them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.games.cards import cards, deck
from bot.render import emojis
from bot.render.games.common import plays_inline
from bot.render.layout import layout
from bot.render.text import hand_lines


@pytest.fixture
def with_emojis() -> Iterator[emojis.CardEmojis]:
    ids = {name: 1000 + i for i, name in enumerate(emojis.NAMES)}
    chosen = emojis.complete(ids)
    emojis.use(chosen)
    try:
        yield chosen
    finally:
        emojis.use(emojis.TEXT_ONLY)


def test_names_cover_every_card_and_the_back_and_read_back() -> None:
    assert len(set(emojis.NAMES)) == 53
    for card in deck():
        assert emojis.card_of_name(emojis.emoji_name(card)) is card
    assert emojis.card_of_name(emojis.BACK) is None
    assert emojis.card_of_name("tt1_ZZ") is None


def test_an_incomplete_set_is_text_only() -> None:
    assert not emojis.complete({emojis.NAMES[0]: 1}).enabled


def test_hands_group_emojis_by_suit(with_emojis: emojis.CardEmojis) -> None:
    hand = cards("AS KS 2H")
    ace, king, two = (with_emojis.ids[emojis.emoji_name(c)] for c in hand)
    assert hand_lines(hand) == [f"♠ <:tt1_AS:{ace}><:tt1_KS:{king}>", f"♥ <:tt1_2H:{two}>",
                                "♦ —", "♣ —"]
    assert plays_inline([(0, hand[0])], lambda s: "North") == f"North <:tt1_AS:{ace}>"


def test_plain_cards_keep_text_inside_the_block(with_emojis: emojis.CardEmojis) -> None:
    with emojis.plain_cards():
        assert hand_lines(cards("AS TH")) == ["♠ A", "♥ 10", "♦ —", "♣ —"]
    assert "<:tt1_AS:" in hand_lines(cards("AS"))[0]


def test_card_buttons_carry_their_emoji_and_keep_their_label(
        with_emojis: emojis.CardEmojis) -> None:
    from bot.render.messages import _action_button

    plan = layout(["play:QH", "pass"])
    items = [item for row in plan.rows for item in row]
    by_action = {item.action: _action_button(1, 0, 0, item, 0) for item in items}  # type: ignore[union-attr]
    queen = by_action["play:QH"].to_dict()
    assert queen["emoji"] == {"id": str(with_emojis.ids["tt1_QH"]), "name": "tt1_QH"}
    assert queen["label"] == "Q♥"
    assert "emoji" not in by_action["pass"].to_dict()


def test_without_emojis_everything_is_text() -> None:
    assert hand_lines(cards("AS")) == ["♠ A", "♥ —", "♦ —", "♣ —"]
    assert emojis.current().component(cards("AS")[0]) is None
