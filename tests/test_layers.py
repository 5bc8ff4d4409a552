"""Imports point one way: every module of bot/ and cogs/ imports only what its layer may,
as the table of docs/layers.md states it, and no module reaches itself again through
run-time imports."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS_PAGE = ROOT / "docs" / "layers.md"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
HEADER = ("Layer", "Modules", "May import", "Third-party")


@dataclass(frozen=True)
class Layer:
    name: str
    patterns: tuple[str, ...]  # "bot.games.*": the package and its modules; else one module
    may_import: frozenset[str]  # other layers, by name
    third_party: frozenset[str]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _names(cell: str) -> tuple[str, ...]:
    return tuple(name.strip().strip("`") for name in cell.split(",")
                 if name.strip() not in ("", "—", "-"))


def read_layers(text: str) -> dict[str, Layer]:
    """The table of docs/layers.md: the rows under the header (Layer | Modules | May import
    | Third-party), up to the first line that is not a row."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("|") and tuple(_cells(line)) == HEADER)
    layers: dict[str, Layer] = {}
    for line in lines[start + 2:]:  # after the header and its --- line
        if not line.startswith("|"):
            break
        name, modules, may_import, third_party = _cells(line)
        layers[name] = Layer(name, _names(modules), frozenset(_names(may_import)),
                             frozenset(_names(third_party)))
    return layers


LAYERS = read_layers(LAYERS_PAGE.read_text(encoding="utf-8"))


def _module_files() -> dict[str, Path]:
    """Every module of bot/ and cogs/ by its dotted name (a package by its own name)."""
    modules = {}
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _module_files()


def layer_of(module: str) -> Layer | None:
    """The row naming the module; of several, the one with the longest name for it."""
    best: tuple[int, Layer] | None = None
    for layer in LAYERS.values():
        for pattern in layer.patterns:
            package = pattern.removesuffix(".*")
            covers = (module == package or module.startswith(package + ".")
                      if pattern.endswith(".*") else module == pattern)
            if covers and (best is None or len(package) > best[0]):
                best = (len(package), layer)
    return best[1] if best else None


@dataclass(frozen=True)
class Import:
    target: str  # a module of bot/ or cogs/, or a third-party or stdlib name as written
    line: int
    type_only: bool  # under `if TYPE_CHECKING:`


def _resolve(name: str) -> str:
    """The module of bot/ or cogs/ that `name` (a module, or a name in one) is or is in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
                 and "TYPE_CHECKING" in ast.unparse(branch.test)
                 for statement in branch.body for node in ast.walk(statement)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            # `from package import module` imports that module
            names = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES
                     else source for alias in node.names]
        for name in names:
            first_party = name.split(".")[0] in ("bot", "cogs")
            found.append(Import(_resolve(name) if first_party else name, node.lineno,
                                id(node) in type_only))
    return found


def test_the_layer_table_is_well_formed() -> None:
    assert len(LAYERS) >= 10, "docs/layers.md: the table was not found"
    for layer in LAYERS.values():
        assert layer.patterns, f"layer {layer.name} names no module"
        unknown = layer.may_import - set(LAYERS)
        assert not unknown, f"layer {layer.name} may import unknown layers {sorted(unknown)}"
    assert not LAYERS["games"].may_import and not LAYERS["games"].third_party


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports_only_what_its_layer_may(module: str) -> None:
    layer = layer_of(module)
    assert layer is not None, f"{module}: in no layer of docs/layers.md"
    where = MODULES[module].relative_to(ROOT)
    problems = []
    for imported in imports_of(module):
        top = imported.target.split(".")[0]
        if top in ("bot", "cogs"):
            target = layer_of(imported.target)
            allowed = target is not None and (target is layer
                                              or target.name in layer.may_import)
            problem = not allowed
        else:
            problem = top not in STDLIB and top not in layer.third_party
        if problem:
            problems.append(f"{where}:{imported.line} ({layer.name}) imports "
                            f"{imported.target}")
    assert not problems, "\n".join(problems)


def _run_time_graph() -> dict[str, set[str]]:
    return {module: {i.target for i in imports_of(module)
                     if not i.type_only and i.target in MODULES and i.target != module}
            for module in MODULES}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_import_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(graph) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_run_time_import_circle_in_bot_or_cogs() -> None:
    """A module may import another that imports it back only for types (TYPE_CHECKING);
    an import inside a function counts (it runs)."""
    circles = import_circles(_run_time_graph())
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_rules_engines_use_nothing_but_the_standard_library() -> None:
    for module in MODULES:
        if layer_of(module) is LAYERS["games"]:
            for imported in imports_of(module):
                assert imported.target.split(".")[0] != "asyncio", (
                    f"{module} imports asyncio")


DRIVERS = {"sqlite3", "aiosqlite", "asyncpg"}


def test_database_drivers_are_imported_only_by_the_store() -> None:
    """SQL and driver types stay in bot/store: every other module (the bot, its cogs, the
    benchmarks) calls the Store's methods."""
    problems = []
    for folder in ("bot", "cogs", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(ROOT / "bot" / "store"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom)
                         and not node.level else [])
                problems += [f"{path.relative_to(ROOT)} imports {name}" for name in names
                             if name.split(".")[0] in DRIVERS]
    assert not problems, "\n".join(problems)


def classes_by_name(folders: tuple[str, ...] = ("bot", "cogs", "bench")) -> dict[str, list[str]]:
    """Every class defined in these folders, by name: the files defining one of that name."""
    found: dict[str, list[str]] = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, []).append(path.relative_to(ROOT).as_posix())
    return found


def test_the_table_models_names_are_given_to_no_other_class() -> None:
    """The classes of bot/tables/model.py (`Table`, `Person`, `SeatInfo`, ...) are the
    words the whole bot uses for a table and who sits at it: no other class in bot/, cogs/
    or bench/ takes one of their names (a spades player's view of a trick, or a
    benchmark's solved deal, called `Table`, reads as the table)."""
    classes = classes_by_name()
    model = "bot/tables/model.py"
    own = sorted(name for name, files in classes.items() if model in files)
    assert {"Table", "Person", "SeatInfo", "TableSettings"} <= set(own)
    shared = {name: [f for f in classes[name] if f != model] for name in own
              if classes[name] != [model]}
    assert shared == {}
