"""Add bot with a choice of level: the default (strongest) kind, or another by name."""

from __future__ import annotations

import pytest

import bot.ai.spades.basic
from bot.ai import level_label, player_kinds
from bot.ai.spades.basic import SpadesPlayer
from tests.e2e.harness import running


class _Advanced(SpadesPlayer):
    """A second kind for the test (the AI engineers' stronger kinds replace it)."""

    kind = "spades-advanced"


@pytest.fixture
def two_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.ai.spades, "PLAYERS",
                        {_Advanced.kind: _Advanced, SpadesPlayer.kind: SpadesPlayer})


async def test_a_table_chooses_its_computer_players_level(discord_double, tmp_path,
                                                          two_levels):
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        table = await h.open_table(alice, "spades")
        lobby = h.table_message()
        assert "**Add Basic bot** for another level" in lobby.embeds[0]["description"]
        await h.press(alice, lobby, "Add bot")
        await h.press(alice, lobby, "Add Basic bot")
        await h.press(alice, lobby, "Add bot")
        assert [s.bot_kind for s in table.seats[1:]] == [
            "spades-advanced", "spades-basic", "spades-advanced"]
        stored = await h.bot.store.seats(table.id)
        assert [(s.bot_kind, s.display_name) for s in stored[1:]] == [
            ("spades-advanced", "Advanced bot"), ("spades-basic", "Basic bot"),
            ("spades-advanced", "Advanced bot")]
        text = h.table_message().embeds[0]["description"]
        assert "East: Advanced bot" in text and "South: Basic bot" in text
        assert "Add Basic bot" not in str(h.table_message().components), "the table is full"
        assert "Add" not in text and "Join" not in text, "the full lobby offers no seat"
        assert "Every seat is filled: press **Start**" in text
        enabled = {b["label"]: not b.get("disabled", False)
                   for b in h.buttons(h.table_message())}
        assert enabled == {"Join": False, "Leave": True, "Add bot": False, "Start": True,
                           "Cancel": True, "Rules": True}
        await h.press(alice, h.table_message(), "Start")
        await discord_double.settle()
        public = str(h.table_message().embeds)
        assert "Advanced bot" in public and "Basic bot" in public
        # A forged level is refused, and the lobby of another table is unchanged.
        await h.slash(alice, "abandon")
        other = await h.open_table(alice, "spades")
        await h.forge(alice, f"tt:addbot:{other.id}:spades-cheater")
        assert "no such computer player" in h.last_reply(alice)
        assert other.free_seats() == [1, 2, 3]


async def test_with_one_level_there_is_one_add_bot_button(discord_double, tmp_path,
                                                          monkeypatch):
    monkeypatch.setattr(bot.ai.spades, "PLAYERS", {SpadesPlayer.kind: SpadesPlayer})
    async with running(discord_double, tmp_path) as h:
        await h.open_table(h.user(0), "spades")
        labels = [b["label"] for b in h.buttons(h.table_message())]
        assert "Add bot" in labels and not any(label.startswith("Add B") for label in labels)


@pytest.mark.parametrize("game", ["spades", "tennis", "bidfair"])
async def test_the_look_ahead_games_offer_both_real_levels(discord_double, tmp_path, game):
    # The games' own registries: Add bot seats the look-ahead player (the default),
    # Add Basic bot the rule-based one.
    advanced, basic = f"{game}-advanced", f"{game}-basic"
    assert player_kinds(game)[:2] == (advanced, basic)
    async with running(discord_double, tmp_path) as h:
        alice = h.user(0)
        for level, kind in (("Add bot", advanced), ("Add Basic bot", basic)):
            table = await h.open_table(alice, game)
            assert "**Add Basic bot** for another level" in \
                h.table_message().embeds[0]["description"]
            await h.press(alice, h.table_message(), level)
            assert table.seats[1] is not None and table.seats[1].bot_kind == kind
            name = f"{level_label(kind)} bot"
            stored = await h.bot.store.seats(table.id)
            assert (stored[1].bot_kind, stored[1].display_name) == (kind, name)
            assert f"{name}" in h.table_message().embeds[0]["description"]
            await h.press(alice, h.table_message(), "Cancel")
