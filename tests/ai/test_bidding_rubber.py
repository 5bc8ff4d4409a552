"""Rubber-aware bidding (bot.ai.bridge.bidding with a rubber's score): each part-score rule with
the explanation people see, the level of game with a part score, the rubber values the
simulation scores contracts by (checked against figures worked out by hand), and that a
duplicate board keeps the duplicate score."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.ai.bridge.bidding import Score, choose_call, explain_calls, read_auction
from bot.ai.bridge.bidding.captain import game_level
from bot.ai.bridge.bidding.context import Context
from bot.ai.bridge.bidding.rubber import expected_result, rubber_value
from bot.ai.bridge.bidding.simulation import Candidate, scores
from bot.ai.bridge.bidding.system import _context, read
from bot.games import create
from bot.games.bridge_auction import Auction, Call, Contract, Strain
from bot.games.cards import parse_hand

N, E, S, W = 0, 1, 2, 3
OURS_70 = Score((0, 0), (70, 0))  # North-South have 70 below the line
OURS_40 = Score((0, 0), (40, 0))
THEIRS_60 = Score((0, 0), (0, 60))


def auction_of(calls: str, dealer: int = N) -> Auction:
    auction = Auction([(dealer + i) % 4 for i in range(4)], side_of=lambda s: s % 2)
    for text in calls.split():
        auction.call(auction.to_call(), Call.parse(text))
    return auction


def call(hand: str, calls: str, score: Score | None, dealer: int = N) -> tuple[str, str]:
    auction = auction_of(calls, dealer)
    me = auction.to_call()
    return choose_call(parse_hand(hand), me, auction.calls, auction.legal_texts(me),
                       score=score)


# (hand, auction from North, score, the call at duplicate, the call in the rubber, says)
RULES = [
    # 70 below the line: 1♥–2♥ is game; opener's 19 points are not slam.
    ("AK4.AKJ93.K43.32", "1H pass 2H pass", OURS_70, "bid:4H", "pass",
     "our part score of 70 makes 2♥ game, no slam interest: up to 21 points"),
    # ... nor is the game try of 16–18 made: 2♥ is the game.
    ("A4.AKJ93.K43.Q32", "1H pass 2H pass", OURS_70, "bid:3H", "pass",
     "our part score of 70 makes 2♥ game, no slam interest: up to 21 points"),
    # 40 below: the limit raise 3♥ becomes 2♥, which completes game.
    ("K32.Q984.A32.J54", "1H pass", OURS_40, "bid:3H", "bid:2H",
     "completes game with our part score of 40: 3+ hearts, 6–14 points"),
    # 30 below: 3♥ completes game; the raise jumps there with what the simple raise shows.
    ("K32.Q984.Q32.J54", "1H pass", Score((0, 0), (30, 0)), "bid:2H", "bid:3H",
     "completes game with our part score of 30: 3+ hearts, 7–14 points"),
    # their 60: 2♥ is their game; the opener with six diamonds competes to 3♦.
    ("A4.32.AKJ932.Q32", "1D 1H pass 2H", THEIRS_60, "pass", "bid:3D",
     "competes for the part score, their 60 below the line makes 2♥ game: 6+ diamonds, 12+ HCP"),
    # 80 below: 2NT over their 2♥ completes game; the duplicate jump to 3NT is not made.
    ("KQ4.AQ3.KJ73.954", "1C 2H", Score((0, 0), (80, 0)), "bid:3NT", "bid:2NT",
     "completes game with our part score of 80: 7–17 HCP, a stopper in hearts"),
]


@pytest.mark.parametrize(("hand", "calls", "score", "duplicate", "rubber", "says"), RULES)
def test_a_rubber_rule_and_its_explanation(hand: str, calls: str, score: Score,
                                           duplicate: str, rubber: str, says: str) -> None:
    assert call(hand, calls, None)[0] == duplicate
    assert call(hand, calls, score) == (rubber, says)
    # The reader explains the call the same way (the table's notes, /system).
    auction = auction_of(calls)
    made = [*auction.calls, (auction.to_call(), Call.parse(rubber.removeprefix("bid:")))]
    assert explain_calls(made, score)[-1] == says


def test_the_raise_of_an_overcall_jumps_to_the_level_completing_game_not_to_full_game() -> None:
    # Game all, 30 below: 1♦ (1♠) Pass: 3♠ (90) completes game, where at duplicate
    # North's 13 points and three spades bid 4♠.
    hand, calls, score = "K6532.Q986.AT.AT", "1D 1S pass", Score((1, 1), (30, 0))
    assert call(hand, calls, None, E) == ("bid:4S", "game: 3+ spades, 13+ points")
    assert call(hand, calls, score, E) == (
        "bid:3S", "completes game with our part score of 30: 3+ spades, 11–18 points")
    # South reads it as game and passes without slam values.
    assert call("QJ974.A5.K65.Q32", calls + " 3S pass", score, E) == (
        "pass", "our part score of 30 makes 3♠ game, no slam interest: up to 16 points")


def test_a_transfer_stays_a_transfer_with_a_part_score() -> None:
    # 40 below: 2♥ over 1NT would complete game as a natural bid, but the table's 2♥ is a
    # transfer to spades: it is read so, and opener completes it (2♠ is game) rather than
    # passing it as game in hearts.
    responder = ("T8532.J93.76.J43", "1NT pass")
    assert call(*responder, OURS_40) == ("bid:2H", "transfer: 5+ spades")
    assert explain_calls([*auction_of("1NT pass").calls, (S, Call.parse("2H"))],
                         OURS_40)[-1] == "transfer: 5+ spades"
    assert call("AK4.Q2.KQ54.A652", "1NT pass 2H pass", OURS_40) == (
        "bid:2S", "completes the transfer: 2+ spades")


def test_the_pass_at_a_part_score_game_reads_as_no_slam() -> None:
    auction = auction_of("1H pass 2H pass pass")
    assert read_auction(N, auction.calls, OURS_70)[N].max_points == 21
    # Without the score the same pass is opener's minimum.
    assert read_auction(N, auction.calls)[N].max_points < 21


def test_the_level_of_game_reads_the_part_score() -> None:
    def ctx(score: Score | None, seat: int = N):  # type: ignore[no-untyped-def]
        reading = read(0, (), score)
        return _context(seat, (), reading.ranges, reading.forcing, score)

    assert [game_level(s) for s in Strain] == [5, 5, 4, 4, 3]
    # 70 below: 2♣/2♦ (40), 1♥/1♠ (30), 1NT (40) complete the 100.
    assert [game_level(s, ctx(OURS_70)) for s in Strain] == [2, 2, 1, 1, 1]
    assert [game_level(s, ctx(OURS_40)) for s in Strain] == [3, 3, 2, 2, 2]
    # East-West have no part score: their game is the full game.
    assert [game_level(s, ctx(OURS_70, E)) for s in Strain] == [5, 5, 4, 4, 3]
    assert [game_level(s, ctx(None)) for s in Strain] == [5, 5, 4, 4, 3]


def test_expected_rubber_results_computed_by_hand() -> None:
    # Game all, both with a part score that any part score completes: the next side to
    # score wins the rubber (500), each with probability 1/2.
    assert expected_result(Score((1, 1), (60, 60))) == 0
    # Game all, 60 to 40: we score (1/2) and win 500; they score (1/2, then 1/3 each) a
    # game or 60 (-500), or 40, making both sides sure of the next part score (0).
    assert expected_result(Score((1, 1), (60, 40))) == Fraction(1, 2) * 500 + Fraction(
        1, 6) * (-500 - 500 + 0)  # 250/3
    # Game all, 60 to nothing: their 60 gives the sure-sure 0, their 40 the line above.
    assert expected_result(Score((1, 1), (60, 0))) == 250 + Fraction(1, 6) * (
        -500 + 0 + Fraction(250, 3))  # 1625/9
    # We have a game and 60: any score of ours wins 700; any of theirs completes their
    # game (60 + 40 is 100), leaving game all with no part scores (0).
    assert expected_result(Score((1, 0), (60, 60))) == 350
    # We have a game, nothing below: the next game is won by either side alike, +700 or
    # game all (0).
    assert expected_result(Score((1, 0), (0, 0))) == 350
    assert expected_result(Score((0, 0), (0, 0))) == 0


def test_rubber_values_of_results_computed_by_hand() -> None:
    four_spades = Contract(4, Strain.SPADES, N, 0)
    two_hearts = Contract(2, Strain.HEARTS, N, 0)
    # Game all: 4♠ made wins the rubber: 120 below, 500 above.
    assert rubber_value(four_spades, 10, Score((1, 1), (0, 0)), 0) == 620
    # ... and is worth as much the other way round to East-West.
    assert rubber_value(four_spades, 10, Score((1, 1), (0, 0)), 1) == -620
    # Game all, 60 below: 2♥ made (60) wins the rubber, from an expected 1625/9.
    assert rubber_value(two_hearts, 8, Score((1, 1), (60, 0)), 0) == pytest.approx(
        60 + 500 - 1625 / 9)
    # Down one vulnerable: 100, and the score below the line is as it was.
    assert rubber_value(four_spades, 9, Score((1, 1), (60, 0)), 0) == -100
    # Not vulnerable, none below: a game is worth 350 more than the trick score (the
    # expected rubber from one game up), 4♠+1 = 120 + 30 + 350.
    assert rubber_value(four_spades, 11, Score((0, 0), (0, 0)), 0) == 500


def _table(*tricks: tuple[Strain, int, int]) -> list[list[int]]:
    table = [[0] * 4 for _ in range(5)]
    for strain, declarer, taken in tricks:
        table[strain][declarer] = taken
    return table


def _north_context(calls: str, score: Score) -> Context:
    """North to call after `calls` (North deals), as the system reads them at `score`."""
    auction = auction_of(calls)
    reading = read(0, auction.calls, score)
    return _context(N, auction.calls, reading.ranges, reading.forcing, score)


def test_the_simulation_values_a_part_score_game_over_a_full_game_that_fails() -> None:
    ctx = _north_context("1H pass 2H pass", OURS_70)
    options = [Candidate("bid:4H", Contract(4, Strain.HEARTS, N, 0)),
               Candidate("pass", Contract(2, Strain.HEARTS, S, 0))]
    table = _table((Strain.HEARTS, N, 9), (Strain.HEARTS, S, 9))  # nine tricks
    rubber = scores(ctx, options, [table], (False, False), OURS_70)
    duplicate = scores(ctx, options, [table], (False, False))
    assert duplicate == [[-50], [140]]
    # 2♥+1 completes the game: 60 + 30 + (350 - the expected rubber with 70 below).
    gain = 350 - float(expected_result(OURS_70))
    assert rubber == [[-50], [round(90 + gain)]]


def test_a_sacrifice_is_valued_by_the_rubber_it_saves_not_the_duplicate_game() -> None:
    # East-West a game up, we none: their 4♠ made is 120 below and the rubber (700),
    # where the expected rest of the rubber was -350 for us: -120 - 700 + 350 = -470,
    # not the duplicate -620. Our 5♦ doubled, not vulnerable: down three (-500) is worse
    # than letting them play in the rubber (better at duplicate), down two (-300) better.
    score = Score((0, 1), (0, 0))
    ctx = _north_context("1C 1S 2D 4S", score)
    options = [Candidate("pass", Contract(4, Strain.SPADES, E, 0)),
               Candidate("bid:5D", Contract(5, Strain.DIAMONDS, N, 1))]
    tables = [_table((Strain.SPADES, E, 10), (Strain.DIAMONDS, N, 8)),
              _table((Strain.SPADES, E, 10), (Strain.DIAMONDS, N, 9))]
    assert expected_result(score) == -350
    assert scores(ctx, options, tables, (False, True), score) == [[-470, -470],
                                                                  [-500, -300]]
    assert scores(ctx, options, tables, (False, True)) == [[-620, -620], [-500, -300]]


def test_a_penalty_double_is_valued_against_letting_them_play_in_the_rubber() -> None:
    # East-West have 40 below: their 2♥ completes their game doubled or not, so doubling
    # it when it makes costs only the points it adds (2♥ doubled 120 + 50 for the
    # insult, against 60: 110), not the duplicate 470 - 110 = 360; down one the double
    # gains 50 (100 against 50) and the game is not completed.
    score = Score((0, 0), (0, 40))
    ctx = _north_context("1C 1H 1S 2H", score)
    options = [Candidate("pass", Contract(2, Strain.HEARTS, E, 0)),
               Candidate("double", Contract(2, Strain.HEARTS, E, 1))]
    tables = [_table((Strain.HEARTS, E, 8)), _table((Strain.HEARTS, E, 7))]
    before = float(expected_result(score))
    game_to_them = -350 - before  # one game to East-West, from the expected rest
    rubber = scores(ctx, options, tables, (False, False), score)
    assert rubber == [[round(-60 + game_to_them), 50], [round(-170 + game_to_them), 100]]
    assert rubber[1][0] - rubber[0][0] == -110
    assert scores(ctx, options, tables, (False, False)) == [[-110, 50], [-470, 100]]


def test_duplicate_boards_keep_the_duplicate_score() -> None:
    board = create("bridge", options={"boards": 4}, seed=3)
    rubber = create("bridge", options={}, seed=3)
    assert Score.of(board.view(N)) is None
    assert Score.of(rubber.view(N)) == Score((0, 0), (0, 0))
