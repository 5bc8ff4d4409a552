"""Double-dummy tricks and par through endplay (which wraps Bo Haglund's DDS solver).

endplay is imported here (and by the computer players, in bot.ai.core.dds): it takes most of a
second to import (it pulls in matplotlib), so the bot loads this module on the first hand
record asked for.
Solving takes milliseconds to ~100 ms per deal; callers run it off the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from endplay.dds import calc_dd_table, par
from endplay.types import Contract as EndplayContract
from endplay.types import Deal, Denom, Penalty, Player, Vul

from bot.ai.core.dds import SOLVER_LOCK
from bot.games.cards import Seat, format_deal

from .record import HandRecord

STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")  # bidding order
_DENOMS = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
_VUL = {(False, False): Vul.none, (True, False): Vul.ns, (False, True): Vul.ew,
        (True, True): Vul.both}
_MARKS = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}
# DDS keeps global state: one solve at a time across threads, the computer players' too.
_SOLVER_LOCK = SOLVER_LOCK


@dataclass(frozen=True, slots=True)
class DoubleDummy:
    """Tricks each compass seat takes as declarer in each strain, and the par result."""

    tricks: tuple[tuple[int, ...], ...]  # [strain C, D, H, S, NT][seat N, E, S, W]
    par_score: int  # for North-South (negative: East-West score)
    par_contracts: tuple[str, ...]  # e.g. "4S by N, made", "5HX by E, down 2"

    def tricks_for(self, strain: str, seat: Seat) -> int:
        return self.tricks[STRAINS.index(strain)][seat]


def _contract_text(contract: EndplayContract) -> str:
    strain = STRAINS[_DENOMS.index(contract.denom)]
    result = contract.result
    outcome = "made" if result == 0 else (f"+{result}" if result > 0 else f"down {-result}")
    return (f"{contract.level}{strain}{_MARKS.get(contract.penalty, '')} by "
            f"{Seat(int(contract.declarer)).letter}, {outcome}")


def solve(record: HandRecord) -> DoubleDummy:
    """The double-dummy table and par of the deal as dealt."""
    deal = Deal(format_deal({Seat(i): list(h) for i, h in enumerate(record.hands)}))
    with _SOLVER_LOCK:
        table = calc_dd_table(deal)
        found = par(table, _VUL[record.vulnerable], Player(int(record.dealer)))
    tricks = tuple(tuple(table[denom, Player(seat)] for seat in range(4))
                   for denom in _DENOMS)
    contracts = tuple(dict.fromkeys(_contract_text(c) for c in found))  # one of each
    return DoubleDummy(tricks, int(found.score), contracts)


def grid(result: DoubleDummy) -> str:
    """The table as fixed-width text (a row per declarer, a column per strain)."""
    lines = ["    " + "".join(s.rjust(3) for s in STRAINS)]
    for seat in (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST):
        lines.append(seat.letter.ljust(4)
                     + "".join(str(result.tricks[s][seat]).rjust(3) for s in range(5)))
    return "\n".join(lines)


def par_text(result: DoubleDummy) -> str:
    if result.par_score == 0:
        return "Par: 0 (passed out)"
    side = "N-S" if result.par_score > 0 else "E-W"
    contracts = "; ".join(result.par_contracts)
    return f"Par: {side} +{abs(result.par_score)} ({contracts})"
