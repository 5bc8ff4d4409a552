"""Robot's play: a finished duplicate board played again by four computer players, on the
same cards, dealer and vulnerability, with the board's par; a board not over is refused."""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.club.robot import ROBOT_GAMES, robot_deal
from bot.games import create, game_class, games_with
from bot.games.bridge_scoring import board_dealer
from bot.games.events import DealEnded
from bot.games.fairness import FairDeals
from bot.handrecord import DealNotOver, replay_deal
from bot.render.robot import robot_text

OPTIONS = {"boards": 4, "undo": False}


def _played_boards(boards: int, seed: int) -> tuple[FairDeals, list[tuple[int, str]]]:
    """A table's deals and the log of its first `boards` boards, played at random."""
    secret = hashlib.sha256(f"{seed}".encode()).hexdigest()  # fixed by the seed: replayable
    source = FairDeals(client_seed=f"robot-{seed}", secret=secret)
    game = create("bridge", options=OPTIONS, seed=source)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while game.deal_no <= boards and not game.finished:
        seat = sorted(game.to_act())[0]
        legal = [str(m) for m in game.legal(seat) if not str(m).startswith(("claim", "undo"))]
        move = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
        game.apply(seat, move)
        log.append(game.history[-1])
    return source, log


def test_every_game_with_challenges_has_the_robots_play():
    assert set(ROBOT_GAMES) == set(games_with("CHALLENGE"))


def test_the_robots_play_the_same_board_from_its_start():
    source, log = _played_boards(2, seed=5)
    robot = robot_deal("bridge", OPTIONS, source, log, 2, think_seconds=0.02,
                       kind="bridge-basic")
    record = replay_deal("bridge", OPTIONS, source, log, 2)
    assert robot.hands == tuple(tuple(c.text for c in hand) for hand in record.hands)
    assert robot.dealer == board_dealer(2) and robot.calls[0][0] == robot.dealer
    assert robot.par is not None and robot.par.startswith("Par:")
    passes = [label for _, label in robot.calls[-3:]]
    assert passes == ["Pass"] * 3  # an auction that ended
    if robot.note:  # a contract was played: one side scored
        assert sum(robot.points) != 0


def test_a_board_not_over_is_refused():
    source, log = _played_boards(1, seed=9)
    with pytest.raises(DealNotOver):
        robot_deal("bridge", OPTIONS, source, log, 3, think_seconds=0.02)


def test_the_robots_play_a_spades_deal_of_a_daily():
    secret = hashlib.sha256(b"spades").hexdigest()
    source = FairDeals(client_seed="robot-spades", secret=secret)
    options = {"deals": 4}
    game = create("spades", options=options, seed=source)
    rng = random.Random(3)
    log: list[tuple[int, str]] = []
    while game.deal_no <= 1:
        seat = sorted(game.to_act())[0]
        game.apply(seat, rng.choice([str(m) for m in game.legal(seat)]))
        log.append(game.history[-1])
    dealt = create("spades", options=options, seed=source).deal_record()
    robot = robot_deal("spades", options, source, log, 1, think_seconds=0.02)
    assert robot.par is None and len(robot.calls) == 4
    assert all(text.startswith("bid ") for _, text in robot.calls)
    assert robot.hands == tuple(tuple(c.text for c in hand) for hand in dealt.hands)
    tricks = sum(int(text.rsplit(" ", 1)[1]) for _, text in robot.calls)
    assert tricks == 13  # every trick of the deal was played


@pytest.mark.parametrize("name", ["single_dummy", "tennis", "bidfair"])
def test_the_robots_play_a_deal_of_a_two_player_challenge(name: str):
    """Every game with challenges has the robot's play: the same cards as the person's
    second deal, played out by computer players, with a result and the answer's text."""
    challenge = game_class(name).CHALLENGE
    assert challenge is not None
    options = {**challenge.options, challenge.length_option: 3}
    source = FairDeals(client_seed=f"robot-{name}",
                       secret=hashlib.sha256(name.encode()).hexdigest())
    game = create(name, options=options, seed=source)
    rng = random.Random(4)
    log: list[tuple[int, str]] = []
    ends: list[DealEnded] = []
    while len(ends) < 2:
        seat = sorted(game.to_act())[0]
        legal = [str(m) for m in game.legal(seat) if not str(m).startswith(("claim", "undo"))]
        ends += [e for e in game.apply(seat, rng.choice(legal)) if isinstance(e, DealEnded)]
        log.append(game.history[-1])
    robot = robot_deal(name, options, source, log, 2, think_seconds=0.02)
    # The same cards (Single Dummy names its dummies by who took which, so by set).
    assert robot.deal_no == 2 and sorted(robot.hands) == sorted(ends[1].hands)
    assert robot.par is None
    assert robot.note and robot.calls == ()
    text = robot_text(name, 9, 2, challenge.seat, ends[1].lines[0].note,
                      ends[1].lines[0].points, robot.dealer, robot.calls, robot.note,
                      robot.points, robot.par)
    seat_name = game_class(name).SEAT_NAMES[challenge.seat]
    assert f"from your seat ({seat_name})" in text and robot.note in text
    assert ("errors" if name == "tennis" else "points") in text
    with pytest.raises(DealNotOver):
        robot_deal(name, options, source, log, 3, think_seconds=0.02)
