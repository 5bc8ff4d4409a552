"""The click router: one registration per verb (its handler, its subject, its refusal),
ids that are not ours refused, and every click answered through `ClickRouter.click`."""

from __future__ import annotations

import ast
import logging
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.render import ids
from bot.router import NOT_OURS, SORRY, ClickRouter, Subject, VerbTaken
from bot.tables import StaleAction, TableError

ROOT = Path(__file__).resolve().parents[2]


async def _one(interaction, parsed) -> None:
    pass


async def _two(interaction, parsed) -> None:
    pass


class _Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, ephemeral: bool = False) -> None:
        self.sent.append((text, ephemeral))


class _Interaction:
    """What the router touches of a discord.py interaction."""

    def __init__(self) -> None:
        self.user = SimpleNamespace(id=42)
        self.response = _Response()
        self.followups: list[tuple[str, bool]] = []
        self.followup = SimpleNamespace(send=self._follow)

    async def _follow(self, text: str, ephemeral: bool = False) -> None:
        self.followups.append((text, ephemeral))


def test_a_verb_has_one_registration_and_resolves_to_it():
    router = ClickRouter()
    router.register("act", _one, Subject.TABLE)
    with pytest.raises(VerbTaken):
        router.register("act", _two, Subject.TABLE)
    with pytest.raises(VerbTaken):
        router.register_all(Subject.CHALLENGE, {"chyes": _two, "act": _two})
    assert set(router.verbs) == {"act"}, "a refused batch registers nothing"
    verb, parsed = router.resolve("tt:act:12:0:3:play:QH")
    assert verb.handler is _one and verb.subject is Subject.TABLE
    assert parsed == ids.ParsedId("act", 12, ("0", "3", "play", "QH"))
    router.unregister("act")
    router.register("act", _two, Subject.TABLE)
    assert router.resolve("tt:act:1")[0].handler is _two


@pytest.mark.parametrize("custom_id", ["", "tt:", "tt:act", "tt:zap:1", "poker:1:2",
                                       "tt:act:x", "tt:act:9223372036854775808"])
def test_ids_that_are_not_ours_are_refused(custom_id):
    router = ClickRouter()
    router.register("act", _one, Subject.TABLE)
    with pytest.raises(ids.BadCustomId):
        router.resolve(custom_id)


async def test_a_click_that_is_not_ours_is_answered_privately():
    router = ClickRouter()
    router.register("act", _one, Subject.TABLE)
    interaction = _Interaction()
    await router.click(interaction, "tt:zap:1")
    assert interaction.response.sent == [(NOT_OURS, True)]


async def test_each_verb_answers_its_refusals_its_own_way():
    """A refusal raised by a handler is answered by its verb's refusal: the reason alone
    for a challenge's button, the table's own answer for a table's (which gets the
    refusal itself, and the id read as a table's)."""
    router = ClickRouter()
    seen: list[tuple[int, TableError]] = []

    async def refuse_at_table(interaction, parsed, error) -> None:
        seen.append((parsed.subject, error))
        await interaction.response.send_message("the table's answer", ephemeral=True)

    async def refuses(interaction, parsed) -> None:
        raise StaleAction("That button is from an earlier trick.")

    async def declines(interaction, parsed) -> None:
        raise TableError("This challenge is for Bob: only they may answer it.")

    router.register("act", refuses, Subject.TABLE, refuse_at_table)
    router.register("chyes", declines, Subject.CHALLENGE)
    at_table, challenge = _Interaction(), _Interaction()
    await router.click(at_table, "tt:act:7:0:1:play:QH")
    await router.click(challenge, "tt:chyes:7")
    assert [(subject, str(error)) for subject, error in seen] == [
        (7, "That button is from an earlier trick.")]
    assert isinstance(seen[0][1], StaleAction)
    assert at_table.response.sent == [("the table's answer", True)]
    assert challenge.response.sent == [
        ("This challenge is for Bob: only they may answer it.", True)]


async def test_a_refusal_after_a_deferred_answer_is_a_private_followup():
    router = ClickRouter()

    async def defers_then_refuses(interaction, parsed) -> None:
        await interaction.response.send_message("thinking", ephemeral=True)
        raise TableError("This team match has already started.")

    router.register("tmstart", defers_then_refuses, Subject.TEAM_MATCH)
    interaction = _Interaction()
    await router.click(interaction, "tt:tmstart:3")
    assert interaction.followups == [("This team match has already started.", True)]


async def test_an_unexpected_error_is_logged_under_the_buttons_subject(caplog):
    router = ClickRouter()

    async def breaks(interaction, parsed) -> None:
        raise RuntimeError("boom")

    router.register("chplay", breaks, Subject.CHALLENGE)
    router.register("tmjoin", breaks, Subject.TEAM_MATCH)
    first, second = _Interaction(), _Interaction()
    with caplog.at_level(logging.ERROR, logger="bot.router"):
        await router.click(first, "tt:chplay:5")
        await router.click(second, "tt:tmjoin:6:A")
    assert first.response.sent == second.response.sent == [(SORRY, True)]
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("challenge 5: unexpected error handling 'tt:chplay:5'")
    assert lines[1].startswith("team match 6: unexpected error")


def _answers_a_refusal(handler: ast.ExceptHandler) -> bool:
    """An `except TableError` (or a subclass) that does not raise again."""
    names = [n.id for n in ast.walk(handler.type) if isinstance(n, ast.Name)] \
        if handler.type is not None else []
    catches = any(name in ("TableError", "StaleAction") for name in names)
    raises = any(isinstance(n, ast.Raise) for n in ast.walk(handler))
    return catches and not raises


def test_no_cog_answers_a_refusal_itself():
    """Refusals are raised and answered in one place (the router for clicks, the command
    tree for commands), not caught and answered cog by cog."""
    found = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                  if isinstance(node, ast.ExceptHandler) and _answers_a_refusal(node)]
    assert found == []


async def test_a_command_refuses_by_raising_and_the_tree_answers_privately(tmp_path, caplog):
    """A slash command's refusal takes the same way out as a click's: raised, answered
    with its own text, privately, and not logged as a failure."""
    from discord import app_commands

    from tests.e2e.harness import make_bot

    tree = make_bot(tmp_path / "t.db", guild_id=1).tree
    command = SimpleNamespace(name="play", qualified_name="play")
    interaction = _Interaction()
    interaction.command = command
    error = app_commands.CommandInvokeError(command,  # type: ignore[arg-type]
                                            TableError("A table is already open here."))
    with caplog.at_level(logging.ERROR):
        await tree.on_error(interaction, error)  # type: ignore[arg-type]
    assert interaction.response.sent == [("A table is already open here.", True)]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    broken = _Interaction()
    broken.command = command
    await tree.on_error(broken, app_commands.CommandInvokeError(  # type: ignore[arg-type]
        command, RuntimeError("boom")))  # type: ignore[arg-type]
    assert broken.response.sent == [(SORRY, True)]
