"""Entry point: `python -m bot` (or `tricktable`) runs the bot; subcommands run tools.

    python -m bot                                  run the bot (needs DISCORD_TOKEN in .env)
    python -m bot --shard-count 4 --shards 0,1     run shards 0 and 1 of 4 (one process of
                                                   several on one PostgreSQL database)
    python -m bot simulate GAME --matches N --seed S
    python -m bot ratings --rebuild                recompute ratings and stats from results
    python -m bot verify GAME SERVER_SEED CLIENT_SEED DEAL_NO COMMITMENT
                                                   check a fair deal and print its hands
    python -m bot render-samples OUT_DIR           draw the card faces and deal pictures
    python -m bot backup PATH                      copy the SQLite database (safe while the
                                                   bot runs); PostgreSQL: use pg_dump
    python -m bot restore PATH [--force]           put a backup in place (bot stopped)
    python -m bot health                           ask the running bot's /health on
                                                   METRICS_PORT (the image's HEALTHCHECK)
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.config import ENVIRONMENT, Origin, Settings
from bot.games import GAMES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tricktable", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shard-count", metavar="N", default=None,
                        help="shards across every process (default: SHARD_COUNT, or none)")
    parser.add_argument("--shards", metavar="IDS", default=None,
                        help="the shards this process serves, e.g. 0,1 (default: SHARD_IDS, "
                             "or all)")
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser("simulate", help="play whole matches between computer players")
    sim.add_argument("game", choices=GAMES)
    sim.add_argument("--matches", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--quiet", action="store_true", help="print only the summary line")
    ratings = sub.add_parser("ratings", help="maintain the leaderboard ratings")
    ratings.add_argument("--rebuild", action="store_true",
                         help="recompute every rating and figure from the stored results")
    ratings.add_argument("--database", help="the database file or postgresql:// URL "
                                            "(default: DATABASE_URL, else DATABASE_PATH)")
    verify = sub.add_parser(
        "verify", help="check a deal's revealed server seed and print the deal",
        description="Check a fair deal: the revealed server seed, hashed DEAL_NO times with "
        "SHA-256, must give the commitment the table showed before it started; then the "
        "deal is dealt again and every hand printed. The table's Fair deals button shows "
        "the values; the command is there, ready to copy, once a deal has ended.",
        epilog="Each deal's shuffle draws from HMAC-SHA256 keyed with the server seed as "
        "its 64 hexadecimal characters, as ASCII text (not the 32 bytes they spell), over "
        "the message '<client seed>:<deal no>:<block>'.")
    verify.add_argument("game", choices=GAMES, metavar="GAME",
                        help="the table's game: " + ", ".join(GAMES))
    verify.add_argument("server_seed", metavar="SERVER_SEED",
                        help="the deal's server seed, revealed when the deal ended "
                             "(64 hexadecimal digits)")
    verify.add_argument("client_seed", metavar="CLIENT_SEED",
                        help="the table's client seed, made when Start was pressed "
                             "(32 hexadecimal digits)")
    verify.add_argument("deal_no", type=int, metavar="DEAL_NO",
                        help="which deal of the match it is, counting from 1 (a redeal "
                             "after a throw-in counts)")
    verify.add_argument("commitment", metavar="COMMITMENT",
                        help="the commitment the table showed before it started "
                             "(64 hexadecimal digits)")
    samples = sub.add_parser("render-samples",
                             help="draw sample pictures: card faces, an emoji hand, deals")
    samples.add_argument("out_dir", help="the folder to write them to (created if missing)")
    for name, text in (("backup", "copy the SQLite database to PATH, safe while the bot "
                                  "runs (PostgreSQL: pg_dump)"),
                       ("restore", "replace the database by the backup at PATH (stop the "
                                   "bot first)")):
        tool = sub.add_parser(name, help=text)
        tool.add_argument("path")
        tool.add_argument("--database", help="the database file (default: DATABASE_URL, "
                                              "else DATABASE_PATH)")
        tool.add_argument("--force", action="store_true",
                          help="overwrite an existing file")
    sub.add_parser("health", help="ask the running bot's /health on METRICS_PORT (read "
                                  "as the bot reads it): exit 0 when it answers 200, or when "
                                  "METRICS_PORT is not set")
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
    if args.command == "verify":
        from bot.verify import main as verify_main
        return verify_main(args.game, args.server_seed, args.client_seed, args.deal_no,
                           args.commitment)
    if args.command == "ratings":
        if not args.rebuild:
            return _fail("say what to do: `ratings --rebuild`.")
        return _rebuild_ratings(args.database)
    if args.command == "render-samples":
        from pathlib import Path

        from bot.render.samples import write_samples
        for path in write_samples(Path(args.out_dir)):
            print(path)
        return 0
    if args.command in ("backup", "restore"):
        return _backup_or_restore(args.command, args.path, args.database, args.force)
    if args.command == "health":
        return _health()
    return _run_bot(args.shard_count, args.shards)


def _database(given: str | None) -> str:
    import os

    from dotenv import find_dotenv, load_dotenv

    from bot.store import DEFAULT_PATH

    load_dotenv(find_dotenv(usecwd=True))
    return (given or os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH")
            or DEFAULT_PATH)


def _backup_or_restore(command: str, path: str, database: str | None, force: bool) -> int:
    from bot.store import StoreError
    from bot.store.backup import backup, restore

    target = _database(database)
    try:
        if command == "backup":
            size = backup(target, path, force=force)
            print(f"Backed up {target} to {path} ({size:,} bytes).")
        else:
            version = restore(path, target, force=force)
            print(f"Restored {path} (schema {version}) into {target}; start the bot.")
    except StoreError as exc:
        return _fail(str(exc))
    return 0


def _health() -> int:
    from dotenv import find_dotenv, load_dotenv

    from bot.config import ConfigError, load_settings
    from bot.ops.health import ask

    load_dotenv(find_dotenv(usecwd=True))  # as the bot does: the folder it runs in
    try:
        port = load_settings().metrics_port
    except ConfigError as exc:
        print(f"tricktable: {exc}", file=sys.stderr)
        return 1
    code, said = ask(port)
    print(said, file=sys.stdout if code == 0 else sys.stderr)
    return code


def _rebuild_ratings(database: str | None) -> int:
    import os

    from dotenv import load_dotenv

    from bot.ratings.recorder import rebuild
    from bot.store import DEFAULT_PATH, Store, StoreError
    from bot.store.postgres import shown

    load_dotenv()
    path = (database or os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH")
            or DEFAULT_PATH)

    async def go() -> int:
        async with await Store.open(path) as store:
            return await rebuild(store)

    try:
        count = asyncio.run(go())
    except StoreError as exc:
        return _fail(str(exc))
    print(f"Rebuilt ratings from {count} finished matches in {shown(path)}.")
    return 0


def _run_bot(shard_count: str | None = None, shards: str | None = None) -> int:
    import dataclasses
    import os

    from bot.config import ConfigError, load_settings, parse_shards
    from bot.runtime import run

    try:
        settings = load_settings(origin=_load_dotenv())
        if shard_count is not None or shards is not None:
            count, ids = parse_shards(
                shard_count if shard_count is not None else os.environ.get("SHARD_COUNT", ""),
                shards or "", "on the command line", "--shard-count", "--shards")
            settings = dataclasses.replace(settings, shard_count=count, shard_ids=ids)
    except ConfigError as exc:
        return _fail(str(exc))

    from bot.ops.logs import configure_logging

    configure_logging(settings.log_level, settings.log_format)
    try:
        run(serve(settings))
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        message = startup_failure(exc, settings.token_origin)
        if message is None:
            raise
        return _fail(message)
    return 0


async def serve(settings: Settings) -> None:
    """Open the database (before contacting Discord, so a bad path fails fast), then run."""
    from bot.app import make_bot
    from bot.ops.logs import tag_interactions
    from bot.ops.stopping import stop_on_signals
    from bot.store import Store

    store = await Store.open(settings.database)
    try:
        async with make_bot(settings, store=store, freeze_at_start=True) as bot:
            if settings.log_format == "json":
                tag_interactions(bot)
            stop = stop_on_signals(bot.close)
            await bot.start(settings.token)
            await stop.stopped()
    finally:
        await store.close()


def _load_dotenv() -> Origin:
    """Load the `.env` of the folder the bot is run from (or the nearest above it) into the
    environment, and say which names it set: a variable already in the environment wins
    over the file's, and is said to come from there."""
    import os

    from dotenv import dotenv_values, find_dotenv, load_dotenv

    path = find_dotenv(usecwd=True)
    if not path:
        return Origin()
    set_there = {name for name, value in dotenv_values(path).items()
                 if value is not None and name not in os.environ}
    load_dotenv(path)
    shown = os.path.relpath(path) if os.path.dirname(path) == os.getcwd() else path
    return Origin(shown, frozenset(set_there))


def startup_failure(exc: BaseException, token_origin: str = ENVIRONMENT) -> str | None:
    """The one line to print for a failure a person can fix, or None for a real bug.
    `token_origin`: where DISCORD_TOKEN was set (`in .env`, `in the environment`)."""
    import discord

    from bot.store import StoreError

    if isinstance(exc, discord.LoginFailure):
        where = ("put the new one there" if token_origin == ENVIRONMENT
                 else f"paste the new one {token_origin.replace('in ', 'into ', 1)}")
        return (f"Discord rejected DISCORD_TOKEN (set {token_origin}): reset the token on "
                f"the Developer Portal's Bot page and {where}.")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused the gateway intents this bot asked for."
    if isinstance(exc, StoreError):
        return str(exc)
    return None

if __name__ == "__main__":
    sys.exit(main())
