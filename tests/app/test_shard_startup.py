"""Starting one process of a sharded bot: its settings, its command line, and the one line
that refuses a second process for a shard another one serves."""

from __future__ import annotations

import pytest

from bot.__main__ import main, serve, startup_failure
from bot.app import ShardedTrickTableBot, TrickTableBot, make_bot
from bot.config import ConfigError, load_settings
from bot.store import ShardTaken, Store
from tests.app.helpers import ENV_NAMES, one_line_exit
from tests.e2e.harness import TOKEN


def test_shard_settings_are_read_and_checked():
    base = {"DISCORD_TOKEN": TOKEN}
    settings = load_settings({**base, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    assert load_settings({**base, "SHARD_COUNT": "2"}).shard_ids == (0, 1)
    assert load_settings(base).shard_count is None
    assert load_settings({**base, "SHARD_LEASE_SECONDS": "5"}).lease_seconds == 5
    assert load_settings(base).lease_seconds == 30
    for env, says in [({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
                      ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
                      ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "separated by commas"),
                      ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
                      ({"SHARD_LEASE_SECONDS": "0.5"}, "SHARD_LEASE_SECONDS"),
                      ({"DATABASE_URL": "mysql://x"}, "PostgreSQL URL")]:
        with pytest.raises(ConfigError, match=says):
            load_settings({**base, **env})
    url = load_settings({**base, "DATABASE_URL": "postgresql://u@h/db"})
    assert url.database == "postgresql://u@h/db"


def test_shard_options_on_the_command_line_are_checked_with_one_line(
        monkeypatch, tmp_path, capsys):
    for name in (*ENV_NAMES, "SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    line = one_line_exit(capsys, main(["--shard-count", "4", "--shards", "0,4"]))
    assert "--shards" in line and "from 0 to 3" in line


def test_a_shard_count_makes_an_auto_sharded_bot():
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": "2"})
    bot = make_bot(settings)
    assert isinstance(bot, ShardedTrickTableBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [2])
    plain = make_bot(load_settings({"DISCORD_TOKEN": TOKEN}))
    assert type(plain) is TrickTableBot


async def test_a_second_process_for_a_shard_is_refused_at_start_with_one_line(
        discord_double, database):
    async with await Store.open(database) as store:
        await store.take_shards(2, [1], "other-host:4242", 30)
    where = "DATABASE_URL" if database.startswith("postgresql") else "DATABASE_PATH"
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "0,1",
                              where: database})
    with pytest.raises(ShardTaken) as caught:
        await serve(settings)
    line = startup_failure(caught.value)
    assert line is not None and "\n" not in line
    assert "Shard 1 of 2" in line and "other-host:4242" in line
    async with await Store.open(database) as store:  # shard 0 was not left taken
        await store.take_shards(2, [0], "third", 30)
