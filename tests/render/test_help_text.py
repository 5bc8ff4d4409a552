"""/help: one short page, with a button to each game's rules and to each topic; every
page within Discord's limits."""

from __future__ import annotations

from bot.games import GAMES, game_class
from bot.render import ids
from bot.render.components import rows
from bot.render.rules import HELP_TOPICS, HOME, help_buttons, help_page, help_text
from bot.tables import TABLE_OPTIONS

OPTIONS = [spec.name for spec in TABLE_OPTIONS]


def test_help_is_one_short_page_with_a_button_to_each_game_and_topic() -> None:
    home = help_page(HOME, OPTIONS)
    assert home.title == "TrickTable help"
    assert len(home.description or "") < 700, "a phone's screen, not a manual"
    buttons = help_buttons(HOME)
    pages = [ids.parse(b.custom_id).args[0] for b in buttons]
    assert pages == [*GAMES, *HELP_TOPICS]
    assert [b.label for b in buttons][:len(GAMES)] == [game_class(g).TITLE for g in GAMES]
    assert len(rows(buttons)) == 2


def test_every_help_page_fits_and_leads_back() -> None:
    for page in (*GAMES, *HELP_TOPICS):
        embed = help_page(page, OPTIONS)
        assert len(embed.description or "") <= 4096 and len(embed) <= 6000, page
        buttons = help_buttons(page)
        assert buttons[-1].label == "Back to help", page
        assert [b.label for b in buttons if b.style.name == "primary"] != [], page
    assert help_page(GAMES[0], OPTIONS).title.startswith("Rules:")


def test_help_says_where_tables_can_live() -> None:
    text = help_text(OPTIONS)
    assert "Create Public Threads" in text and "abandons its table" in text


def test_help_says_in_one_line_what_a_rating_means() -> None:
    home = help_page(HOME, OPTIONS).description or ""
    assert "Ratings start at 1000" in home and "about 1500 is an average player" in home
    assert help_text(OPTIONS).count("Ratings start at 1000") == 1
