"""Double-dummy table and par for constructed deals whose answers can be worked out by hand."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.games.bridge_auction import Contract, Strain
from bot.games.cards import Seat, parse_deal
from bot.handrecord import HandRecord
from bot.handrecord.solver import grid, par_text, solve

# North holds every top card: AKQJ of spades and AKQ of the other suits. In notrump or
# spades North-South take all 13 (no side suit can be ruffed, no long suit set up). In
# hearts, diamonds or clubs West holds four trumps to North's three and only one spade:
# after three rounds of trumps West still ruffs the second spade, so 12. East-West, as
# declarers, take only what North cannot stop: one trick in the suit trumps.
TOPS_NORTH = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def _record(deal: str, dealer: Seat = Seat.NORTH,
            vulnerable: tuple[bool, bool] = (False, False)) -> HandRecord:
    hands = parse_deal(deal)
    return HandRecord(game="bridge", deal_no=1, dealer=dealer, vulnerable=vulnerable,
                      hands=tuple(tuple(hands[Seat(i)]) for i in range(4)), calls=(),
                      contract=Contract(7, Strain.NOTRUMP, 0), play=(), declarer_tricks=13)


def test_north_south_holding_all_the_top_cards_take_13_in_notrump():
    result = solve(_record(TOPS_NORTH))
    for seat in (Seat.NORTH, Seat.SOUTH):
        assert result.tricks_for("NT", seat) == 13
        assert result.tricks_for("S", seat) == 13
        for strain in ("H", "D", "C"):
            assert result.tricks_for(strain, seat) == 12
    for seat in (Seat.EAST, Seat.WEST):
        assert result.tricks_for("NT", seat) == 0
        assert result.tricks_for("S", seat) == 0
        for strain in ("H", "D", "C"):
            assert result.tricks_for(strain, seat) == 1


def test_par_is_the_grand_slam_in_notrump_scored_for_the_vulnerability():
    # 7NT: 220 trick points, 1000 grand slam bonus, 300 game bonus not vulnerable
    # (1500 and 500 vulnerable).
    quiet = solve(_record(TOPS_NORTH))
    assert quiet.par_score == 220 + 1000 + 300
    assert quiet.par_contracts and all(c in ("7NT by North, made", "7NT by South, made")
                                       for c in quiet.par_contracts)
    loud = solve(_record(TOPS_NORTH, vulnerable=(True, False)))
    assert loud.par_score == 220 + 1500 + 500
    assert par_text(loud).startswith("Par: North-South +2220 (7NT by ")


def test_par_for_east_west_is_negative_and_named_for_them():
    # The same hands turned a quarter clockwise: East now holds every top card.
    turned = "E:" + TOPS_NORTH[2:]
    result = solve(_record(turned, dealer=Seat.EAST, vulnerable=(False, True)))
    assert result.tricks_for("NT", Seat.EAST) == 13
    assert result.tricks_for("NT", Seat.NORTH) == 0
    assert result.par_score == -2220
    assert par_text(result).startswith("Par: East-West +2220 (7NT by ")


def test_the_grid_has_a_row_per_declarer_and_a_column_per_strain():
    text = grid(solve(_record(TOPS_NORTH)))
    rows = [line.split() for line in text.splitlines()]
    assert rows[0] == ["C", "D", "H", "S", "NT"]
    assert rows[1] == ["N", "12", "12", "12", "13", "13"]
    assert rows[2] == ["S", "12", "12", "12", "13", "13"]
    assert rows[3] == ["E", "1", "1", "1", "0", "0"]
    assert rows[4] == ["W", "1", "1", "1", "0", "0"]
    assert len({len(line) for line in text.splitlines()}) == 1, "columns line up"


def test_the_hand_record_package_imports_only_games_store_endplay_and_the_solver_lock():
    root = Path(__file__).resolve().parents[2]
    # bot.ai.core.dds: the one DDS lock the computer players' solving shares with hand records.
    allowed = ("bot.games", "bot.store", "bot.handrecord", "endplay", "bot.ai.core.dds",
               "__future__")
    for path in sorted((root / "bot" / "handrecord").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in {"threading", "dataclasses", "datetime", "collections", "urllib",
                               "time"} \
                    or name.startswith(allowed), f"{path.name} imports {name}"
