"""Making the learned defence's leads (`defence`): rows from our players' deals, and training.

    python -m bot.ai.bridge.learning.defence_training make --first 0 --deals 2000 \
        --out ROWS.npz [--jobs 2]
    python -m bot.ai.bridge.learning.defence_training train --rows ROWS.npz [ROWS2.npz ...] \
        --out bot/ai/bridge/learning/models/defence_leads.npz [--first-features]

How the rows are made and the model trained is `play_training`'s, for any learned kind of
card: here, wherever a defender is on lead to a trick from 2 to 6, each legal card is a
row (`defence.defence_rows`). The model reads all of `defence.NAMES`, or, with
`--first-features` or on rows made before the spread was added, `FIRST_NAMES`.
"""

from __future__ import annotations

import sys

from .defence import DEFENCE_LEADS
from .play_training import Commands

COMMANDS = Commands(DEFENCE_LEADS, "bot.ai.bridge.learning.defence_training")
make, train, main = COMMANDS.make, COMMANDS.train, COMMANDS.main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
