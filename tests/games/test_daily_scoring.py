"""Duplicate scoring row by row, boards' dealer and vulnerability, IMPs, matchpoints, and
the engines' fixed-length modes the daily deals play. Expected figures are the published
duplicate scoring table's (ACBL/WBF), written out here, never computed by the code."""

from __future__ import annotations

import random

import pytest

from bot.games import create
from bot.games.bridge_auction import Contract, Strain
from bot.games.bridge_scoring import board_dealer, board_vulnerability, duplicate_score, imps
from bot.games.field import cross_imps, matchpoints, percentages

C, D, H, S, NT = Strain

# (contract, doubled, tricks taken by declarer, vulnerable) -> duplicate score
ROWS = [
    ((1, NT), 0, 7, False, 90), ((1, NT), 0, 8, False, 120), ((2, NT), 0, 8, True, 120),
    ((3, NT), 0, 9, False, 400), ((3, NT), 0, 9, True, 600), ((3, NT), 0, 10, False, 430),
    ((3, NT), 0, 10, True, 630), ((4, H), 0, 10, False, 420), ((4, S), 0, 10, True, 620),
    ((4, H), 0, 11, True, 650), ((5, D), 0, 11, False, 400), ((5, C), 0, 11, True, 600),
    ((6, S), 0, 12, False, 980), ((6, S), 0, 12, True, 1430), ((6, NT), 0, 12, False, 990),
    ((6, NT), 0, 12, True, 1440), ((7, NT), 0, 13, False, 1520), ((7, NT), 0, 13, True, 2220),
    ((7, C), 0, 13, True, 2140), ((1, S), 0, 7, False, 80), ((2, C), 0, 8, True, 90),
    ((3, D), 0, 9, False, 110), ((2, S), 0, 9, False, 140), ((1, C), 0, 13, False, 190),
    # doubled and redoubled, made
    ((1, H), 1, 7, False, 160), ((1, H), 1, 7, True, 160), ((1, H), 1, 8, False, 260),
    ((1, H), 1, 8, True, 360), ((2, H), 1, 8, False, 470), ((2, H), 1, 8, True, 670),
    ((1, NT), 1, 7, False, 180), ((4, S), 1, 10, False, 590), ((4, S), 1, 10, True, 790),
    ((1, NT), 2, 7, False, 560), ((1, NT), 2, 7, True, 760), ((1, C), 2, 8, True, 630),
    ((7, NT), 2, 13, False, 2280), ((7, NT), 2, 13, True, 2980), ((3, NT), 1, 9, True, 750),
    # defeated
    ((4, S), 0, 9, False, -50), ((4, S), 0, 9, True, -100), ((3, NT), 0, 6, False, -150),
    ((4, H), 1, 9, False, -100), ((4, H), 1, 9, True, -200), ((4, H), 1, 8, False, -300),
    ((4, H), 1, 8, True, -500), ((4, H), 1, 7, False, -500), ((4, H), 1, 7, True, -800),
    ((4, H), 1, 6, False, -800), ((4, H), 1, 6, True, -1100), ((4, H), 2, 9, False, -200),
    ((4, H), 2, 9, True, -400), ((4, H), 2, 8, True, -1000), ((7, NT), 1, 0, True, -3800),
    ((7, NT), 2, 0, True, -7600),
]


@pytest.mark.parametrize(("bid", "doubled", "tricks", "vul", "expected"), ROWS)
def test_daily_duplicate_scoring_row_by_row(bid, doubled, tricks, vul, expected):
    level, strain = bid
    assert duplicate_score(Contract(level, strain, 0, doubled), tricks, vul) == expected


# Boards 1..16 from the standard duplicate board set: dealer and vulnerability.
BOARDS = {
    1: ("N", "None"), 2: ("E", "NS"), 3: ("S", "EW"), 4: ("W", "All"), 5: ("N", "NS"),
    6: ("E", "EW"), 7: ("S", "All"), 8: ("W", "None"), 9: ("N", "EW"), 10: ("E", "All"),
    11: ("S", "None"), 12: ("W", "NS"), 13: ("N", "All"), 14: ("E", "None"), 15: ("S", "NS"),
    16: ("W", "EW"),
}
VUL = {"None": (False, False), "NS": (True, False), "EW": (False, True), "All": (True, True)}


@pytest.mark.parametrize("board", range(1, 33))
def test_daily_board_dealer_and_vulnerability_by_board_number(board):
    dealer, vul = BOARDS[(board - 1) % 16 + 1]
    assert board_dealer(board) == "NESW".index(dealer)
    assert board_vulnerability(board) == VUL[vul]


@pytest.mark.parametrize(("difference", "expected"), [
    (0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (90, 3), (130, 4), (170, 5), (210, 5),
    (220, 6), (300, 7), (360, 8), (420, 9), (430, 10), (500, 11), (590, 11), (600, 12),
    (750, 13), (900, 14), (1100, 15), (1300, 16), (1500, 17), (1750, 18), (2000, 19),
    (2250, 20), (2500, 21), (3000, 22), (3500, 23), (3990, 23), (4000, 24), (7600, 24),
    (-620, -12), (-50, -2),
])
def test_daily_imp_table(difference, expected):
    assert imps(difference) == expected


def test_daily_matchpoints_for_ties_and_several_results():
    assert matchpoints([420, 420]) == [1, 1]
    assert percentages([420, 420]) == [50.0, 50.0]
    assert percentages([620]) == [50.0]
    # four results: 620 beats all, two 420s tie each other and beat -100
    assert matchpoints([620, 420, 420, -100]) == [6, 3, 3, 0]
    assert percentages([620, 420, 420, -100]) == [100.0, 50.0, 50.0, 0.0]
    assert matchpoints([50, -50, 50, 50, -50]) == [6, 1, 6, 6, 1]
    # 620 v 420: 200 = 5 IMPs; 620 v -100: 720 = 12; 420 v -100: 520 = 11
    assert cross_imps([620, 420, -100], imps) == [(5 + 12) / 2, (-5 + 11) / 2, (-12 - 11) / 2]
    assert cross_imps([100], imps) == [0.0]


def _play_out(game, rng: random.Random) -> list:
    ends = []
    while not game.finished:
        seat = sorted(game.to_act())[0]
        for event in game.apply(seat, rng.choice(game.legal(seat))):
            if event.kind == "deal_end":
                ends.append(event)
    return ends


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_daily_bridge_boards_are_scored_duplicate_by_board_number(seed):
    game = create("bridge", {"boards": 4}, seed=seed)
    seen = []
    rng = random.Random(seed)
    while not game.finished:
        seen.append((game.deal_no, game.dealer, game.vulnerable))
        deal = game.deal_no
        while game.deal_no == deal and not game.finished:
            seat = sorted(game.to_act())[0]
            game.apply(seat, rng.choice(game.legal(seat)))
    assert seen == [(b, board_dealer(b), board_vulnerability(b)) for b in (1, 2, 3, 4)]
    sheet = game.scores()
    assert len(sheet.lines) == 4
    for line in sheet.lines:
        assert min(line.points) == 0  # one side scores a board
    assert sheet.totals == tuple(sum(line.points[s] for line in sheet.lines) for s in (0, 1))
    assert game.result() is not None


def test_daily_spades_deals_option_ends_the_match_after_that_many_deals():
    game = create("spades", {"deals": 4}, seed=5)
    ends = _play_out(game, random.Random(5))
    assert len(ends) == 4 and game.result() is not None
    assert create("spades", seed=1).options == {"target": 500, "bags_penalty": False}
