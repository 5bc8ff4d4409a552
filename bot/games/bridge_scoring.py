"""Bridge scoring as pure functions: rubber bridge per the Laws, and Single Dummy Bridge.

Rubber (Laws of Contract Bridge, as docs/rules.md rules where the seed's table differs):
- trick score below the line: C/D 20 per odd trick, H/S 30, NT 40 for the first and 30 for
  each further; x2 doubled, x4 redoubled;
- overtricks above the line: trick value undoubled, 100 each doubled (200 vulnerable), 200
  each redoubled (400 vulnerable); making a doubled contract 50, redoubled 100;
- small slam 500 (750 vulnerable), grand slam 1000 (1500 vulnerable);
- undertricks: undoubled 50 each (100 vulnerable); doubled not vulnerable 100, 200, 200,
  then 300 each; doubled vulnerable 200, then 300 each; redoubled twice the doubled figures;
- honours: four of the five trump honours in one hand 100, all five 150; all four aces at
  notrump 150;
- rubber: 700 if the other side has no game, else 500; an unfinished rubber: 300 for a
  side's single game, 100 for a part score in an unfinished game.

Duplicate (each deal on its own; the same trick, overtrick, insult, slam and undertrick
pieces): a made contract adds 300 for game (500 vulnerable) when its trick score reaches
100, else 50 for a part score; honours do not count. Board k: dealer N, E, S, W in turn
from board 1, vulnerability by the standard 16-board cycle. Comparing a field: IMPs by
the standard table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .bridge_auction import Contract, Strain
from .cards import Card, Rank

GAME_POINTS = 100
HONOUR_RANKS = frozenset({Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN})


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One entry on the score sheet: a short label and its points."""

    label: str
    points: int


@dataclass(frozen=True, slots=True)
class ContractScore:
    """What one played contract scores: below the line for declarer's side (trick score)
    and above-the-line items for each side."""

    declarer_below: int
    declarer_above: tuple[ScoreItem, ...] = ()
    defenders_above: tuple[ScoreItem, ...] = ()

    @property
    def declarer_total(self) -> int:
        return self.declarer_below + sum(item.points for item in self.declarer_above)

    @property
    def defenders_total(self) -> int:
        return sum(item.points for item in self.defenders_above)


def _multiplier(doubled: int) -> int:
    return (1, 2, 4)[doubled]


def trick_score(level: int, strain: Strain, doubled: int = 0) -> int:
    """Points below the line for `level` odd tricks bid and made in `strain`."""
    if level <= 0:
        return 0
    if strain == Strain.NOTRUMP:
        base = 40 + 30 * (level - 1)
    elif strain.is_minor:
        base = 20 * level
    else:
        base = 30 * level
    return base * _multiplier(doubled)


def overtrick_value(strain: Strain, doubled: int, vulnerable: bool) -> int:
    """Points for each overtrick."""
    if doubled == 0:
        return 20 if strain.is_minor else 30
    return (100 if doubled == 1 else 200) * (2 if vulnerable else 1)


def made_score(contract: Contract, tricks_made: int, vulnerable: bool) -> ContractScore:
    """Declarer's side made `contract` taking `tricks_made` tricks in all (7..13)."""
    over = tricks_made - contract.tricks_needed
    if over < 0:
        raise ValueError(f"{contract.label} with {tricks_made} tricks is not made")
    below = trick_score(contract.level, contract.strain, contract.doubled)
    above: list[ScoreItem] = []
    if over:
        each = overtrick_value(contract.strain, contract.doubled, vulnerable)
        plural = "s" if over > 1 else ""
        above.append(ScoreItem(f"{over} overtrick{plural}", over * each))
    if contract.doubled == 1:
        above.append(ScoreItem("making doubled", 50))
    elif contract.doubled == 2:
        above.append(ScoreItem("making redoubled", 100))
    if contract.level == 6:
        above.append(ScoreItem("small slam", 750 if vulnerable else 500))
    elif contract.level == 7:
        above.append(ScoreItem("grand slam", 1500 if vulnerable else 1000))
    return ContractScore(below, tuple(above))


def undertrick_penalty(undertricks: int, doubled: int, vulnerable: bool) -> int:
    """What the defenders score for `undertricks` (1..13) against the contract."""
    if undertricks <= 0:
        return 0
    if doubled == 0:
        return undertricks * (100 if vulnerable else 50)
    if vulnerable:
        points = 200 + 300 * (undertricks - 1)
    else:
        # 100 for the first, 200 for the second and third, 300 for each further one
        points = 100 + 200 * min(undertricks - 1, 2) + 300 * max(undertricks - 3, 0)
    return points * (2 if doubled == 2 else 1)


