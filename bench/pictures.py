"""How long drawing a deal's picture takes, per game (target: at most 50 ms each), and how
big the pictures and card faces are.

    python -m bench.pictures --deals 30

Times are CPU time of this thread (`time.thread_time`), so other processes on a shared
machine inflate them less than wall time would. The small cards are drawn first, as the
bot does at start (`warm`, in a worker thread); the first picture of each game (which
still fills the suit-symbol and font caches) is shown apart from the rest.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.games import GAMES, game_class
from bot.games.cards import deck
from bot.render.pictures.board import warm
from bot.render.pictures.deals import DealPicture
from bot.render.pictures.faces import back_png, face_png
from bot.render.samples import NAMES, finished_deal

from .intervals import mean_half

TARGET_MS = 50.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30, help="random deals per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"# pictures: {args.deals} random finished deals per game, CPU ms per picture "
          f"(target {TARGET_MS:.0f} ms)")
    started = time.thread_time()
    warm()
    print(f"(warm-up at start, once per process: {(time.thread_time() - started) * 1000:.0f}"
          " ms CPU)")
    print(f"{'game':<14}{'deals':>6}{'first':>8}{'mean':>8}{'±95%':>8}{'max':>8}"
          f"{'KiB':>8}{'ok':>5}")
    all_ok = True
    for game in GAMES:
        summaries = [finished_deal(game, args.seed + i) for i in range(args.deals)]
        times: list[float] = []
        sizes: list[int] = []
        for summary in summaries:
            picture = DealPicture(game, game_class(game).TITLE, 1, NAMES[game], summary)
            started = time.thread_time()
            data = picture.render()
            times.append((time.thread_time() - started) * 1000)
            sizes.append(len(data))
        first, rest = times[0], times[1:] or times
        mean, half = mean_half(rest)
        ok = max(rest) <= TARGET_MS
        all_ok &= ok
        print(f"{game:<14}{len(times):>6}{first:>8.1f}{mean:>8.1f}{half:>8.1f}"
              f"{max(rest):>8.1f}{statistics.fmean(sizes) / 1024:>8.0f}{'yes' if ok else 'NO':>5}")
    faces = [face_png(c) for c in deck()] + [back_png()]
    print(f"(card faces: {len(faces)} PNGs, largest {max(map(len, faces)) / 1024:.1f} KiB, "
          f"Discord's limit 256 KiB; every picture within target: {'yes' if all_ok else 'no'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
