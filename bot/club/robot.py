""""What the robot would have done": a finished duplicate board played again from its
start by four computer players, to set beside a person's own result and the board's
double-dummy par. Blocking and CPU-heavy: run it in the workers (`TableService.off_loop`);
every argument and the result pickle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai import Budget, make_player
from bot.games import create
from bot.games.bridge import ContractBridge
from bot.games.events import DealEnded
from bot.games.fairness import FairDeals
from bot.handrecord import replay_deal

ROBOT_GAMES = ("bridge",)  # duplicate boards: daily deals and team matches


@dataclass(frozen=True, slots=True)
class RobotDeal:
    """The computer players' auction (seat, call label) from the dealer, their result,
    North-South's score, and the board's double-dummy par."""

    board: int
    dealer: int
    calls: tuple[tuple[int, str], ...]
    note: str
    ns_score: int
    par: str
    vulnerable: tuple[bool, bool]
    hands: tuple[tuple[str, ...], ...]  # as dealt, by seat (the person's own board)


class BoardNotOver(LookupError):
    """The board asked for has not ended at that table."""


def robot_deal(game_name: str, options: dict[str, object], seed: int | FairDeals,
               actions: Sequence[tuple[int, str]], board: int,
               think_seconds: float = 0.2, kind: str | None = None) -> RobotDeal:
    """Board `board` of a table's match (its seed and action log) played from its start
    by computer players of `kind` (default: the strongest) in all four seats."""
    if game_name not in ROBOT_GAMES:
        raise ValueError(f"no robot's play for {game_name}")
    record = replay_deal(game_name, options, seed, actions, board)  # raises if not over
    game = create(game_name, options=options, seed=seed)
    assert isinstance(game, ContractBridge)
    for seat, action in actions:  # the boards before this one, as they were played
        if game.deal_no >= board:
            break
        game.apply(seat, action)
    if game.deal_no != board or game.finished:
        raise BoardNotOver(f"board {board} was never dealt")
    players = [make_player(game_name, board * 31 + seat, kind) for seat in range(4)]
    ended: DealEnded | None = None
    while ended is None:
        seat = sorted(game.to_act())[0]
        action = players[seat].choose(game.view(seat), game.legal(seat),
                                      Budget(think_seconds))
        ended = next((e for e in game.apply(seat, action)
                      if isinstance(e, DealEnded) and e.deal_no == board), None)
    summary = game.previous
    assert summary is not None and summary.deal_no == board
    line = ended.lines[0]
    from bot.handrecord.solver import par_text, solve  # endplay: loaded on first use

    return RobotDeal(board, summary.dealer,
                     tuple((seat, call.label) for seat, call in summary.calls),
                     line.note, line.points[0] - line.points[1], par_text(solve(record)),
                     (summary.vulnerable[0], summary.vulnerable[1]),
                     tuple(tuple(card.text for card in hand) for hand in summary.hands))
