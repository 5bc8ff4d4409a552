"""The natural bidding system of the bridge computer players (close to Standard American).

- `choose_call(hand, seat, calls, legal)`: a hand's call and its explanation;
- `read_auction(dealer, calls)`: what each seat's calls say about its hand (`HandRange`s),
  used by the card-play sampler; people's calls are read by the same system;
- `auction_ranges(view)`: the same for a bridge seat's view (the card-play sampler's seam);
- `explain_calls(calls)`: a short phrase for every call of an auction.

The system is written as tables of rules, one per situation of the auction (openings,
responses, rebids, competition, slam conventions) in the modules of this package; where
no table speaks, `captain` places the contract from the partnership's shown values.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.bridge_auction import Call
from bot.games.bridge_view import BridgeView
from bot.games.cards import Card

from ...core.hand_range import HandRange
from .rubber import Score
from .system import Settle, choose, read


def choose_call(hand: Sequence[Card], seat: int, calls: Sequence[tuple[int, Call]],
                legal: Sequence[str], settle: Settle | None = None,
                score: Score | None = None) -> tuple[str, str]:
    """The call (an action text from `legal`) and its explanation; `settle` may change the
    captain's calls (`simulation.settle`: by sampling and double-dummy scoring); `score`
    is the rubber's public score (None: a duplicate board, or a player that ignores it)."""
    return choose(hand, seat, calls, legal, settle, score)


def read_auction(dealer: int, calls: Sequence[tuple[int, Call]],
                 score: Score | None = None) -> tuple[HandRange, ...]:
    """Per seat (0=N .. 3=W), the range of hands its calls show."""
    return read(dealer, calls, score).ranges


def auction_ranges(view: BridgeView) -> tuple[HandRange, ...]:
    """Per seat, what the auction in `view` says about its hand."""
    return read_auction(view.dealer, view.calls, Score.of(view))


def explain_calls(calls: Sequence[tuple[int, Call]],
                  score: Score | None = None) -> tuple[str, ...]:
    """A short phrase per call ("limit raise: 3+ hearts, 10–12 points")."""
    return read(0, calls, score).explanations


__all__ = ["Score", "auction_ranges", "choose_call", "explain_calls", "read_auction"]
