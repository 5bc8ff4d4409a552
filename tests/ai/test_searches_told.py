"""Which games search through which shared module of bot/ai/core is said where a maintainer
reads it (docs/architecture.md, the first sentence of bot/ai/core/sampling.py), and what
is said is what the players' code imports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.ai.core import sampling
from bot.games import GAMES, game_class

ROOT = Path(__file__).resolve().parents[2]
AI = ROOT / "bot" / "ai"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _imported(path: Path) -> set[str]:
    """The dotted names a module imports (for `from a import b`, both a and a.b)."""
    package = path.relative_to(ROOT).parent.parts  # what `from . import` starts from
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join((*base, *(node.module or "").split("."))).strip(".")
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def users_of(module: str) -> set[str]:
    """The game packages of bot/ai whose code imports `module`."""
    return {path.relative_to(AI).parts[0]
            for path in AI.glob("*/**/*.py")
            if path.relative_to(AI).parts[0] != "core" and module in _imported(path)}


def test_the_import_reading_finds_relative_and_absolute_imports() -> None:
    assert users_of("bot.ai.core.budget") >= {"bridge", "spades", "tennis", "bidfair"}
    assert "bridge" in users_of("bot.games.bridge_auction")


@pytest.mark.parametrize(("module", "path"), [
    ("bot.ai.core.sampling", "bot/ai/core/sampling.py"),
    ("bot.ai.core.card_search", "bot/ai/core/card_search.py"),
])
def test_architecture_names_the_games_that_use_each_shared_search(module: str,
                                                                  path: str) -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    bullets = re.findall(r"^- .*?(?=^- |^\n|\Z)", text, flags=re.MULTILINE | re.DOTALL)
    told = [bullet for bullet in bullets if f"(`{path}`)" in bullet]
    assert len(told) == 1, f"docs/architecture.md should tell (`{path}`) in one bullet"
    named = set(re.findall(r"`bot/ai/(\w+)`", told[0])) - {"core"}
    assert users_of(module), module
    assert named == users_of(module)


def test_the_sampling_evaluator_names_the_games_that_use_it_first() -> None:
    assert sampling.__doc__ is not None
    first = " ".join(sampling.__doc__.split("\n\n")[0].split())
    titles = {name: game_class(name).TITLE for name in GAMES}
    named = {name for name, title in titles.items() if title in first}
    assert named == users_of("bot.ai.core.sampling")
