"""Bid Fair's end of a deal: each of its 24 cards is shown once, in the place that is
true (what each player played, a bid card, the cut card, what nobody played); titles stay
inside the picture; the score is said in plain words."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PIL import Image

from bot.games import create
from bot.games.bidfair_view import DealSummary
from bot.render.games import text_for
from bot.render.games.bidfair import card_places, score_words
from bot.render.pictures.deals import MARGIN, DealPicture
from bot.render.pictures.shapes import FELT
from bot.render.seating import Seating

SEATING = Seating(seat_names=("North", "South"), names=("Ann", "Bob"), user_ids=(1, 2),
                  bots=(False, False))


def _deals(options: dict[str, Any], want: Callable[[DealSummary], bool],
           count: int = 3) -> list[DealSummary]:
    """First deals of random matches (legal moves; both pass where the options make
    that throw the deal in) that `want` picks."""
    found = []
    for seed in range(1, 600):
        game = create("bidfair", options=options, seed=seed)
        rng = random.Random(seed)
        while game.view(None).previous_deal is None:
            seat = min(game.to_act())
            legal = list(game.legal(seat))
            game.apply(seat, "pass" if "pass" in legal and options.get("deals")
                       else rng.choice(legal))
        summary = game.view(None).previous_deal
        if want(summary):
            found.append(summary)
            if len(found) == count:
                return found
    raise AssertionError("too few such deals")


KINDS = {
    "kept": ({}, lambda d: d.holder is not None and not d.exchanged),
    "exchanged": ({}, lambda d: d.exchanged),
    "no contract": ({}, lambda d: d.holder is None and d.cut is not None),
    "thrown in": ({"deals": 4}, lambda d: d.cut is None),
}


def _shown(summary: DealSummary) -> list[Any]:
    places = card_places(summary, SEATING.name)
    bids = [p.card for p in summary.bids if p is not None and p.card is not None]
    cut = [summary.cut] if summary.cut is not None else []
    return [*places.played[0], *places.played[1], *bids, *cut, *places.unplayed]


def test_every_card_of_the_deal_is_shown_once_where_it_ended() -> None:
    for kind, (options, want) in KINDS.items():
        for summary in _deals(options, want):
            shown = _shown(summary)
            dealt = [c for hand in summary.hands for c in hand]
            assert sorted(shown) == sorted(dealt) and len(set(shown)) == 24, kind
            places = card_places(summary, SEATING.name)
            if summary.tricks:  # each shows the 7 cards they played, in tricks
                for seat in (0, 1):
                    played = {c for t in summary.tricks for s, c in t.cards if s == seat}
                    assert set(places.played[seat]) == played, kind
            if summary.exchanged:
                assert places.unplayed_title.startswith("Not played: Ann's own 7") or \
                    places.unplayed_title.startswith("Not played: Bob's own 7")
            # the picture's description lists the same cards, once each
            listed = [c for _, cards in text_for("bidfair").deal_hands(summary, SEATING)
                      for c in cards]
            assert sorted(listed) == sorted(dealt), kind


def test_titles_stay_inside_the_picture_however_long_a_name() -> None:
    long = ("Ann", "Roberta Longname-Smithson the Third")
    for options, want in KINDS.values():
        for summary in _deals(options, want, count=1):
            for dealer in (0, 1):
                picture = DealPicture("bidfair", "Bid Fair", 3, long,
                                      _with_dealer(summary, dealer))
                image = Image.open(io.BytesIO(picture.render())).convert("RGB")
                right = image.crop((image.width - MARGIN + 4, 0, image.width, image.height))
                colours = {colour for _, colour in right.getcolors(1 << 16) or []}
                assert colours == {FELT}, "nothing drawn in the right margin"


def _with_dealer(summary: DealSummary, dealer: int) -> DealSummary:
    return replace(summary, dealer=dealer)


def test_the_score_is_explained_in_plain_words() -> None:
    [made] = _deals({}, lambda d: d.holder is not None and d.captured[d.holder]
                    >= (d.contract_value or 0) and all(p and p.face_up for p in d.bids), 1)
    words = score_words(made, SEATING.name)
    holder = SEATING.name(made.holder)
    other = SEATING.name(1 - made.holder)
    more = made.captured[made.holder] - made.captured[1 - made.holder]
    assert words.startswith("Each scores the card points they captured.")
    assert (f"The contract was made, so {holder} also scores the difference, {more} twice "
            f"(both bid face up), and {other} 40.") in words
    [missed] = _deals({}, lambda d: d.holder is not None
                      and d.captured[d.holder] < (d.contract_value or 0), 1)
    assert "A missed contract scores nothing more." in score_words(missed, SEATING.name)
    post = " ".join(text_for("bidfair").deal_lines(missed, SEATING))
    value, took = missed.contract_value, missed.captured[missed.holder]
    assert f"had to capture {value} and took {took}: missed" in post
    assert "contract of" not in post
