"""/help as embeds within Discord's limits, every paragraph kept whole and in order."""

from __future__ import annotations

from bot.render.rules import help_embeds, help_text
from bot.tables import TABLE_OPTIONS

OPTIONS = [spec.name for spec in TABLE_OPTIONS]


def test_help_fits_discords_embed_limits_and_keeps_every_paragraph() -> None:
    embeds = help_embeds(OPTIONS)
    descriptions = [embed.description or "" for embed in embeds]
    assert all(len(text) <= 4096 for text in descriptions)
    assert sum(len(text) for text in descriptions) + len("TrickTable help") <= 6000
    assert "\n".join(descriptions) == help_text(OPTIONS).rstrip("\n")
    assert embeds[0].title == "TrickTable help"


def test_help_says_where_tables_can_live() -> None:
    text = help_text(OPTIONS)
    assert "Create Public Threads" in text and "abandons its table" in text


def test_help_says_in_one_line_what_a_rating_means() -> None:
    text = help_text(OPTIONS)
    assert "Ratings start at 1000" in text and "about 1500 is an average player" in text
