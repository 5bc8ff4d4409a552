"""Bridge scoring, row by row. Expected figures come from hand-written tables here (the
Laws of Contract Bridge as docs/rules.md states them), never from the code under test."""

from __future__ import annotations

import itertools

import pytest

from bot.games.bridge_auction import Contract, Strain
from bot.games.bridge_scoring import (
    contract_score,
    defeated_score,
    honours_bonus,
    made_score,
    rubber_bonus,
    single_dummy_score,
    trick_score,
    unfinished_rubber_bonus,
)
from bot.games.cards import parse_hand

C, D, H, S, NT = Strain

# The seed's trick-score table (undoubled), odd tricks 1..7.
TRICK_TABLE = {
    C: (20, 40, 60, 80, 100, 120, 140),
    D: (20, 40, 60, 80, 100, 120, 140),
    H: (30, 60, 90, 120, 150, 180, 210),
    S: (30, 60, 90, 120, 150, 180, 210),
    NT: (40, 70, 100, 130, 160, 190, 220),
}
UNDOUBLED_OVERTRICK = {C: 20, D: 20, H: 30, S: 30, NT: 30}
# Overtrick value when (doubled, vulnerable)
PENALTY_OVERTRICK = {(1, False): 100, (1, True): 200, (2, False): 200, (2, True): 400}
INSULT = {0: 0, 1: 50, 2: 100}
# Total undertrick penalties for down 1..13, per the Laws.
DOWN_TOTALS = {
    (0, False): (50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650),
    (0, True): (100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300),
    (1, False): (100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500),
    (1, True): (200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800),
    (2, False): (200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000),
    (2, True): (400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600),
}
SLAM = {(6, False): 500, (6, True): 750, (7, False): 1000, (7, True): 1500}

ROWS = list(itertools.product(range(1, 8), list(Strain), (0, 1, 2), (False, True)))


def _id(row: tuple[int, Strain, int, bool]) -> str:
    level, strain, doubled, vul = row
    return f"{level}{strain.letter}{'X' * doubled}-{'vul' if vul else 'nv'}"


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_rubber_scoring_table_row(row: tuple[int, Strain, int, bool]) -> None:
    level, strain, doubled, vul = row
    contract = Contract(level, strain, 0, doubled)
    below = TRICK_TABLE[strain][level - 1] * (1, 2, 4)[doubled]
    assert trick_score(level, strain, doubled) == below
    bonus = INSULT[doubled] + SLAM.get((level, vul), 0)
    each_over = (UNDOUBLED_OVERTRICK[strain] if doubled == 0
                 else PENALTY_OVERTRICK[(doubled, vul)])
    # made exactly and with every possible number of overtricks
    for tricks in range(6 + level, 14):
        score = made_score(contract, tricks, vul)
        over = tricks - 6 - level
        assert score.declarer_below == below
        assert score.declarer_total == below + bonus + over * each_over
        assert score.defenders_total == 0
        assert contract_score(contract, tricks, vul) == score
    # down 1 .. as far as it can go (7 for a 1-level contract, 13 for a grand slam)
    for down in range(1, 7 + level):
        score = defeated_score(contract, down, vul)
        assert score.declarer_total == 0
        assert score.defenders_total == DOWN_TOTALS[(doubled, vul)][down - 1]
        assert contract_score(contract, 6 + level - down, vul) == score


def test_doubled_undertricks_not_vulnerable_follow_the_laws() -> None:
    # 100, 200, 200, then 300 each (the seed's 200 for every further one is not the Laws)
    contract = Contract(4, S, 0, 1)
    totals = [defeated_score(contract, n, False).defenders_total for n in range(1, 7)]
    steps = [b - a for a, b in zip([0, *totals], totals, strict=False)]
    assert steps == [100, 200, 200, 300, 300, 300]


def test_doubled_undertricks_vulnerable_200_then_300() -> None:
    contract = Contract(4, H, 0, 1)
    totals = [defeated_score(contract, n, True).defenders_total for n in range(1, 5)]
    assert totals == [200, 500, 800, 1100]


def test_redoubled_undertricks_are_twice_doubled() -> None:
    for vul in (False, True):
        for n in range(1, 10):
            assert (defeated_score(Contract(3, NT, 0, 2), n, vul).defenders_total
                    == 2 * defeated_score(Contract(3, NT, 0, 1), n, vul).defenders_total)


