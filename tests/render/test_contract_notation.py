"""A bridge contract reads one way wherever a player meets it (`Contract.label`): suit
symbols, and doubling in words (`5♦ doubled by North`), never `5DX` or `5♦X`."""

from __future__ import annotations

import re

from bot.games.bridge_auction import Contract, Strain
from bot.render.games import text_for
from bot.render.pictures.games import single_dummy
from bot.render.samples import finished_deal
from bot.render.seating import Seating
from bot.render.teams import contract_note, short_contract

# The other notations: a letter for the strain (`5D`), or X / XX after it (`5♦X`).
OTHER = re.compile(r"\b[1-7][SHDC]X*\b|[1-7](?:NT|[♠♥♦♣])X")


def _doubled(game: str) -> object:
    """A random deal played to a doubled contract in a suit."""
    for seed in range(1, 400):
        summary = finished_deal(game, seed)
        contract = summary.contract
        if contract is not None and contract.doubled and contract.strain != Strain.NOTRUMP:
            return summary
    raise AssertionError("no doubled suit contract in 400 random deals")


def _seating(game: str) -> Seating:
    n = 4 if game == "bridge" else 2
    names = ("North", "East", "South", "West") if game == "bridge" else ("South", "West")
    return Seating(seat_names=names, names=("Ann", "Bob", "Cy", "Di")[:n],
                   user_ids=tuple(range(1, n + 1)), bots=(False,) * n)


def test_a_doubled_contract_reads_the_same_in_every_text_of_its_deal() -> None:
    for game in ("bridge", "single_dummy"):
        summary = _doubled(game)
        contract = summary.contract
        label = contract.label
        assert label.endswith((" doubled", " redoubled")) and contract.strain.symbol in label
        lines = summary.lines if game == "bridge" else (summary.line,)
        note = lines[0].note
        said = {
            "the score sheet's note": note,
            "the deal's post": " ".join(text_for(game).deal_lines(summary, _seating(game))),
            "the team card's short form": short_contract(note),
        }
        if game == "single_dummy":
            said["the picture's headline"] = single_dummy.headline_of(summary, ("Ann", "Bob"))
        for where, text in said.items():
            assert label in text, (where, text)
            assert not OTHER.search(text), (where, text)


def test_results_stored_in_the_older_form_read_as_the_new_one() -> None:
    assert contract_note("4♠X by North, down 2") == "4♠ doubled by North, down 2"
    assert contract_note("3NTXX by West, +1") == "3NT redoubled by West, +1"
    assert short_contract("4♠X by North, down 2") == "4♠ doubled N-2"
    assert short_contract("3NT by West, made +1") == "3NT W+1"
    assert short_contract("3NT by West, made") == "3NT W="
    assert short_contract(f"{Contract(5, Strain.DIAMONDS, 0, 1).text(('North',))}, down 1") \
        == "5♦ doubled N-1"
