"""The layout follows the pipeline (docs/architecture.md): no import cycles
between files, packages import only the stages they build on, no class
grows past a readable size, and no game is named in the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["dsl", "validator", "compiler", "interpreter", "agents", "rulebook"]
# what each package may import of the project (besides itself)
ALLOWED = {
    "dsl": set(),
    "validator": {"dsl"},
    "interpreter": {"validator"},  # the runtime names values by the checker's types
    "compiler": {"dsl", "validator", "interpreter"},  # it writes code against the runtime and loads it
    "agents": {"interpreter", "validator"},
    "rulebook": set(PACKAGES),
}
ENGINE = ["dsl", "validator", "compiler", "interpreter", "agents"]
GAME_WORDS = re.compile(
    r"shark|robot|limb|svintus|kraken|mermaid|cannon|villain|pirate|ghost|alien|seagull|lifeboat|whale|serpent"
    r"|volcano|dolphin|whirlpool|get.?bit|dead.?man|atlantis|hunger|trophy|rowing|navigation", re.I)


def modules():
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).glob("*.py")):
            yield pkg, (pkg if f.stem == "__init__" else f"{pkg}.{f.stem}"), f


def imports_of(path: Path):
    """Every project module a file imports, at its top or inside a function."""
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.split(".")[0] in PACKAGES:
                yield name


def graph() -> nx.DiGraph:
    g = nx.DiGraph()
    known = {mod for _, mod, _ in modules()}
    for _, mod, path in modules():
        g.add_node(mod)
        for name in imports_of(path):
            target = name if name in known else None
            if target and target != mod:
                g.add_edge(mod, target)
    return g


def test_no_file_imports_itself_through_others():
    cycles = list(nx.simple_cycles(graph()))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_each_stage_imports_only_the_stages_it_builds_on():
    wrong = []
    for a, b in graph().edges:
        pa, pb = a.split(".")[0], b.split(".")[0]
        if pa != pb and pb not in ALLOWED[pa]:
            wrong.append(f"{a} imports {b}")
    assert not wrong, wrong


@pytest.mark.parametrize("pkg", ENGINE)
def test_no_class_of_the_engine_is_over_about_400_lines(pkg):
    for path in (ROOT / pkg).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                size = node.end_lineno - node.lineno + 1
                assert size <= 410, f"{path.name}: class {node.name} is {size} lines"


@pytest.mark.parametrize("pkg", ["dsl", "validator", "compiler", "interpreter", "agents"])
def test_the_engine_names_no_game(pkg):
    for path in list((ROOT / pkg).glob("*.py")) + list((ROOT / pkg).glob("*.lark")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not GAME_WORDS.search(line), f"{path.name}:{n}: {line.strip()}"
