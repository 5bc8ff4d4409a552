""""What the robot would have done": a finished deal of a match compared deal by deal
(daily deals, team matches, challenges) played again from its start by computer players
in every seat, to set beside a person's own result and, in Contract Bridge, the board's
double-dummy par. Blocking and
CPU-heavy: run it in the workers (`TableService.off_loop`); every argument and the
result pickle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai import Budget, make_player
from bot.games import create, game_class, games_with, replayed
from bot.games.bridge import ContractBridge
from bot.games.events import DealEnded, SpadesDealEnded
from bot.games.fairness import FairDeals
from bot.handrecord import DealNotOver, replay_deal

# The games whose deals are compared one by one (every game with challenges; daily
# deals and team matches are among them), with the option that makes a match a fixed
# number of them.
ROBOT_GAMES = {name: challenge.length_option for name in games_with("CHALLENGE")
               if (challenge := game_class(name).CHALLENGE) is not None}


@dataclass(frozen=True, slots=True)
class RobotDeal:
    """The computer players' calls (bridge: each call from the dealer; Spades: each
    seat's bid and tricks; none for the two-player games, whose result note says their
    bids) as (seat, text), their result, each side's points, the double-dummy par
    (Contract Bridge only), and the cards as dealt."""

    deal_no: int
    dealer: int
    calls: tuple[tuple[int, str], ...]
    note: str
    points: tuple[int, ...]
    par: str | None
    hands: tuple[tuple[str, ...], ...]


def robot_deal(game_name: str, options: dict[str, object], seed: int | FairDeals,
               actions: Sequence[tuple[int, str]], deal_no: int,
               think_seconds: float = 0.2, kind: str | None = None) -> RobotDeal:
    """Deal `deal_no` of a table's match (its seed and action log) played from its start
    by computer players of `kind` (default: the strongest) in every seat. DealNotOver if
    the log does not hold that deal's end (it is never shown before)."""
    if game_name not in ROBOT_GAMES:
        raise ValueError(f"no robot's play for {game_name}")
    over = create(game_name, options=options, seed=seed)
    if not any(isinstance(e, DealEnded) and e.deal_no == deal_no
               for events in replayed(over, actions) for e in events):
        raise DealNotOver(f"deal {deal_no} is not over")
    game = create(game_name, options=options, seed=seed)
    for seat, action in actions:  # the deals before this one, as they were played
        if _deal_no(game) >= deal_no:
            break
        game.apply(seat, action)
    if _deal_no(game) != deal_no or game.finished:
        raise DealNotOver(f"deal {deal_no} was never dealt")
    dealer = int(getattr(game, "dealer", 0))
    players = [make_player(game_name, deal_no * 31 + seat, kind) for seat in range(game.SEATS)]
    ended: DealEnded | None = None
    while ended is None:
        seat = sorted(game.to_act())[0]
        action = players[seat].choose(game.view(seat), game.legal(seat),
                                      Budget(think_seconds))
        ended = next((e for e in game.apply(seat, action)
                      if isinstance(e, DealEnded) and e.deal_no == deal_no), None)
    line = ended.lines[0]
    par: str | None = None
    if isinstance(game, ContractBridge):
        summary = game.previous
        assert summary is not None and summary.deal_no == deal_no
        calls = tuple((seat, call.label) for seat, call in summary.calls)
        from bot.handrecord.solver import par_text, solve  # endplay: loaded on first use

        par = par_text(solve(replay_deal(game_name, options, seed, actions, deal_no)))
    elif isinstance(ended, SpadesDealEnded):
        calls = tuple((seat, f"bid {bid}, took {took}") for seat, (bid, took) in
                      enumerate(zip(ended.bids, ended.tricks, strict=True)))
    else:
        calls = ()
    return RobotDeal(deal_no, dealer, calls, line.note, tuple(line.points), par,
                     ended.hands)


def _deal_no(game: object) -> int:
    """The deal in progress (every game counts its deals from 1)."""
    return int(getattr(game, "deal_no", 0))