def test_making_doubled_earns_50_and_redoubled_100() -> None:
    labels = {item.label: item.points for item in made_score(
        Contract(2, C, 0, 1), 8, False).declarer_above}
    assert labels == {"making doubled": 50}
    labels = {item.label: item.points for item in made_score(
        Contract(2, C, 0, 2), 8, False).declarer_above}
    assert labels == {"making redoubled": 100}


def test_trick_score_is_below_the_line_and_overtricks_above() -> None:
    score = made_score(Contract(2, H, 0, 0), 10, False)
    assert score.declarer_below == 60
    assert [(i.label, i.points) for i in score.declarer_above] == [("2 overtricks", 60)]


def test_notrump_first_trick_40_further_30() -> None:
    assert [trick_score(n, NT) for n in (1, 2, 3)] == [40, 70, 100]
    assert trick_score(3, NT, 1) == 200
    assert trick_score(3, NT, 2) == 400


def test_slam_bonuses() -> None:
    def bonus(level: int, vul: bool) -> int:
        return sum(i.points for i in made_score(Contract(level, C, 0), 6 + level, vul)
                   .declarer_above if "slam" in i.label)
    assert bonus(6, False) == 500
    assert bonus(6, True) == 750
    assert bonus(7, False) == 1000
    assert bonus(7, True) == 1500
    assert bonus(5, True) == 0


def test_honours_four_of_five_trump_honours_100() -> None:
    hand = parse_hand("AKQJ2.432.432.32")
    assert honours_bonus(S, hand) == 100
    assert honours_bonus(H, hand) == 0


def test_honours_all_five_trump_honours_150() -> None:
    assert honours_bonus(H, parse_hand("32.AKQJT.5432.32")) == 150


def test_honours_three_trump_honours_score_nothing() -> None:
    assert honours_bonus(D, parse_hand("32.32.AKQ5432.32")) == 0


def test_honours_notrump_four_aces_150() -> None:
    hand = parse_hand("A32.A32.A432.A32")
    assert honours_bonus(NT, hand) == 150
    assert honours_bonus(NT, parse_hand("K32.A32.A432.A32")) == 0
    # four aces are not honours in a suit contract
    assert honours_bonus(C, hand) == 0


def test_rubber_bonus_700_against_no_game_else_500() -> None:
    assert rubber_bonus(0) == 700
    assert rubber_bonus(1) == 500


def test_unfinished_rubber_300_for_a_game_100_for_a_part_score() -> None:
    assert unfinished_rubber_bonus(1, 0) == 300
    assert unfinished_rubber_bonus(0, 60) == 100
    assert unfinished_rubber_bonus(1, 40) == 400
    assert unfinished_rubber_bonus(0, 0) == 0


# -- Single Dummy Bridge -----------------------------------------------------------------

SD_ROWS = [
    # level, strain, doubled, tricks, penalty option, expected (declarer, opponent)
    (1, NT, 0, 7, False, (40, 0)),
    (1, NT, 0, 9, False, (100, 0)),
    (3, NT, 0, 9, False, (100, 0)),
    (2, C, 0, 8, False, (40, 0)),
    (2, D, 0, 10, False, (80, 0)),
    (4, H, 0, 10, False, (120, 0)),
    (4, S, 0, 11, False, (150, 0)),
    (2, S, 1, 8, False, (120, 0)),
    (3, NT, 1, 10, False, (260, 0)),
    (1, C, 2, 7, False, (80, 0)),
    (3, NT, 2, 9, False, (400, 0)),
    (7, NT, 0, 13, False, (220, 0)),
    (4, S, 0, 9, False, (0, 0)),
    (4, S, 2, 5, False, (0, 0)),
    (4, S, 0, 9, True, (0, 50)),
    (4, S, 0, 7, True, (0, 150)),
    (4, S, 1, 8, True, (0, 200)),
    (3, NT, 2, 6, True, (0, 600)),
]


@pytest.mark.parametrize(("level", "strain", "doubled", "tricks", "penalty", "expected"),
                         SD_ROWS)
def test_single_dummy_scoring_row(level: int, strain: Strain, doubled: int, tricks: int,
                                  penalty: bool, expected: tuple[int, int]) -> None:
    assert single_dummy_score(level, strain, doubled, tricks, penalty) == expected
