"""Imports point one way (DESIGN.md): each layer may import only the layers below it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)

# layer -> the first-party layers and third-party packages it may import
ALLOWED: dict[str, tuple[set[str], set[str]]] = {
    "bot.games": ({"bot.games"}, set()),
    "bot.ai": ({"bot.games", "bot.ai"}, {"endplay"}),
    "bot.store": ({"bot.store"}, {"aiosqlite", "asyncpg"}),
    "bot.tables": ({"bot.games", "bot.ai", "bot.store", "bot.tables"}, set()),
    "bot.render": ({"bot.games", "bot.render"}, {"discord", "PIL"}),
    "bot.handrecord": ({"bot.games", "bot.ai", "bot.store", "bot.handrecord"}, {"endplay"}),
    "bot.ratings": ({"bot.games", "bot.store", "bot.ratings"}, {"openskill"}),
    "bot.club": ({"bot.games", "bot.ai", "bot.store", "bot.tables", "bot.handrecord",
                  "bot.club"}, set()),
}


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.add(node.module)
    return names


def _layer_of(name: str) -> str | None:
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if name == layer or name.startswith(layer + "."):
            return layer
    return None


def test_every_layer_imports_only_what_it_may():
    problems = []
    for layer, (first_party, third_party) in ALLOWED.items():
        for path in _modules(layer):
            for name in _imports(path):
                top = name.split(".")[0]
                if top in STDLIB or top == "__future__":
                    continue
                if top == "bot" or top == "cogs":
                    target = _layer_of(name)
                    if target not in first_party:
                        problems.append(f"{path.relative_to(ROOT)} imports {name}")
                elif top not in third_party:
                    problems.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not problems, "\n".join(problems)


def test_the_rules_engines_use_nothing_but_the_standard_library():
    for path in _modules("bot.games"):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top in STDLIB or top == "__future__" or name.startswith("bot.games"), (
                f"{path.name} imports {name}")
            assert top != "asyncio", f"{path.name} imports asyncio"


DRIVERS = {"sqlite3", "aiosqlite", "asyncpg"}


def test_database_drivers_are_imported_only_by_the_store():
    """SQL and driver types stay in bot/store: every other module (the bot, its cogs, the
    benchmarks) calls the Store's methods."""
    problems = []
    for folder in ("bot", "cogs", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(ROOT / "bot" / "store"):
                continue
            for name in _imports(path):
                if name.split(".")[0] in DRIVERS:
                    problems.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not problems, "\n".join(problems)