def defeated_score(contract: Contract, undertricks: int, vulnerable: bool) -> ContractScore:
    """The contract went down by `undertricks`; the defenders score above the line."""
    if undertricks <= 0:
        raise ValueError("a defeated contract has at least one undertrick")
    plural = "s" if undertricks > 1 else ""
    item = ScoreItem(f"{undertricks} undertrick{plural}",
                     undertrick_penalty(undertricks, contract.doubled, vulnerable))
    return ContractScore(0, (), (item,))


def contract_score(contract: Contract, tricks: int, vulnerable: bool) -> ContractScore:
    """Made or defeated, from the total tricks declarer's side took."""
    if tricks >= contract.tricks_needed:
        return made_score(contract, tricks, vulnerable)
    return defeated_score(contract, contract.tricks_needed - tricks, vulnerable)


def honours_bonus(strain: Strain, hand: Iterable[Card]) -> int:
    """Honours held in one hand: 4 of the 5 trump honours 100, all 5 150; NT 4 aces 150."""
    trump = strain.trump
    if trump is None:
        aces = sum(1 for c in hand if c.rank == Rank.ACE)
        return 150 if aces == 4 else 0
    # HONOUR_RANKS are the ranks from the ten up (compared as ints: no enum hashing).
    held = sum(1 for c in hand if c.suit is trump and c.rank >= Rank.TEN)
    if held == 5:
        return 150
    return 100 if held == 4 else 0


def rubber_bonus(loser_games: int) -> int:
    """The bonus for winning a rubber: 700 if the other side won no game, else 500."""
    return 700 if loser_games == 0 else 500


def unfinished_rubber_bonus(games: int, part_score: int) -> int:
    """A stopped rubber: 300 for a side's single game, plus 100 for a part score in the
    unfinished game."""
    return (300 if games == 1 else 0) + (100 if part_score > 0 else 0)


def single_dummy_score(level: int, strain: Strain, doubled: int, tricks: int,
                       undertrick_penalty: bool = False) -> tuple[int, int]:
    """Single Dummy Bridge: (declarer's points, opponent's points) for one deal.

    Made (tricks >= 6 + level): every trick over six counts at the trick rate (C/D 20,
    H/S 30, NT 40 for the first then 30), x2 doubled, x4 redoubled. Failed: nobody scores,
    or with the `undertrick_penalty` option the opponent scores 50 per undertrick, x2
    doubled, x4 redoubled.
    """
    if tricks >= 6 + level:
        return trick_score(tricks - 6, strain, doubled), 0
    if not undertrick_penalty:
        return 0, 0
    return 0, 50 * (6 + level - tricks) * _multiplier(doubled)


# -- duplicate ----------------------------------------------------------------------------

def duplicate_score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Duplicate: declarer's side's score for one deal (negative: the defenders' gain)."""
    score = contract_score(contract, tricks, vulnerable)
    if score.defenders_above:
        return -score.defenders_total
    game = score.declarer_below >= GAME_POINTS
    return score.declarer_total + ((500 if vulnerable else 300) if game else 50)


# Boards 1..16 (then again): who is vulnerable, as (North-South, East-West).
_NONE, _NS, _EW, _BOTH = (False, False), (True, False), (False, True), (True, True)
_VULNERABILITY = (_NONE, _NS, _EW, _BOTH, _NS, _EW, _BOTH, _NONE,
                  _EW, _BOTH, _NONE, _NS, _BOTH, _NONE, _NS, _EW)


def board_dealer(board: int) -> int:
    """Board k's dealer: North (seat 0) on board 1, then clockwise."""
    return (board - 1) % 4


def board_vulnerability(board: int) -> tuple[bool, bool]:
    """Board k's vulnerability as (North-South, East-West)."""
    return _VULNERABILITY[(board - 1) % 16]


_IMP_STEPS = (10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290,
              1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990)


def imps(difference: int) -> int:
    """International match points for a difference in points (signed like it)."""
    size = abs(difference)
    won = next((i for i, top in enumerate(_IMP_STEPS) if size <= top), len(_IMP_STEPS))
    return won if difference >= 0 else -won
