"""Hand records of deals with an accepted undo and a claim hold exactly the play that
stood: the cards taken back are not in them, endplay reads them back with 52 distinct
cards, and the double-dummy post-mortem runs on them without the solver writing a file."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from endplay.parsers import lin, pbn

from bot.games import Game, create
from bot.games.cards import Card, Seat
from bot.handrecord import Heading, replay_deal, to_pbn
from bot.handrecord.lin import to_lin
from bot.handrecord.postmortem import analyse, summary_line
from tests.handrecord.helpers import SD_COMPASS, our_card

HEADING = Heading("TrickTable test", "here", None, ("Ann", "Ben", "Cy", "Di"))
NAMES = ("Ann", "Ben", "Cy", "Di")


def _engine_play(game: Game) -> list[tuple[Seat, Card]]:
    """The play as the engine itself holds it now, by compass seat."""
    record = game.deal_record()
    if game.NAME == "single_dummy":
        return [(SD_COMPASS[hand], Card.parse(text)) for hand, text in record.play]
    return [(Seat(seat), card) for seat, card in record.play]


def _answer_all(game: Game, answer: str) -> None:
    while game.request is not None:  # type: ignore[attr-defined]
        game.apply(sorted(game.to_act())[0], answer)


def _play_with_undo_and_claim(name: str, seed: int) -> tuple[Game, list[tuple[Seat, Card]]]:
    """Deal 1: the first caller bids, the rest pass; 14 cards, then the 14th card's player
    asks to take it back and the opponents accept; play on to 30 cards, where a seat
    claims all the rest and it is accepted. Returns the game and the play that stood."""
    game = create(name, {}, seed=seed)
    rng = random.Random(seed)
    undone = False
    while True:
        played = len(game.deal_record().play)
        if played == 14 and not undone:
            asker = game.history[-1][0]
            game.apply(asker, "undo")
            _answer_all(game, "accept")
            assert len(game.deal_record().play) == 13
            undone = True
            continue
        if played == 30:
            claimer = next(s for s in range(game.SEATS)
                           if any(a.startswith("claim:") for a in game.asks(s)))  # type: ignore[attr-defined]
            stood = _engine_play(game)
            game.apply(claimer, f"claim:{game.tricks_left()}")  # type: ignore[attr-defined]
            _answer_all(game, "accept")
            assert game.deal_no == 2
            return game, stood
        seat = sorted(game.to_act())[0]
        legal = list(game.legal(seat))
        bids = [a for a in legal if a.startswith("bid:")]
        action = bids[0] if bids and not game.history else (
            "pass" if "pass" in legal else rng.choice(legal))
        game.apply(seat, action)


@pytest.mark.parametrize("name", ["bridge", "single_dummy"])
def test_a_record_after_an_undo_and_a_claim_holds_the_play_that_stood(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where the solver would drop a dump.txt
    game, stood = _play_with_undo_and_claim(name, 1)
    record = replay_deal(name, game.options, 1, game.history, 1)
    assert list(record.play) == stood
    assert len(record.play) == 30 and len({card for _, card in record.play}) == 30

    boards: list[Any] = [pbn.loads(to_pbn(record, HEADING))[0],
                         lin.loads(to_lin(record, NAMES))[0]]
    for board in boards:
        dealt = [our_card(c) for p in range(4) for c in board.deal[p]]
        assert len(dealt) == 52 and len(set(dealt)) == 52
        assert [our_card(c) for c in board.play] == [card for _, card in stood]

    verdict = analyse(record)
    assert len(verdict.cards) == 30
    assert summary_line(verdict) is not None
    assert list(tmp_path.iterdir()) == []


def test_the_solver_refuses_a_malformed_position_without_writing_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card twice (what a record with a taken-back card gave the solver) is refused
    before DDS sees it: DDS itself would write a dump.txt into the working directory."""
    from bot.ai.core.dds import BadPosition, Position, solve, trick_tables
    from bot.games.cards import parse_deal

    monkeypatch.chdir(tmp_path)
    dealt = parse_deal("N:AKQJT9.AKQJT98.. 8765..AKQJT.AKQJ "
                       "432..765432.5432 .765432.98.T9876")
    hands = [tuple(dealt[Seat(i)]) for i in range(4)]
    doubled = (hands[0], hands[1], (*hands[2][:-1], hands[0][0]), hands[3])
    with pytest.raises(BadPosition):
        solve([Position(doubled, None, 1)])
    led = (hands[0], hands[1], hands[2], hands[3][1:])  # West led hands[3][0]
    assert solve([Position(led, None, 3, (hands[3][0],))])[0]
    short = (hands[0][1:], hands[1], hands[2], hands[3][1:])  # North's card went nowhere
    with pytest.raises(BadPosition):
        solve([Position(short, None, 3, (hands[3][0],))])
    with pytest.raises(BadPosition):
        trick_tables([doubled])
    assert solve([Position(tuple(hands), None, 1)])[0]  # a whole deal still solves
    assert list(tmp_path.iterdir()) == []
