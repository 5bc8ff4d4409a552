"""Entry point: `python -m bot` (or `tricktable`) runs the bot; subcommands run tools.

    python -m bot                                  run the bot (needs DISCORD_TOKEN in .env)
    python -m bot simulate GAME --matches N --seed S
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.games import GAMES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tricktable", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser("simulate", help="play whole matches between computer players")
    sim.add_argument("game", choices=GAMES)
    sim.add_argument("--matches", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--quiet", action="store_true", help="print only the summary line")
    return parser


def _fail(message: str) -> int:
    print(f"tricktable: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "simulate":
        from bot.simulate import run
        if args.matches < 1:
            return _fail("--matches must be at least 1.")
        run(args.game, args.matches, args.seed, quiet=args.quiet)
        return 0
    return _run_bot()


def _run_bot() -> int:
    from dotenv import load_dotenv

    from bot.config import ConfigError, load_settings

    load_dotenv()
    try:
        settings = load_settings()
    except ConfigError as exc:
        return _fail(str(exc))

    import discord

    from bot.app import TrickTableBot
    from bot.store import StoreError

    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(TrickTableBot(settings).start(settings.token))
    except discord.LoginFailure:
        return _fail("Discord rejected DISCORD_TOKEN: reset the token on the Developer "
                     "Portal's Bot page and paste the new one into .env.")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the requested gateway intents.")
    except StoreError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
