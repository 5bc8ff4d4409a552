"""Starting the bot: each fixable problem stops it with one clear line and exit code 2."""

from __future__ import annotations

import asyncio
import os
import sqlite3

import discord
import pytest

from bot.__main__ import main, serve, startup_failure
from bot.config import ConfigError, load_settings
from bot.store import Store
from tests.app.helpers import one_line_exit
from tests.e2e.harness import TOKEN


def test_no_token_explains_what_is_missing_and_where(clean_env, capsys):
    line = one_line_exit(capsys, main([]))
    assert "DISCORD_TOKEN is not set" in line and ".env" in line


def test_a_malformed_token_is_refused_before_contacting_discord(clean_env, capsys):
    clean_env.setenv("DISCORD_TOKEN", "my-client-secret")
    line = one_line_exit(capsys, main([]))
    assert "does not look like a bot token" in line


def test_a_malformed_token_is_told_what_is_wrong_with_it(clean_env, capsys):
    """The message describes the token it got: a one-part secret is told it has one part;
    a three-part token with a short part is not told it lacks three parts."""
    clean_env.setenv("DISCORD_TOKEN", "abc")
    line = one_line_exit(capsys, main([]))
    assert "this one has 1 part" in line
    clean_env.setenv("DISCORD_TOKEN", "abcdefghijklmnopqrstuvwx.abcd.short")
    line = one_line_exit(capsys, main([]))
    assert "it has three parts, but one is too short" in line
    assert "three parts separated by dots)" not in line
    clean_env.setenv("DISCORD_TOKEN", "abcdefghijklmnopqrstuvwx.ab cd.abcdefghijklmnopqrstuvwx")
    line = one_line_exit(capsys, main([]))
    assert "a character a bot token never has" in line


def test_the_token_is_read_from_dot_env_in_the_current_folder(clean_env, tmp_path, capsys):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-token\n")
    line = one_line_exit(capsys, main([]))
    assert "DISCORD_TOKEN in .env does not look like a bot token" in line


def test_a_bad_setting_is_said_to_come_from_where_it_was_set(clean_env, tmp_path, capsys):
    """A token from the environment is not blamed on .env, even with a .env beside it that
    sets it too (the environment's wins); a setting only in .env is said to be there."""
    for name in ("DISCORD_TOKEN", "BOT_DELAY_SECONDS"):  # what .env loads is undone after
        clean_env.setenv(name, "")
        clean_env.delenv(name)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nBOT_DELAY_SECONDS=soon\n")
    clean_env.setenv("DISCORD_TOKEN", "my-client-secret")
    line = one_line_exit(capsys, main([]))
    assert "DISCORD_TOKEN in the environment does not look like a bot token" in line
    assert ".env" not in line.replace(".env.example", "")
    for name in ("DISCORD_TOKEN", "BOT_DELAY_SECONDS"):  # as a fresh process finds them
        clean_env.delenv(name)
    line = one_line_exit(capsys, main([]))
    assert "BOT_DELAY_SECONDS='soon' in .env is not a number" in line


def test_an_unusable_database_path_stops_with_one_line(clean_env, tmp_path, capsys):
    clean_env.setenv("DISCORD_TOKEN", TOKEN)
    clean_env.setenv("DATABASE_PATH", str(tmp_path / "missing" / "dir" / "t.db"))
    line = one_line_exit(capsys, main([]))
    assert "missing" in line


async def _created(path) -> None:
    await (await Store.open(path)).close()


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_a_database_folder_the_bot_cannot_write_stops_with_the_fix(
        clean_env, tmp_path, capsys, unwritable_folder, existing):
    """A /data bind-mounted from a folder root owns: the bot's user may not write there.
    SQLite needs the folder even for an existing file (its -wal and -shm files)."""
    path = unwritable_folder / "tricktable.db"
    if existing:
        unwritable_folder.chmod(0o755)
        asyncio.run(_created(path))
        unwritable_folder.chmod(0o555)
    clean_env.setenv("DISCORD_TOKEN", TOKEN)
    clean_env.setenv("DATABASE_PATH", str(path))
    line = one_line_exit(capsys, main([]))
    assert f"cannot write in the folder '{unwritable_folder}'" in line, line
    assert f"chown {os.geteuid()} '{unwritable_folder}'" in line and "bind mount" in line


def test_a_database_from_a_newer_version_stops_with_one_line(clean_env, tmp_path, capsys):
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 999")
    clean_env.setenv("DISCORD_TOKEN", TOKEN)
    clean_env.setenv("DATABASE_PATH", str(path))
    line = one_line_exit(capsys, main([]))
    assert "newer version" in line


def test_bad_settings_are_named():
    with pytest.raises(ConfigError, match="BOT_DELAY_SECONDS"):
        load_settings({"DISCORD_TOKEN": TOKEN, "BOT_DELAY_SECONDS": "soon"})
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        load_settings({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"})
    with pytest.raises(ConfigError, match="CARD_EMOJIS"):
        load_settings({"DISCORD_TOKEN": TOKEN, "CARD_EMOJIS": "maybe"})
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "123"})
    assert settings.dev_guild_id == 123 and settings.database_path == "tricktable.db"
    assert settings.card_emojis
    assert not load_settings({"DISCORD_TOKEN": TOKEN, "CARD_EMOJIS": "off"}).card_emojis


async def test_a_rejected_token_stops_with_one_line(discord_double, tmp_path):
    discord_double.fail_next("GET", r"^/users/@me$", status=401)
    settings = load_settings({"DISCORD_TOKEN": TOKEN,
                              "DATABASE_PATH": str(tmp_path / "t.db")})
    with pytest.raises(discord.LoginFailure) as caught:
        await serve(settings)
    message = startup_failure(caught.value)
    assert message is not None and "rejected DISCORD_TOKEN (set in the environment)" in message
    assert ".env" not in message
    from_file = startup_failure(caught.value, "in .env")
    assert from_file is not None and "paste the new one into .env" in from_file
    assert startup_failure(RuntimeError("a bug")) is None


def test_simulate_prints_results_and_throughput(capsys):
    # Single Dummy: two whole matches in a fraction of a second (Tennis's look-ahead
    # players take seconds); the command's output is what is checked.
    assert main(["simulate", "single_dummy", "--matches", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 3 and out[-1].startswith("2 single_dummy matches in")
    assert "actions/s" in out[-1]
