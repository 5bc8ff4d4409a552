"""Learned call values: what each honest candidate call is worth against the tables' call.

A model (a forest of regression trees trained by LightGBM, kept as flat arrays and read
with numpy alone: `forest.Forest`) and its card (a JSON file beside it: the feature
names, the margin, the command, seeds, data size and figures that made it) ship in
`models/`. A worker process loads them once, on its first bidding decision.
`CallValues.better` asks the model for every honest candidate's gain over the tables'
call and makes the best one only where it gains `margin` IMPs or more; otherwise, and
wherever the model is missing, corrupt or made for other features (one log line says
which, once per process), the tables' call stands.

A later round may be stacked on an earlier one (its card's `stacked_on` names a model in
the same folder, its base): the base chooses first, and the round's own forest weighs
every other honest call, the tables' call among them, against the base's call, trained on
labels of exactly that question (`rollouts --relative`). Where the base cannot be loaded,
neither can the round.

Values trained on duplicate boards (the rounds above) weigh calls at a rubber only while
no part score changes what a contract is worth. A rubber round (its card's features hold
`features.RUBBER_NAMES` after `NAMES`) is stacked on a duplicate round or on an earlier rubber
round, and learned from labels in points of the rubber, at rubber scores of every kind
(`rollouts --rubber`): it weighs the calls at every rubber decision against its base's
call (where a part score stands and the base is a duplicate round, the tables'
rubber-aware call), and leaves a duplicate board to its base. `RUBBER` is the last. The
players ask it only where a part score stands (`served`): at love the duplicate rounds,
which have learned far more than the rubber rounds' base, weigh the calls.

A round whose card says `slam_candidates` was learned from rows that offered the small
slams too (`rollouts --slams`), and weighs them; the rounds before it never saw one. One
whose card says `between_candidates` likewise weighs the bids between the cheapest and
game (`rollouts --between`), and one whose card says `long_suit_candidates` the jumps in a
long suit where no fit is known (`rollouts --long`; `features.EXTRAS` are the classes).

A round whose card's features end with `features.READING_NAMES` also reads the learned
hand reading's means at the decision (`rollouts --reading`): one reading a decision where
such a round acts, appended to the row every acting round reads (the others' forests
never look past their own columns), and none where no such round acts. Where the hand
reading cannot be used, such a round is skipped (one log line says so, once per process)
and the rounds under it bid as before. A rubber round may read it too, after the part
scores (`rollouts --rubber --reading`); a chain holds no rubber round and a duplicate
round that reads it together: their rows differ where the part scores stand. A round
whose card's features end with `features.SIDE_NAMES` after those reads besides what our
side holds together as read (partner's means added to this hand's numbers:
`features.with_side`, worked out from the row itself where such a round acts).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.games.bridge_auction import CALL_BY_TEXT

from ..bidding.captain import game_level
from ..bidding.context import LHO, RHO, cheapest
from ..bidding.rubber import Score
from ..bidding.system import Decision
from .features import (
    BETWEEN,
    CANDIDATE_COLUMNS,
    LONG,
    NO_EXTRAS,
    ROUND_LAYOUTS,
    SLAMS,
    Candidates,
    Extras,
    Rows,
    with_side,
)
from .forest import Forest, Forests
from .loading import MODELS as MODELS  # `loading`'s, named here for those importing it here
from .loading import Shelf
from .loading import card_path as card_path  # the same
from .reading import digest as reading_digest
from .reading import reading_part
from .reading import shared as shared_reading

log = logging.getLogger(__name__)

DEFAULT = MODELS / "call_values.npz"
RUBBER = MODELS / "call_values_rubber.npz"  # the players' values at a rubber
# Which calls of the tables the values may change: any, or only the captain's (where no
# table's rule made the call, so partner's later rules infer nothing from a rule passed by),
# or only where the opponents have bid or doubled (the rounds' gains are nearly all in
# contested auctions, and lower margins there win head to head).
SCOPES = ("all", "captain", "contested")
# The scopes `train` tries unless `--scopes` names others (the chain's cards were chosen so)
TRAINED_SCOPES = SCOPES[:2]
# A round's honest candidates at a decision and each one's gain over the reference call.
Weighed = tuple[list[str], list[float]]


class CallValues:
    """A loaded model of candidate calls' gains, and the margin a gain must reach (IMPs,
    or points of the rubber for a rubber round)."""

    def __init__(self, forest: Forest, margin: float, scope: str = "all",
                 base: CallValues | None = None, rubber: bool = False,
                 extras: Extras = NO_EXTRAS, reading: bool = False,
                 side: bool = False) -> None:
        self.forest = forest
        self.margin = margin
        self.scope = scope  # SCOPES: which of the tables' calls the values may change
        self.base = base  # the earlier round this one improves on (None: the tables)
        self.rubber = rubber  # learned at rubber scores (its rows read the part scores)
        self.extras = extras  # the classes of candidates it learned with (`features.EXTRAS`)
        self.reading = reading  # its rows read the hand reading (`features.READING_NAMES`)
        self.side = side  # and our side's sums as read after it (`features.SIDE_NAMES`)
        if side and not reading:
            raise ValueError("our side's sums are read from the hand reading's means")
        self.usable = True  # False: it learned from another hand reading than the shipped
        links = self.chain()
        if any(link.rubber for link in links) and any(
                link.reading and not link.rubber for link in links):
            raise ValueError("a rubber round and a duplicate round that reads the hand "
                             "reading cannot share a chain: their rows differ where the "
                             "part scores stand")
        # The rounds' forests read together, by the rounds read (made once each).
        self._together: dict[tuple[int, ...], Forests] = {}

    def better(self, made: Decision, legal: Sequence[str],
               vulnerable: tuple[bool, bool], score: Score | None = None,
               known: Candidates | None = None) -> str:
        """The call to make: each round of the chain in turn (the first base first)
        makes the best-valued honest candidate where it beats the reference call (the
        round before's, first the tables') by its margin, else the reference.
        `score`: the rubber's (None: a duplicate board). `known`: the decision's
        candidates as a caller already worked them out."""
        known = known if known is not None else Candidates(made, legal)
        rounds = self.acting(made, score)
        reference = made.action
        # Every round's gains against one reference are read at once (`forest.Forests`):
        # the rounds still to come are read ahead, on the bet that the reference stands;
        # a round that changes it has the rest read again against its call.
        read: tuple[str, int, list[Weighed]] | None = None  # reference, first round, rounds
        for i, link in enumerate(rounds):
            if read is None or read[0] != reference:
                read = reference, i, self._weigh(rounds[i:], made, vulnerable, score, known,
                                                 reference)
            candidates, gains = read[2][i - read[1]]
            if not candidates:
                continue
            best = max(range(len(candidates)), key=lambda j: (gains[j], -j))
            if gains[best] >= link.margin:
                reference = candidates[best]
        return reference

    def acting(self, made: Decision, score: Score | None) -> list[CallValues]:
        """The rounds of the chain that weigh calls at this decision, the first base first:
        a rubber round only at a rubber, a duplicate round at a rubber only while no part
        score stands (else it and its bases leave the tables' call), a round that reads
        the hand reading only where that model loaded, a round of the captain's scope
        only where the captain made the tables' call, one of the contested scope only
        where the opponents have bid or doubled."""
        acting: list[CallValues] = []
        for link in reversed(self.chain()):
            if score is None and link.rubber:
                continue
            if score is not None and not link.rubber and score.parts != (0, 0):
                acting.clear()  # the tables' call stands whatever its bases made
                continue
            if link.reading and (shared_reading() is None or not link.usable):
                continue  # it cannot read its rows (its load said so); the rest bid
            if link.scope == "captain" and made.by_rule:
                continue
            if link.scope == "contested" and not made.ctx.contested():
                continue
            acting.append(link)
        return acting

    def chain(self) -> list[CallValues]:
        """This round and the rounds under it, the last first."""
        chain: list[CallValues] = []
        link: CallValues | None = self
        while link is not None:
            chain.append(link)
            link = link.base
        return chain

    def candidates(self, made: Decision, known: Candidates, reference: str) -> list[str]:
        """The honest calls this round weighs against `reference`."""
        readings = known.readings(reference, self.extras)
        if self.rubber and made.ctx.part_score():
            # Past the level that completes our game, a bid below slam scores nothing
            # more and risks the contract (bench bridge-rubber: the rubber round alone
            # went past it on one part-score deal in six).
            return [action for action in readings if not past_game(action, made)]
        return list(readings)

    def _weigh(self, rounds: Sequence[CallValues], made: Decision,
               vulnerable: tuple[bool, bool], score: Score | None, known: Candidates,
               reference: str) -> list[Weighed]:
        """Per round, its candidates against `reference` and their gains, all read at
        once (nothing read where no round has a candidate). The rows end with the part
        scores where a rubber round reads them, with the hand reading's means where a
        round reads those (read once a decision: `known` keeps them); a forest reads its
        own columns alone."""
        per_round = [link.candidates(made, known, reference) for link in rounds]
        calls = list(dict.fromkeys(call for calls in per_round for call in calls))
        if not calls:
            return [([], []) for _ in rounds]
        rubber = any(link.rubber for link in rounds)
        reads = any(link.reading for link in rounds)
        rows = Rows(made, vulnerable, reference, score if rubber else None, known,
                    reading_part if reads else None)
        key = tuple(id(link) for link in rounds)
        if key not in self._together:
            self._together[key] = Forests([link.forest for link in rounds], CANDIDATE_COLUMNS)
        x = np.asarray([rows.row(call) for call in calls], dtype=np.float64)
        if any(link.side for link in rounds):
            x = with_side(x, rubber)
        sums = self._together[key].predict(x)
        at = {call: i for i, call in enumerate(calls)}
        return [(calls_here, [float(total[at[call]]) for call in calls_here])
                for total, calls_here in zip(sums, per_round, strict=True)]


def past_game(action: str, made: Decision) -> bool:
    """`action` is a bid below slam above both the level completing our side's game in
    its strain and the cheapest bid there over the opponents' last bid (the level their
    bidding forces on us)."""
    bid = CALL_BY_TEXT[action].bid if action in CALL_BY_TEXT else None
    if bid is None or bid.level >= 6:
        return False
    theirs = made.ctx.bids(LHO) + made.ctx.bids(RHO)
    low = cheapest(bid.strain, max(theirs) if theirs else None)
    return bid.level > max(game_level(bid.strain, made.ctx), low.level if low else 7)


# Each class of extra candidates (`features.EXTRAS`) and the card's flag for a round
# learned with it.
CARD_EXTRAS = {SLAMS: "slam_candidates", BETWEEN: "between_candidates",
               LONG: "long_suit_candidates"}


_stacking: set[Path] = set()  # the models whose bases are being loaded (a circle is refused)


def _make(model: Path) -> CallValues:
    card = json.loads(card_path(model).read_text())
    features = tuple(card["features"])
    if features not in ROUND_LAYOUTS:
        raise ValueError("it was made for other features than this code computes")
    rubber, reading, side = ROUND_LAYOUTS[features]
    forest = Forest.load(model)
    if forest.features != len(features):
        raise ValueError(f"it reads {forest.features} features, not {len(features)}")
    forest.split_by(CANDIDATE_COLUMNS)  # arranged for reading now, not on the first call
    scope = str(card.get("scope", "all"))
    if scope not in SCOPES:
        raise ValueError(f"its scope {scope!r} is none of {', '.join(SCOPES)}")
    base = None
    if card.get("stacked_on"):
        name = str(card["stacked_on"])
        base_path = model.parent / name
        if Path(name).name != name or base_path == model:
            raise ValueError(f"its base {name!r} is not another model in its folder")
        if base_path in _stacking:
            raise ValueError(f"its chain of bases comes back to {name}")
        _stacking.add(model)
        try:
            base = shared(base_path)
        finally:
            _stacking.discard(model)
        if base is None:
            raise ValueError(f"its base {name} cannot be used")
    extras = set()
    for extra, key in CARD_EXTRAS.items():
        offered = card.get(key, False)
        if not isinstance(offered, bool):
            raise ValueError(f"its {key} {offered!r} is neither true nor false")
        if offered:
            extras.add(extra)
    made = CallValues(forest, float(card["margin"]), scope, base, rubber=rubber,
                      extras=frozenset(extras), reading=reading, side=side)
    if reading and shared_reading() is None:
        log.error("learned bidding: the round %s reads the hand reading, which cannot be "
                  "used; it is skipped, and the rounds under it bid", model)
    elif reading and (shipped := reading_digest()) != card.get("hand_reading"):
        # Its inputs were another model's means: asked beside this one, it would weigh
        # calls on numbers it never learned from.
        made.usable = False
        log.error("learned bidding: the round %s learned from another hand reading (%s) "
                  "than the one shipped (%s); it is skipped, and the rounds under it bid",
                  model, card.get("hand_reading"), shipped)
    return made


# Without it (None), the players bid by the tables.
SHELF = Shelf(log, "learned bidding", "bidding by the tables", _make, DEFAULT)
load = SHELF.load
shared = SHELF.shared


def served(score: Score | None) -> CallValues | None:
    """The values the players use at a decision with the rubber's `score` (None: a
    duplicate board): where a part score stands, the rubber rounds where they load (else
    the duplicate rounds, which then leave the tables' call); on a duplicate board, and
    at a rubber while neither side has a part score, the duplicate rounds (at love a
    contract is worth at a rubber much what it is worth on a board)."""
    if score is not None and score.parts != (0, 0):
        values = shared(RUBBER)
        if values is not None:
            return values
    return shared(DEFAULT)
