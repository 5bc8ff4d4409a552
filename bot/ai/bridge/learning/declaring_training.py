"""Making the learned declaring side's cards (`declaring`): rows from our players' deals,
and training.

    python -m bot.ai.bridge.learning.declaring_training make --first 0 --deals 2000 \
        --out ROWS.npz [--jobs 2]
    python -m bot.ai.bridge.learning.declaring_training train --rows ROWS.npz [ROWS2.npz ...] \
        --out bot/ai/bridge/learning/models/declaring.npz

How the rows are made and the model trained is `play_training`'s, for any learned kind of
card: here, wherever declarer plays from either hand to a trick from 2 to 6 with a choice,
each legal card is a row (`declaring.declaring_rows`).
"""

from __future__ import annotations

import sys

from .declaring import DECLARING
from .play_training import Commands

COMMANDS = Commands(DECLARING, "bot.ai.bridge.learning.declaring_training")
make, train, main = COMMANDS.make, COMMANDS.train, COMMANDS.main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
