"""Discord's refusals of the publisher's writes are classified in one place
(bot/publishing/refusals.py), and a message built with card emojis can be sent with text
cards instead."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.games.cards import Card, deck
from bot.publishing.card_emojis import cards_as_text
from bot.publishing.refusals import Refusal, classify, retry_after
from bot.render import emojis, ids
from bot.render.components import button
from bot.render.messages import Message

ROOT = Path(__file__).resolve().parents[2]
EVERY_CARD = emojis.complete({name: 1000 + i for i, name in enumerate(emojis.NAMES)})


def _error(status: int, code: int, text: str = "", cls: type = discord.HTTPException,
           headers: dict[str, str] | None = None) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="", headers=headers or {})
    error: discord.HTTPException = cls(response, {"code": code, "message": text})
    return error


@pytest.fixture
def with_card_emojis() -> Iterator[None]:
    before = emojis.current()
    emojis.use(EVERY_CARD)
    try:
        yield
    finally:
        emojis.use(before)


@pytest.mark.parametrize(("status", "code", "text", "cls", "kind"), [
    (429, 0, "You are being rate limited.", discord.HTTPException, Refusal.RATE_LIMITED),
    (404, 10003, "Unknown Channel", discord.NotFound, Refusal.CHANNEL_GONE),
    (404, 10008, "Unknown Message", discord.NotFound, Refusal.MESSAGE_GONE),
    (404, 0, "404: Not Found", discord.NotFound, Refusal.MESSAGE_GONE),
    (400, 30046, "Maximum number of edits to messages older than 1 hour reached",
     discord.HTTPException, Refusal.MESSAGE_GONE),
    (403, 50001, "Missing Access", discord.Forbidden, Refusal.FORBIDDEN),
    (403, 50013, "Missing Permissions", discord.Forbidden, Refusal.FORBIDDEN),
    (400, 50035, "Invalid Form Body: content too long", discord.HTTPException,
     Refusal.OTHER),
    (500, 0, "Internal Server Error", discord.DiscordServerError, Refusal.OTHER),
])
def test_each_refusal_has_one_kind(status, code, text, cls, kind, with_card_emojis):
    assert classify(_error(status, code, text, cls)) is kind


def test_a_card_emoji_is_blamed_only_while_cards_are_emojis(with_card_emojis):
    invalid = _error(400, 50035, "Invalid Form Body: Invalid emoji")
    unknown = _error(400, 10014, "Unknown Emoji")
    assert classify(invalid) is classify(unknown) is Refusal.CARDS
    emojis.use(emojis.TEXT_ONLY)  # given up already: nothing is drawn again for it
    assert classify(invalid) is classify(unknown) is Refusal.OTHER


def test_retry_after_is_discords_header_within_bounds():
    assert retry_after(_error(429, 0, headers={"Retry-After": "2.5"})) == 2.5
    assert retry_after(_error(429, 0, headers={"Retry-After": "soon"})) == 1.0
    assert retry_after(_error(429, 0, headers={"Retry-After": "600"})) == 60.0


def test_a_message_built_with_card_emojis_is_written_with_text_cards(with_card_emojis):
    queen, ten = Card.parse("QH"), Card.parse("TD")
    embed = discord.Embed(title=f"Led {emojis.card_text(queen)}",
                          description=" ".join(emojis.card_text(c) for c in deck()))
    embed.add_field(name="Won by", value=f"North with {emojis.card_text(ten)}")
    embed.set_image(url="attachment://deal.png")
    message = Message(content=f"{emojis.card_text(queen)} <:wave:42>", embeds=[embed],
                      buttons=(button(ids.make("act", 1, 0, 0, "play:QH"), queen.label,
                                      emoji=emojis.current().component(queen)),
                               button(ids.make("hand", 1), "Refresh",
                                      emoji={"id": None, "name": "🔄"})))
    cards_as_text(message)
    assert message.content == f"{queen.label} <:wave:42>", "other emojis stay"
    written = message.embeds[0].to_dict()
    assert written["title"] == f"Led {queen.label}"
    assert written["description"] == " ".join(c.label for c in deck())
    assert written["fields"][0]["value"] == f"North with {ten.label}"
    assert written["image"]["url"] == "attachment://deal.png"
    assert message.buttons is not None
    assert [b.emoji for b in message.buttons] == [None, {"id": None, "name": "🔄"}]


def _compares_a_code(node: ast.AST) -> bool:
    """A comparison reading an error's `code` or `status` (`error.code in GONE`)."""
    return isinstance(node, ast.Compare) and any(
        isinstance(part, ast.Attribute) and part.attr in ("code", "status")
        and isinstance(part.value, ast.Name) and part.value.id in ("error", "exc", "e")
        for part in ast.walk(node))


def test_only_the_classifier_reads_discords_error_codes():
    """What a refusal means is decided in refusals.py; the writers act on its kind."""
    found = []
    for path in [*sorted((ROOT / "bot" / "publishing").glob("*.py")),
                 ROOT / "cogs" / "tables.py"]:
        if path.name == "refusals.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                  if _compares_a_code(node)]
    assert found == []
