"""`tricktable backup` and `restore`: a backup taken while the bot plays restores into a
fresh file, and a bot started on it rebuilds the same tables; bad files and PostgreSQL are
refused with one clear line and nothing changed."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import Store
from tests.e2e.harness import running

ROOT = Path(__file__).resolve().parents[2]


async def _cli(*args: str) -> tuple[int, str]:
    """The real command, in its own process (the bot keeps running meanwhile)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=str(ROOT),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_a_backup_during_play_restores_the_same_tables(discord_double, tmp_path):
    backup = tmp_path / "backup.db"
    async with running(discord_double, tmp_path, db_name="live.db",
                       think_seconds=0.05) as h:
        alice = h.user(0)
        table = await h.start_with_bots(alice, "spades", target=100)
        for _ in range(6):
            await h.act_once(alice)
        await h.driver.settle()
        before = list(table.game.history)
        # The backup runs in another process while the bot goes on playing.
        code, out = await _cli("backup", str(backup), "--database", str(h.db))
        assert code == 0, out
        assert "Backed up" in out
        played = list(table.game.history)
        assert played[:len(before)] == before
        code, out = await _cli("backup", str(backup), "--database", str(h.db))
        assert code == 2 and "already exists" in out, "a backup is never overwritten"
        table_id, world = table.id, h.world

    fresh = tmp_path / "restored.db"
    code, out = await _cli("restore", str(backup), "--database", str(fresh))
    assert code == 0 and "Restored" in out, out
    code, out = await _cli("restore", str(backup), "--database", str(fresh))
    assert code == 2 and "--force" in out

    async with running(discord_double, tmp_path, world=world, db_name="restored.db") as h:
        restored = h.bot.tables.tables[table_id]
        history = list(restored.game.history)
        assert len(before) <= len(history) <= len(played)
        assert history == played[:len(history)], "the same table, as it was at the backup"
        assert restored.seats == table.seats
        assert h.table() is restored and not restored.closed, "it plays on in its channel"


def test_backup_of_postgres_points_to_pg_dump(capsys, tmp_path):
    code = main(["backup", str(tmp_path / "b.db"), "--database",
                 "postgresql://bot:secret@db/tricktable"])
    err = capsys.readouterr().err
    assert code == 2 and "pg_dump" in err and "secret" not in err
    assert not (tmp_path / "b.db").exists()


def test_restore_refuses_a_file_that_is_not_a_tricktable_database(capsys, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    target = tmp_path / "target.db"
    for bad, said in ((junk, "not a usable SQLite database"),
                      (other, "not a TrickTable database"),
                      (tmp_path / "missing.db", "There is no file")):
        assert main(["restore", str(bad), "--database", str(target)]) == 2
        assert said in capsys.readouterr().err
    assert not target.exists()


@pytest.mark.parametrize("force", [False, True])
async def test_restore_replaces_an_existing_database_only_when_forced(tmp_path, capsys, force):
    live, copy = tmp_path / "live.db", tmp_path / "copy.db"
    async with await Store.open(str(live)) as store:
        match_id = await store.create_match("tennis", {}, 1, 2, 3, 4, {})
    assert main(["backup", str(copy), "--database", str(live)]) == 0
    async with await Store.open(str(live)) as store:
        await store.set_status(match_id, "cancelled")
    args = ["restore", str(copy), "--database", str(live)] + (["--force"] if force else [])
    assert main(args) == (0 if force else 2)
    async with await Store.open(str(live)) as store:
        match = await store.get_match(match_id)
        assert match is not None and match.status == ("lobby" if force else "cancelled")


@pytest.mark.parametrize("command", ["restore", "backup"])
async def test_a_missing_or_closed_folder_is_named(tmp_path, capsys, unwritable_folder,
                                                   command):
    live, copy = tmp_path / "live.db", tmp_path / "copy.db"
    async with await Store.open(str(live)) as store:
        await store.create_match("tennis", {}, 1, 2, 3, 4, {})
    assert main(["backup", str(copy), "--database", str(live)]) == 0
    capsys.readouterr()
    missing = tmp_path / "nowhere" / "yet"
    for folder, said in ((missing, "does not exist"), (unwritable_folder, "cannot write")):
        target = folder / "tricktable.db"
        args = (["restore", str(copy), "--database", str(target)] if command == "restore"
                else ["backup", str(target), "--database", str(live)])
        assert main(args) == 2
        err = capsys.readouterr().err
        assert f"'{folder}'" in err and said in err, err
        assert "unable to open" not in err and not target.exists()
    assert not (tmp_path / "nowhere").exists(), "no folder is made either"
