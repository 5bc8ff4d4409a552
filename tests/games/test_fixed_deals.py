"""A match of a fixed number of deals (the internal option `deals`, what challenges play)
in Single Dummy Bridge, Tennis and Bid Fair: it ends after deal n whatever the score, the
higher total wins (Tennis: the fewer errors), equal totals draw, each deal's points are on
its score line and event, and every match from the same fair deals plays the same packs."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import create, game_class, replay
from bot.games.base import Game, InvalidOptions
from bot.games.events import BidFairDealEnded, DealEnded, TennisDealEnded
from bot.games.fairness import FairDeals
from tests.games.tennis_helpers import ExampleGame

GAMES = ("single_dummy", "tennis", "bidfair")


def random_action(game: Game[Any], rng: random.Random) -> tuple[int, str]:
    seat = rng.choice(sorted(game.to_act()))
    legal = game.legal(seat)
    # Single Dummy: pass half the time in the auction, so contracts stay makeable.
    if "pass" in legal and game.NAME == "single_dummy" and rng.random() < 0.5:
        return seat, "pass"
    return seat, rng.choice(legal)


def passing_action(game: Game[Any], rng: random.Random) -> tuple[int, str]:
    """Pass whenever passing is legal (throws in every Single Dummy and Bid Fair deal)."""
    seat = min(game.to_act())
    legal = game.legal(seat)
    return seat, "pass" if "pass" in legal else rng.choice(legal)


def play_out(game: Game[Any], rng: random.Random, choose: Any = random_action
             ) -> list[DealEnded]:
    ended: list[DealEnded] = []
    for _ in range(10_000):  # 32 deals of any of these games take fewer actions
        if game.finished:
            return ended
        ended += [e for e in game.apply(*choose(game, rng)) if isinstance(e, DealEnded)]
    raise AssertionError(f"the match has not ended after 10000 actions ({ended[-1:]})")


def dealt_now(game: Game[Any]) -> object:
    """The current deal's cards as dealt (before anyone's choice moves them)."""
    return game.deal_record() if game.NAME == "tennis" else tuple(game.dealt)  # type: ignore[attr-defined]


def check_the_sheet_and_the_result(game: Game[Any], ended: list[DealEnded],
                                   deals: int) -> None:
    """Deal k's points are on its event and on line k of the sheet; the totals add the
    lines; the result ranks the totals (Tennis: fewer errors first), equal ones drawing."""
    assert [e.deal_no for e in ended] == list(range(1, deals + 1))
    sheet = game.scores()
    assert len(sheet.lines) == deals
    for event, line in zip(ended, sheet.lines, strict=True):
        assert event.lines == (line,)
        assert len(line.points) == 2
        if isinstance(event, TennisDealEnded):
            assert event.errors == line.points
        if isinstance(event, BidFairDealEnded):
            assert event.score.points == line.points
    assert sheet.totals == tuple(sum(line.points[s] for line in sheet.lines) for s in (0, 1))
    assert sheet.lower_wins == (game.NAME == "tennis")
    result = game.result()
    assert result is not None and result.totals == sheet.totals
    first, second = sheet.totals
    if first == second:
        assert result.is_draw and result.ranks == (0, 0) and "draw" in result.summary.lower()
    else:
        best = 0 if (first < second) == sheet.lower_wins else 1
        assert result.winner == best and result.ranks[1 - best] == 1
    assert game.to_act() == frozenset() and game.legal(0) == [] and game.legal(1) == []


@given(st.sampled_from(GAMES), st.integers(0, 2**31), st.integers(1, 4))
def test_random_matches_of_a_fixed_number_of_deals_end_after_them_and_replay_the_same(
        name: str, seed: int, deals: int) -> None:
    # The lowest target, often reached before the last deal: the match plays on.
    options: dict[str, object] = {"deals": deals}
    if name != "tennis":
        options["target"] = 100
    game = create(name, options, seed)
    ended = play_out(game, random.Random(seed))
    check_the_sheet_and_the_result(game, ended, deals)
    again = replay(create(name, options, seed), game.history)
    assert again.finished and again.scores() == game.scores()
    assert again.result() == game.result()
    for seat in (0, 1, None):
        assert again.view(seat) == game.view(seat)


@pytest.mark.parametrize("name", ("single_dummy", "bidfair"))
def test_a_fixed_number_of_deals_plays_on_past_the_target(name: str) -> None:
    # Single Dummy: undertricks score too, so a random auction's high contracts do.
    options = {"deals": 3, "target": 100, **({"undertrick_penalty": True}
                                           if name == "single_dummy" else {})}
    passed_early = 0
    for seed in range(30):
        game = create(name, options, seed)
        ended = play_out(game, random.Random(seed))
        check_the_sheet_and_the_result(game, ended, 3)
        lines = game.scores().lines
        passed_early += any(sum(line.points[s] for line in lines[:2]) >= 100 for s in (0, 1))
    assert passed_early >= 20  # the target was mostly reached before the last deal


@pytest.mark.parametrize("name", GAMES)
def test_without_the_option_the_match_is_played_as_before(name: str) -> None:
    game = create(name, seed=4)
    assert "deals" not in game.options  # internal: /play never offers it
    spec = next(s for s in game_class(name).OPTIONS if s.name == "deals")
    assert spec.internal and spec.default == 0 and spec.maximum == 32
    with pytest.raises(InvalidOptions):
        create(name, {"deals": 33})
    with pytest.raises(InvalidOptions):
        create(name, {"deals": -1})
    if name == "tennis":
        assert len(play_out(game, random.Random(4))) == 10  # two sets of five
    else:
        game = create(name, {"target": 100}, seed=4)  # random play reaches 500 slowly
        play_out(game, random.Random(4))
        assert max(game.scores().totals) >= 100


@pytest.mark.parametrize("name", ("single_dummy", "bidfair"))
def test_deals_thrown_in_count_and_level_totals_draw(name: str) -> None:
    game = create(name, {"deals": 2}, seed=11)
    ended = play_out(game, random.Random(11), passing_action)
    assert [line.points for line in game.scores().lines] == [(0, 0), (0, 0)]
    assert all("thrown in" in line.note for line in game.scores().lines)
    check_the_sheet_and_the_result(game, ended, 2)
    result = game.result()
    assert result is not None and result.is_draw


def test_tennis_fewer_errors_wins_a_fixed_number_of_games_and_equal_errors_draw() -> None:
    # The worked example each game: the non-dealer makes 3 errors, the dealer 1.
    one = create("tennis", {"deals": 1}, seed=2)
    assert isinstance(one, game_class("tennis"))
    dealer = one.dealer  # type: ignore[attr-defined]
    ExampleGame(one).play_all()  # type: ignore[arg-type]
    result = one.result()
    assert result is not None and result.winner == dealer
    assert one.scores().lines[0].points[dealer] == 1
    two = create("tennis", {"deals": 2}, seed=2)
    for _ in range(2):
        ExampleGame(two).play_all()  # type: ignore[arg-type]
    result = two.result()
    assert result is not None and result.totals == (4, 4) and result.is_draw


@pytest.mark.parametrize("name", GAMES)
def test_every_match_from_the_same_fair_deals_plays_the_same_pack_as_deal_k(
        name: str) -> None:
    # What a challenge needs: both people's deal k is the same cards, however differently
    # they play (here one throws in whatever it can).
    deals = FairDeals(client_seed="c0ffee", secret="ab" * 32)
    seen: list[list[object]] = []
    for choose in (random_action, passing_action):
        game = create(name, {"deals": 3}, seed=deals)
        rng = random.Random(5)
        by_deal: list[object] = []
        while not game.finished and len(game.history) < 10_000:
            if len(by_deal) < game.deal_no:  # type: ignore[attr-defined]
                by_deal.append(dealt_now(game))
            game.apply(*choose(game, rng))
        assert game.packs_dealt == 3  # one pack a deal: no redeal
        seen.append(by_deal)
    assert len(seen[0]) == 3 and seen[0] == seen[1]
