"""Bot processes that start in a fraction of a second, for the chaos test: this process
imports the bot once, then forks a child for each line of JSON it reads (the config of
`shard_process.serve`) and prints the child's pid. The child is the real bot in a process
of its own, killed by the test with SIGKILL like any other; only its imports are shared.

    python -m tests.e2e.bot_forks   # then write one config per line on its stdin
"""

from __future__ import annotations

import asyncio
import faulthandler
import importlib
import json
import os
import signal
import sys


def main() -> int:
    # What the bot imports, imported once here (forking copies it; no thread and no event
    # loop exists yet, so forking is safe).
    from bot.app import EXTENSIONS

    # Not the computer players' search libraries: the double-dummy solver starts threads
    # of its own when loaded, which a fork would not carry over.
    for module in EXTENSIONS:
        importlib.import_module(module)
    from tests.e2e.shard_process import serve

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    print("ready", flush=True)
    for line in sys.stdin:
        config = json.loads(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            log = os.open(str(config["log"]), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.dup2(log, 2)
            # `kill -USR1 <pid>` writes every thread's stack to the log (a hung bot).
            faulthandler.register(signal.SIGUSR1, all_threads=True)
            import logging

            logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                                format="%(asctime)s %(levelname)s %(name)s: %(message)s")
            try:
                asyncio.run(serve(config))
            finally:
                os._exit(0)
        print(pid, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
