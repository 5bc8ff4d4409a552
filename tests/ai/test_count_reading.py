"""What the count signals say, measured (`learning.count_reading`): the cases worked out
by hand on `FOUR_HEARTS`, and the commands that play deals and print the gains."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ai.bridge.learning import count_reading
from bot.ai.bridge.learning.bank import BankDeal
from bot.ai.bridge.learning.played import PlayedDeal, replay
from bot.ai.bridge.learning.suit_reading_training import with_bank
from bot.games.cards import parse_hand
from tests.ai.helpers import FOUR_HEARTS, FOUR_HEARTS_CALLS

# East leads the ♠K to North's ♠A; North cashes the ♥A (East ♥7 from ♥73, West ♥4 from
# ♥42: both high from two, giving count) and the ♥K (East ♥3, West ♥2).
PLAY = ("KS", "6S", "3S", "AS", "AH", "7H", "6H", "4H", "KH", "3H", "8H", "2H")
DEAL = BankDeal(0, FOUR_HEARTS, 0, (False, False), ((0,) * 4,) * 5)
PLAYED = PlayedDeal(0, (*(call for _, call in FOUR_HEARTS_CALLS), *(f"play:{c}" for c in PLAY)))


def test_each_defender_that_gave_count_is_seen_by_declarer_and_by_its_partner():
    cases = count_reading.count_cases([(DEAL, PLAYED)], alternatives=20)
    # After trick 3 (the only checkpoint played): East seen by North and West, West by
    # North and East; dummy (South) sees no one.
    assert [(c.seat, c.observer) for c in cases] == [(1, 0), (1, 3), (3, 0), (3, 1)]
    for case in cases:
        assert case.deal == 0 and case.declarer == 0 and len(case.tricks) == 3
        assert case.hands[0] == FOUR_HEARTS[case.seat] and len(case.hands) == 21
        played = {card for trick in case.tricks for seat, card in trick if seat == case.seat}
        assert all(played <= set(hand) and len(hand) == 13 for hand in case.hands)


def test_reading_the_count_never_makes_a_true_hand_that_signalled_truly_less_likely():
    gains = count_reading.gains(count_reading.count_cases([(DEAL, PLAYED)], alternatives=50))
    # Both defenders gave count truly: the reading weighs only other hands down.
    assert all(gains["count"] >= gains["aware"] - 1e-12)
    assert any(gains["count"] > gains["aware"])


def test_the_commands_play_with_count_signals_resume_and_print_the_gains(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "played.txt"
    args = ["play", "--first", "70000", "--deals", "1", "--out", str(out), "--tricks", "3",
            "--think", "0.05"]
    assert count_reading.main(args) == 0
    (line,) = out.read_text().splitlines()
    played = PlayedDeal.parse(line)
    assert played.number == 70000
    # Three tricks played (none where the deal was passed out).
    assert len(replay(*next(with_bank([played]))).deal_record().play) in (0, 12)
    assert count_reading.main(args) == 0  # nothing left to play
    assert out.read_text().splitlines() == [line]
    assert count_reading.main(["gain", "--played", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "cases; " in printed and "count - aware: " in printed


# `FOUR_HEARTS` with East's ♠Q and West's ♠T exchanged: East leads the ♠K, West encourages
# with the ♠4 from ♠Q43; then the same hearts as above.
QUEEN_WEST = (FOUR_HEARTS[0], tuple(parse_hand("KJT5.73.A9842.65")), FOUR_HEARTS[2],
              tuple(parse_hand("Q43.42.T765.JT98")))
ENCOURAGED = PlayedDeal(0, (*(call for _, call in FOUR_HEARTS_CALLS), *(
    f"play:{c}" for c in ("KS", "6S", "4S", "AS", *PLAY[4:]))))


def test_each_defender_that_showed_attitude_is_seen_by_declarer_and_by_its_partner():
    deal = BankDeal(0, QUEEN_WEST, 0, (False, False), ((0,) * 4,) * 5)
    cases = count_reading.count_cases([(deal, ENCOURAGED)], alternatives=50, kind="attitude")
    assert [(c.seat, c.observer) for c in cases] == [(3, 0), (3, 1)]
    gains = count_reading.gains(cases, kind="attitude")
    # West encouraged truly (it holds the ♠Q): the reading weighs only other hands down.
    assert all(gains["attitude"] >= gains["count"] - 1e-12)
    assert any(gains["attitude"] > gains["count"])
    # West's ♠3 from ♠T43 (no honour) discourages, truly too.
    cases = count_reading.count_cases([(DEAL, PLAYED)], alternatives=50, kind="attitude")
    gains = count_reading.gains(cases, kind="attitude")
    assert len(cases) == 2 and all(gains["attitude"] >= gains["count"] - 1e-12)


# `FOUR_HEARTS` as `PLAY`, then North cashes the ♥Q and ♥J: East discards the ♦2 (its
# first diamond, from ♦A9842: odd, its lowest) and the ♣6 (its first club, from ♣65:
# even, high); West the ♠4 (spades played before) and the ♦5 (from ♦T765: even, but its
# lowest: a wrong signal, or no equal card to give one with).
DISCARDS = (*PLAY, "QH", "2D", "9H", "4S", "JH", "6C", "TH", "5D")


def test_each_defender_that_gave_count_in_a_discard_is_seen_and_read():
    played = PlayedDeal(0, (*(call for _, call in FOUR_HEARTS_CALLS),
                            *(f"play:{c}" for c in (*DISCARDS, "2S", "5S", "9S", "TS"))))
    cases = count_reading.count_cases([(DEAL, played)], alternatives=50, kind="discards")
    # After trick 6: East and West, each seen by North and by its partner.
    assert [(c.seat, c.observer) for c in cases] == [(1, 0), (1, 3), (3, 0), (3, 1)]
    assert all(c.trumps is not None and len(c.tricks) == 6 for c in cases)
    gains = count_reading.gains(cases, kind="discards")
    assert set(gains) == {"follows", "aware", "count", "attitude", "discards"}
    # East's discards count truly: the reading weighs only other hands down.
    east = [i for i, c in enumerate(cases) if c.seat == 1]
    assert all(gains["discards"][east] >= gains["attitude"][east] - 1e-12)
    assert any(gains["discards"][east] > gains["attitude"][east])


@pytest.mark.parametrize(("option", "played", "gained"), [
    ("--attitude", "count and attitude signals", "attitude - count: "),
    ("--discards", "count, attitude and count in discards", "discards - attitude: ")])
def test_the_commands_play_and_measure_attitude_and_discards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, played: str,
        gained: str) -> None:
    out = tmp_path / "played.txt"
    assert count_reading.main(["play", "--first", "70000", "--deals", "1", "--out", str(out),
                               "--tricks", "3", "--think", "0.05", option]) == 0
    assert played in capsys.readouterr().out
    assert count_reading.main(["gain", "--played", str(out), option]) == 0
    printed = capsys.readouterr().out
    kind = option.removeprefix("--")
    assert f"{kind} signals" in printed and gained in printed
