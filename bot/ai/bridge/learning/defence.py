"""The defence's leads to tricks 2 to 6 learned from our own deals: each card a defender
on lead may lead, ranked by what it costs.

    python -m bot.ai.bridge.learning.defence_training make --first 0 --deals 2000 --out ROWS.npz
    python -m bot.ai.bridge.learning.defence_training train --rows ROWS.npz \
        --out bot/ai/bridge/learning/models/defence_leads.npz

Why learned: the card search values a defender's lead on a few layouts solved double
dummy, and thinking four times longer leaves its choices as they were; its leads to
tricks 2 to 4 still give away about 0.19 double-dummy tricks a deal. Played out by our
own players, a bank deal as dealt is a fair draw of what the hidden hands hold given the
auction and the cards seen so far, so the tricks each lead takes on it label that lead
for every position like it: the model learns what the hidden hands hold as our players
bid and play, where the search only knows the auction's ranges.

A row is one legal card of a defender on lead, after the first trick: the defender's hand
as dealt and the auction as the system reads it (the call values' own pieces), the
contract and the tricks each side still needs, the learned hand reading's points of
partner and declarer, and the card's own part (`card_part`: its place among the cards
still out, its suit in hand and in dummy, who has shown out of it or played in it, who
led it before, what the auction said of it), and what the card search made of it at the
bot's budget (its average tricks and value short of the best card's, and, for a model
made after they were added, how often it was a best card and how its tricks spread over
the layouts): the model learns
where the search's double-dummy averages mislead it, rather than everything anew. Its
target is the tricks it gives away double dummy against the position's best lead
(`defence_training`).

At the table the card search runs as for any card, then the shipped model chooses the
lead reading what the search made of each card (`AdvancedBridgePlayer.learned_defence`;
`bench.strength bridge-defence` compares the two lead by lead). The features are here,
the pieces they share with the declaring side's cards in `trick_play`, apart from the
rows and training (`defence_training`), so that a player can read them without LightGBM.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from bot.games.bridge_view import BridgeView
from bot.games.cards import Card

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
    search_part,
    trumps_out,
)
from .values import MODELS

log = logging.getLogger(__name__)

DEFAULT = MODELS / "defence_leads.npz"

# Where the play stands: the trick to lead (2 for the first after the opening lead), the
# tricks the defence still needs to beat the contract and declarer to make it, whether
# dummy sits on the leader's left (the opening leader) or right, and the trumps held.
PLAY_NAMES: tuple[str, ...] = (
    "trick_no", "defence_needs", "declarer_needs", "dummy_on_left",
    "my_trumps", "dummy_trumps", "trumps_out")
# The hand reading's means of partner's and declarer's points (from the auction).
READ_NAMES: tuple[str, ...] = ("partner_read_hcp", "declarer_read_hcp")
# The candidate's suit (`trick_play.card_part`): "out" cards are neither in the leader's
# hand, nor dummy's, nor played (partner's or declarer's); "live" ranks are those not
# played yet.
CARD_NAMES = card_names("dummy", ("partner", "declarer"), "declarer")
# The spread (`trick_play.SPREAD_NAMES`) came after the first model, which reads the names
# before it.
NAMES: tuple[str, ...] = (*DEAL_NAMES, *PLAY_NAMES, *READ_NAMES, *CARD_NAMES,
                          *SEARCH_NAMES, *SPREAD_NAMES)
# The features a model may read: all, or all but the spread (the first model's).
FIRST_NAMES: tuple[str, ...] = NAMES[:-len(SPREAD_NAMES)]


def is_defence_lead(view: BridgeView, last_trick: int = LEARNED_TO_TRICK) -> bool:
    """Whether `view`'s seat is a defender to lead to a trick from 2 to `last_trick`."""
    contract = view.contract
    if (view.phase != "play" or contract is None or view.seat is None or view.trick
            or view.turn != view.seat):
        return False
    return view.seat % 2 != contract.declarer % 2 and 4 <= len(view.played) < 4 * last_trick


def defence_rows(view: BridgeView, ctx: Context, cards: Sequence[Card], read: Reading,
                 outcome: Outcome | None) -> list[list[float]]:
    """One row per candidate in `cards` for the defender on lead in `view` (`ctx`: the
    auction from its seat, `context_of`), with its hand `read`ing of the others (from the
    auction) and the card search's `outcome` there."""
    contract, seat, dummy = view.contract, view.seat, view.dummy
    assert contract is not None and seat is not None and dummy is not None
    ours = view.tricks_won[seat % 2]
    theirs = view.tricks_won[contract.declarer % 2]
    trump = contract.trump
    partner, declarer = (seat + 2) % 4, contract.declarer
    shared = (deal_part(view, ctx)
              + [len(view.played) // 4 + 1, 14 - contract.tricks_needed - ours,
                 contract.tricks_needed - theirs, float((seat + 1) % 4 == dummy),
                 sum(1 for c in view.hand if c.suit == trump),
                 sum(1 for c in view.dummy_hand if c.suit == trump), trumps_out(view)]
              + [read.mean[(who - seat) % 4 - 1][0] for who in (partner, declarer)])
    return [shared + card_part(card, view, ctx, read, seat, (partner, declarer))
            + search_part(card, outcome) for card in cards]


def _make(model: Path) -> PlayModel:
    return PlayModel(ranker_at(model, FIRST_NAMES, NAMES), defence_rows)


# Without it (None), the defence leads the card search's card.
SHELF = Shelf(log, "learned defence leads", "the defence's leads are the card search's",
              _make, DEFAULT)
load = SHELF.load
shared = SHELF.shared
DEFENCE_LEADS = PlayKind("defence", is_defence_lead, defence_rows, NAMES, FIRST_NAMES, SHELF,
                         "learned_defence", "defence leads to tricks 2-6", one_a_trick=True)
