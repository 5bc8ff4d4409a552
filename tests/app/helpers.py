"""What the start-up tests share: the settings a clean environment lacks, and the check that
a failed start printed exactly one line."""

from __future__ import annotations

ENV_NAMES = ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL",
             "BOT_DELAY_SECONDS", "TURN_TIMEOUT_SECONDS")


def one_line_exit(capsys, code: int) -> str:
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]
