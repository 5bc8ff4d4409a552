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
no part score changes what a contract is worth. A rubber round (its card's features end
with `features.RUBBER_NAMES`) is stacked on a duplicate round or on an earlier rubber
round, and learned from labels in points of the rubber, at rubber scores of every kind
(`rollouts --rubber`): it weighs the calls at every rubber decision against its base's
call (where a part score stands and the base is a duplicate round, the tables'
rubber-aware call), and leaves a duplicate board to its base. `RUBBER` is the last.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

from bot.games.bridge_auction import CALL_BY_TEXT

from ..bidding.captain import game_level
from ..bidding.context import LHO, RHO, cheapest
from ..bidding.rubber import Score
from ..bidding.system import Decision
from .features import NAMES, RUBBER_NAMES, Candidates, Rows
from .forest import Forest
from .loading import logged, once

log = logging.getLogger(__name__)

MODELS = Path(__file__).parent / "models"
DEFAULT = MODELS / "call_values.npz"
RUBBER = MODELS / "call_values_rubber.npz"  # the players' values at a rubber
# Which calls of the tables the values may change: any, or only the captain's (where no
# table's rule made the call, so partner's later rules infer nothing from a rule passed by).
SCOPES = ("all", "captain")


class CallValues:
    """A loaded model of candidate calls' gains, and the margin a gain must reach (IMPs,
    or points of the rubber for a rubber round)."""

    def __init__(self, forest: Forest, margin: float, scope: str = "all",
                 base: CallValues | None = None, rubber: bool = False) -> None:
        self.forest = forest
        self.margin = margin
        self.scope = scope  # SCOPES: which of the tables' calls the values may change
        self.base = base  # the earlier round this one improves on (None: the tables)
        self.rubber = rubber  # learned at rubber scores (its rows read the part scores)

    def gains(self, rows: Sequence[Sequence[float]]) -> list[float]:
        if not rows:
            return []
        return [float(v) for v in self.forest.predict(rows)]

    def better(self, made: Decision, legal: Sequence[str],
               vulnerable: tuple[bool, bool], score: Score | None = None,
               known: Candidates | None = None) -> str:
        """The call to make: the best-valued honest candidate where it beats the
        reference call (the base round's, else the tables') by the margin, else the
        reference. `score`: the rubber's (None: a duplicate board). `known`: the
        decision's candidates as an earlier round of the chain worked them out."""
        known = known if known is not None else Candidates(made, legal)
        if score is None and self.rubber:
            return made.action if self.base is None else self.base.better(
                made, legal, vulnerable, known=known)
        if score is not None and not self.rubber and score.parts != (0, 0):
            return made.action  # a duplicate round cannot value a part score
        reference = (made.action if self.base is None
                     else self.base.better(made, legal, vulnerable, score, known))
        if self.scope == "captain" and made.by_rule:
            return reference
        stacked = None if self.base is None else reference
        readings = known.readings(stacked)
        if not readings:
            return reference
        if self.rubber and made.ctx.part_score():
            # Past the level that completes our game, a bid below slam scores nothing
            # more and risks the contract (bench bridge-rubber: the rubber round alone
            # went past it on one part-score deal in six).
            readings = {action: said for action, said in readings.items()
                        if action == reference or not past_game(action, made)}
            if not readings:
                return reference
        candidates = list(readings)
        rows = Rows(made, vulnerable, stacked, score if self.rubber else None, known)
        gains = self.gains([rows.row(action) for action in candidates])
        best = max(range(len(candidates)), key=lambda i: (gains[i], -i))
        return candidates[best] if gains[best] >= self.margin else reference


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


def card_path(model: Path) -> Path:
    return model.with_suffix(".json")


def _make(model: Path) -> CallValues:
    card = json.loads(card_path(model).read_text())
    features = tuple(card["features"])
    if features not in (NAMES, NAMES + RUBBER_NAMES):
        raise ValueError("it was made for other features than this code computes")
    forest = Forest.load(model)
    if forest.features != len(features):
        raise ValueError(f"it reads {forest.features} features, not {len(features)}")
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
    return CallValues(forest, float(card["margin"]), scope, base, rubber=features != NAMES)


def load(model: Path) -> CallValues | None:
    """The model at `model` with its card, or None (logged) where it cannot be used."""
    return logged(log, "learned bidding", "bidding by the tables", _make, model)


_loaded: dict[Path, CallValues | None] = {}
_stacking: set[Path] = set()  # the models whose bases are being loaded (a circle is refused)


def shared(model: Path = DEFAULT) -> CallValues | None:
    """The model loaded once per process (None: bid by the tables; said once)."""
    return once(_loaded, model, load)


def served(rubber: bool) -> CallValues | None:
    """The values the players use: at a rubber, the rubber round where it loads (else the
    duplicate rounds, which then stop at a part score); on a duplicate board, the
    duplicate rounds."""
    if rubber:
        values = shared(RUBBER)
        if values is not None:
            return values
    return shared(DEFAULT)
