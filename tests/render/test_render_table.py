"""The public table at a glance: whose turn first, the trick by position with the card
just played marked, the score short, the last trick behind a private button."""

from __future__ import annotations

import pytest

from bot.games import Game, create
from bot.render import ids
from bot.render import messages as m
from bot.render.games import text_for
from bot.render.sample_tables import into_second_trick
from bot.render.seating import Seating
from tests.e2e.privacy import cards_shown

GAMES = ("bridge", "spades", "single_dummy", "tennis", "bidfair")
# Lines of a table mid-play, counting each field name as a line and inline fields one under
# another (as a phone may show them). The aim is about 15; measured 16 (Tennis) to 29
# (Single Dummy, both dummies shown) on these deals before the compass trick, two-line
# dummies, the totals-only score and two latest moves; 15 (Tennis) to 22 (Bid Fair) since;
# 14 (Tennis) to 20 (Single Dummy, Bid Fair) with one latest move, no footer and shorter
# status lines; 11 (Tennis) to 18 (Single Dummy) with the latest move and the score in the
# footer, Spades' bids once, shorter names (tests/render/test_preview.py counts the lines a
# phone wraps too).
PHONE_LINES = 18


def _seating(game: Game) -> Seating:
    n = game.SEATS
    return Seating(seat_names=tuple(game.SEAT_NAMES), names=("Ann", "Bob", "Cy", "Di")[:n],
                   user_ids=tuple(1000 + s for s in range(n)), bots=(False,) * n)


def _public(name: str, game: Game) -> m.Message:
    return m.public_table(7, name, game.TITLE, game.view(None), _seating(game),
                          ["a", "b", "c", "d", "e"], sorted(game.to_act()))


@pytest.mark.parametrize("name", GAMES)
def test_the_turn_comes_first_and_the_table_fits_a_phone(name: str) -> None:
    game = into_second_trick(name)[0]
    message = _public(name, game)
    embed = message.embeds[0].to_dict()
    first = embed["description"].splitlines()[0]
    assert first == text_for(name).turn_line(game.view(None), _seating(game))
    lines = sum(1 + f["value"].count("\n") + 1 for f in embed["fields"])
    lines += 1 + embed["description"].count("\n") + 1
    footer = embed["footer"]["text"].splitlines()
    lines += len(footer)
    assert lines <= PHONE_LINES, f"{name}: {lines} lines"
    assert all(f["name"] not in ("Latest", "Score") for f in embed["fields"]), \
        "no field (and its name's line) for them: the footer's small print holds both"
    latest, score = footer
    assert latest == "e", "the latest move only"
    assert score == "Score: " + " · ".join(
        f"{side}: {total}" for side, total in zip(game.view(None).score.sides,
                                                  game.view(None).score.totals, strict=True)) \
        + (" (fewest wins)" if game.view(None).score.lower_wins else ""), "the totals only"


@pytest.mark.parametrize("name", GAMES)
def test_last_trick_is_a_private_button_not_a_public_field(name: str) -> None:
    game = into_second_trick(name)[0]
    message = _public(name, game)
    assert all(f.name != "Last trick" for f in message.embeds[0].fields)
    last = next(b for b in message.buttons or () if b.label == "Last trick")
    assert not last.disabled and ids.parse(last.custom_id).verb == "last"
    shown = m.last_trick(7, name, game.TITLE, game.view(None), _seating(game))
    text = shown.content or ""
    assert "Last trick" in text and "Won by" in text and "deal 1" in text
    # (read as Spades text: in the bridge games low cards might be read as bids)
    assert cards_shown(text, "spades") == {c for _, c in game.view(None).last_trick.cards}


def test_before_any_trick_is_complete_the_button_is_disabled() -> None:
    game = create("spades", options={}, seed=2)
    message = _public("spades", game)
    last = next(b for b in message.buttons or () if b.label == "Last trick")
    assert last.disabled


def test_the_trick_is_laid_out_by_position_with_the_card_just_played_marked() -> None:
    game = into_second_trick("bridge")[0]
    view = game.view(None)
    text = text_for("bridge").trick_text(view.trick, _seating(game))
    # a compass: North on top, West and East beside each other, South below
    top, middle, bottom = text.splitlines()
    west, east = middle.split(" · ")
    places = [top, east, bottom, west]
    assert [place.split(" ")[0] for place in places] == ["North", "East", "South", "West"]
    (who, card), = view.trick
    assert sum("◀" in place for place in places) == 1
    assert places[who].endswith("◀") and card.label in places[who]
    assert sum(place.endswith(": —") for place in places) == 3
