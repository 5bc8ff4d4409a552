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
from bot.games.bridge_auction import Contract, Strain
from bot.games.cards import Seat, format_deal

from .record import HandRecord

STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")  # bidding order
_DENOMS = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
_VUL = {(False, False): Vul.none, (True, False): Vul.ns, (False, True): Vul.ew,
        (True, True): Vul.both}
_DOUBLED = {Penalty.passed: 0, Penalty.doubled: 1, Penalty.redoubled: 2}
COMPASS = ("North", "East", "South", "West")
SIDE_NAMES = ("North-South", "East-West")
# DDS keeps global state: one solve at a time across threads, the computer players' too.
_SOLVER_LOCK = SOLVER_LOCK


@dataclass(frozen=True, slots=True)
class DoubleDummy:
    """Tricks each compass seat takes as declarer in each strain, and the par result."""

    tricks: tuple[tuple[int, ...], ...]  # [strain C, D, H, S, NT][seat N, E, S, W]
    par_score: int  # for North-South (negative: East-West score)
    par_contracts: tuple[str, ...]  # e.g. "4♠ by North, made", "5♥ doubled by East, down 2"

    def tricks_for(self, strain: str, seat: Seat) -> int:
        return self.tricks[STRAINS.index(strain)][seat]


def _contract_text(found: EndplayContract) -> str:
    """A par contract as every contract is shown: `5♦ doubled by North, down 2`."""
    contract = Contract(found.level, Strain(_DENOMS.index(found.denom)),
                        int(found.declarer), _DOUBLED[found.penalty])
    return (f"{contract.text(COMPASS)}, "
            f"{contract.result(contract.tricks_needed + found.result)}")


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
    side = SIDE_NAMES[0] if result.par_score > 0 else SIDE_NAMES[1]
    contracts = "; ".join(result.par_contracts)
    return f"Par: {side} +{abs(result.par_score)} ({contracts})"
