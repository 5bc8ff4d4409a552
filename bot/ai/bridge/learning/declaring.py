"""The declaring side's cards to tricks 2 to 6 learned from our own deals: each card
declarer may play from either hand, to lead or to follow, ranked by what it costs.

    python -m bot.ai.bridge.learning.declaring_training make --first 0 --deals 2000 --out ROWS.npz
    python -m bot.ai.bridge.learning.declaring_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/declaring.npz

Why learned: after the opening lead the declaring side gives away more double-dummy tricks
than the defence, most of them on the first six tricks and most of those on its leads and
its third-hand plays (measured on the 1,000 fresh deals of `bridge-lead-play`'s registered
run). As for the defence's leads (`defence`), a bank deal as our players bid and play it is
a fair draw of what the hidden hands hold given the auction and the cards seen so far, so
the tricks each card takes on it label that card for every position like it, and a model
can learn where the card search's double-dummy averages over a few layouts mislead it.

A row is one legal card of the declaring side with a choice, tricks 2 to 6: declarer's
hand as dealt and the auction as the system reads it, the contract and the tricks each
side still needs, which hand plays and where in the trick, the trick so far (whether the
card follows, ruffs, would win it, and what wins it now), the hand reading's points of
the two hidden hands, the card's own part (`trick_play.card_part`: from the playing hand,
the other hand of the side being the visible one, the defenders on its left and right),
and what the card search made of it. Its target is the tricks it gives away double dummy
against the position's best card (`declaring_training`).

A player is given a model by naming its file (`AdvancedBridgePlayer.learned_declaring`);
none ships yet, so the search's card is played.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from bot.games.bridge_view import BridgeView
from bot.games.cards import Card
from bot.games.tricks import trick_winner

from ...core.card_search import Outcome
from ..bidding.context import Context
from .leads import ranker_at
from .loading import Shelf
from .reading import Reading
from .trick_play import (
    DEAL_NAMES,
    LEARNED_TO_TRICK,
    SEARCH_NAMES,
    SPREAD_NAMES,
    PlayKind,
    PlayModel,
    card_names,
    card_part,
    deal_part,
    hand_of,
    search_part,
    trumps_out,
)
from .values import MODELS

log = logging.getLogger(__name__)

DEFAULT = MODELS / "declaring.npz"

# Where the play stands: the trick (2 for the first after the opening lead), the tricks
# declarer still needs and the defence to beat the contract, whether the card is dummy's,
# its place in the trick (0 to lead), the trumps in the playing hand, in the other hand
# of the side and out.
PLAY_NAMES: tuple[str, ...] = (
    "trick_no", "declarer_needs", "defence_needs", "from_dummy", "place_in_trick",
    "my_trumps", "partner_trumps", "trumps_out")
# The trick so far (all 0 but `follows` and `beats` to a lead): whether the card follows
# the suit led, ruffs, would win the trick as it stands; whether the side's other hand
# wins it now, the rank of the card winning it now, and whether that card is a ruff.
TRICK_NAMES: tuple[str, ...] = (
    "follows", "ruffs", "beats", "partner_winning", "winning_rank", "winning_ruff")
# The hand reading's means of the points of the defenders on the playing hand's left and
# right (from the auction, as declarer reads it).
READ_NAMES: tuple[str, ...] = ("left_read_hcp", "right_read_hcp")
# The candidate's suit (`trick_play.card_part`): "partner" is the side's other hand, seen;
# "out" cards are in neither of the side's hands nor played.
CARD_NAMES = card_names("partner", ("left", "right"), "defence")
NAMES: tuple[str, ...] = (*DEAL_NAMES, *PLAY_NAMES, *TRICK_NAMES, *READ_NAMES,
                          *CARD_NAMES, *SEARCH_NAMES, *SPREAD_NAMES)


def is_declaring_play(view: BridgeView, last_trick: int = LEARNED_TO_TRICK) -> bool:
    """Whether `view`'s seat is declarer to play, from its hand or dummy's, to a trick
    from 2 to `last_trick`."""
    contract = view.contract
    if (view.phase != "play" or contract is None or view.seat != contract.declarer
            or view.turn not in (contract.declarer, view.dummy) or not view.dummy_hand):
        return False
    return 4 <= len(view.played) < 4 * last_trick


def trick_part(card: Card, view: BridgeView, me: int) -> list[float]:
    """`TRICK_NAMES`: what `card` from the hand of `me` does to the trick so far."""
    contract = view.contract
    assert contract is not None
    trump = contract.trump
    if not view.trick:
        return [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    led = view.trick[0][1].suit
    winner = trick_winner(view.trick, trump)
    winning = next(c for s, c in view.trick if s == winner)
    return [float(card.suit == led), float(card.suit != led and card.suit == trump),
            float(trick_winner([*view.trick, (me, card)], trump) == me),
            float(winner == (me + 2) % 4), winning.rank,
            float(winning.suit != led and winning.suit == trump)]


def declaring_rows(view: BridgeView, ctx: Context, cards: Sequence[Card], read: Reading,
                   outcome: Outcome | None) -> list[list[float]]:
    """One row per candidate in `cards` for declarer to play in `view` from the hand on
    turn (`ctx`: the auction from declarer's seat, `context_of`), with its hand `read`ing
    of the others and the card search's `outcome` there."""
    contract, seat, dummy, me = view.contract, view.seat, view.dummy, view.turn
    assert contract is not None and seat is not None and dummy is not None and me is not None
    ours = view.tricks_won[seat % 2]
    theirs = view.tricks_won[(seat + 1) % 2]
    trump = contract.trump
    partner = (me + 2) % 4
    left, right = (me + 1) % 4, (me + 3) % 4
    shared = [*deal_part(view, ctx), len(view.played) // 4 + 1, contract.tricks_needed - ours,
              14 - contract.tricks_needed - theirs, float(me == dummy), len(view.trick),
              sum(1 for c in hand_of(view, me) if c.suit == trump),
              sum(1 for c in hand_of(view, partner) if c.suit == trump), trumps_out(view)]
    reads = [read.mean[(who - seat) % 4 - 1][0] for who in (left, right)]
    return [shared + trick_part(card, view, me) + reads
            + card_part(card, view, ctx, read, me, (left, right)) + search_part(card, outcome)
            for card in cards]


def _make(model: Path) -> PlayModel:
    return PlayModel(ranker_at(model, NAMES), declaring_rows)


# Without it (None), declarer plays the card search's card.
SHELF = Shelf(log, "learned declarer play", "declarer plays the card search's card", _make,
              DEFAULT)
DECLARING = PlayKind("declaring", is_declaring_play, declaring_rows, NAMES, NAMES, SHELF,
                     "learned_declaring", "declaring side's cards to tricks 2-6")
