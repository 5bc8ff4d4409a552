"""The double-dummy post-mortem: each card's value before and after, and the cards that
cost tricks, on a deal whose mistake can be worked out by hand."""

from __future__ import annotations

import pytest

import bot.handrecord.postmortem as postmortem
from bot.games.bridge_auction import Contract, Strain
from bot.games.cards import Card, Seat, parse_deal
from bot.games.tricks import legal_follow, trick_winner
from bot.handrecord import HandRecord, OutOfTime, replay_deal
from bot.handrecord.postmortem import analyse, positions, summary_line, table_lines
from tests.handrecord.helpers import play_randomly

# North declares 7S holding six top trumps and seven top hearts; East holds the other
# four trumps (8765) and no heart. Drawing trumps first takes all 13 (ruff the opening
# lead, four rounds of trumps, seven hearts, the last trump). Leading a heart before
# East's trumps are drawn lets East ruff it: one trick lost, 12 then (East leads, North
# ruffs, three rounds of trumps, six hearts, the last trump).
SEVEN_SPADES = ("N:AKQJT9.AKQJT98.. 8765..AKQJT.AKQJ "
                "432..765432.5432 .765432.98.T9876")
# The first two tricks: East leads the diamond ace, North ruffs; then North's mistake,
# the heart ace before drawing trumps, and East ruffs it.
START = [(Seat.EAST, "AD"), (Seat.SOUTH, "2D"), (Seat.WEST, "8D"), (Seat.NORTH, "9S"),
         (Seat.NORTH, "AH"), (Seat.EAST, "5S"), (Seat.SOUTH, "3D"), (Seat.WEST, "2H")]


def _played_out(deal: str, start: list[tuple[Seat, str]], contract: Contract
                ) -> HandRecord:
    """The record of `start`, then every hand playing its first legal card to the end."""
    hands = parse_deal(deal)
    held = {seat: sorted(cards) for seat, cards in hands.items()}
    play: list[tuple[Seat, Card]] = []
    trick: list[tuple[Seat, Card]] = []
    seat = start[0][0]
    for i in range(52):
        if i < len(start):
            seat, card = start[i][0], Card.parse(start[i][1])
        else:
            led = trick[0][1].suit if trick else None
            card = legal_follow(held[seat], led)[0]
        assert card in legal_follow(held[seat], trick[0][1].suit if trick else None)
        held[seat].remove(card)
        play.append((seat, card))
        trick.append((seat, card))
        seat = Seat((seat + 1) % 4)
        if len(trick) == 4:
            seat = trick_winner(trick, contract.trump)
            trick = []
    return HandRecord(game="bridge", deal_no=1, dealer=Seat.NORTH, vulnerable=(False, False),
                      hands=tuple(tuple(hands[Seat(i)]) for i in range(4)), calls=(),
                      contract=contract, play=tuple(play), declarer_tricks=None)


def test_the_post_mortem_marks_the_heart_led_before_trumps_were_drawn():
    record = _played_out(SEVEN_SPADES, START, Contract(7, Strain.SPADES, int(Seat.NORTH)))
    result = analyse(record)
    assert len(result.cards) == 52
    assert result.opening_value == 13
    first, mistake = result.cards[:4], result.cards[4]
    assert all(v.cost == 0 and v.before == v.after == 13 for v in first)
    assert (mistake.seat, mistake.card.text, mistake.trick) == (Seat.NORTH, "AH", 2)
    assert (mistake.before, mistake.after, mistake.cost) == (13, 12, 1)
    assert result.mistakes[0] == mistake
    # Each card's value after is the next card's value before.
    for this, following in zip(result.cards, result.cards[1:], strict=False):
        assert this.after == following.before
    assert summary_line(result).startswith("Cost a trick: N A♥ at trick 2;")


def test_the_post_mortem_ends_at_the_tricks_taken():
    for name in ("bridge", "single_dummy"):
        game, truth = play_randomly(name, 3, deals=2)
        for played in truth:
            record = replay_deal(name, game.options, 3, game.history,
                                 played["start"].deal_no)
            result = analyse(record)
            if record.contract is None:
                assert result.cards == () and summary_line(result) is None
                continue
            assert len(result.cards) == 52
            # After the last card nothing is left to play: the value is the result.
            assert result.cards[-1].after == record.declarer_tricks
            for verdict in result.cards:
                declaring = verdict.seat % 2 == record.contract.declarer % 2
                # A costly card moves the value against its own side by its cost.
                assert verdict.after - verdict.before == (
                    -verdict.cost if declaring else verdict.cost)
            lines = table_lines(result)
            assert len(lines) == 13 and lines[0].startswith(f" 1 {result.cards[0].before:>2}>")
            # Under the post's "Double dummy" field: not said again.
            line = summary_line(result) or ""
            assert line.startswith(("Cost a trick: ", "No card cost a trick."))
            assert "double dummy" not in line.lower()


def test_the_positions_follow_the_play():
    record = _played_out(SEVEN_SPADES, START, Contract(7, Strain.SPADES, int(Seat.NORTH)))
    places = positions(record)
    assert len(places) == 52
    assert places[0].leader == Seat.EAST and places[0].trick == ()
    assert places[3].trick == tuple(Card.parse(t) for t in ("AD", "2D", "8D"))
    assert places[4].leader == Seat.NORTH and places[4].trick == ()  # North ruffed
    assert sum(len(h) for h in places[4].hands) == 48
    assert places[8].leader == Seat.EAST  # East ruffed the heart ace


def test_the_post_mortem_stops_between_solves_once_its_deadline_has_passed(monkeypatch):
    """A clock that ticks once per reading: with the deadline at 5, the work stops before
    the sixth solve (one solve per card), instead of solving all 52 positions."""
    record = _played_out(SEVEN_SPADES, START, Contract(7, Strain.SPADES, int(Seat.NORTH)))
    solved: list[int] = []
    real = postmortem.solve
    monkeypatch.setattr(postmortem, "solve", lambda places: solved.append(1) or real(places))
    ticks = iter(range(1000))
    with pytest.raises(OutOfTime, match="5 of 52 positions"):
        analyse(record, deadline=5, clock=lambda: next(ticks))
    assert len(solved) == 5
    assert len(analyse(record, deadline=None).cards) == 52, "no deadline: the whole play"
