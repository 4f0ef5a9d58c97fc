"""The layout follows the pipeline (docs/architecture.md): no import cycles
between files, packages import only the stages they build on, no class
grows past a readable size, and no game is named in the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each package of the one installed package `rulebook`, and the folder it is in:
# the pipeline's stages are the repository's top-level folders, the layers on
# top are sub-packages of rulebook/ named for their jobs.
STAGES = ["dsl", "validator", "compiler", "interpreter", "agents"]
LAYERS = ["files", "display", "testing", "simulate", "terminal", "web", "integrations", "lsp", "cli"]
FOLDERS = {f"rulebook.{s}": ROOT / s for s in STAGES} | {f"rulebook.{j}": ROOT / "rulebook" / j for j in LAYERS}
FOLDERS["rulebook"] = ROOT / "rulebook"
ENGINE = {f"rulebook.{s}" for s in ["dsl", "validator", "compiler", "interpreter"]}
# what each package may import of the project (besides itself); docs/architecture.md shows this table
ALLOWED = {
    "rulebook.dsl": set(),
    "rulebook.validator": {"rulebook.dsl"},
    "rulebook.interpreter": {"rulebook.validator"},  # the runtime names values by the checker's types
    "rulebook.compiler": {"rulebook.dsl", "rulebook.validator", "rulebook.interpreter"},  # code against the runtime
    "rulebook.agents": {"rulebook.interpreter", "rulebook.validator"},
    "rulebook.files": ENGINE | {"rulebook.agents"},  # a save names its bots
    "rulebook.display": ENGINE | {"rulebook.agents"},  # live scores over determinized hidden cards
    "rulebook.simulate": ENGINE | {"rulebook.agents", "rulebook.files"},
    "rulebook.testing": ENGINE | {"rulebook.agents", "rulebook.files", "rulebook.display", "rulebook.simulate"},
    "rulebook.terminal": ENGINE | {"rulebook.agents", "rulebook.files", "rulebook.display", "rulebook.simulate"},
    "rulebook.web": ENGINE | {"rulebook.agents", "rulebook.files", "rulebook.display", "rulebook.simulate",
                              "rulebook.terminal"},
    "rulebook.integrations": ENGINE | {"rulebook.agents", "rulebook.files", "rulebook.display", "rulebook.simulate",
                                       "rulebook.terminal"},  # ansi rendering
    "rulebook.lsp": ENGINE | {"rulebook.testing"},  # scenario files are checked as they are run
    "rulebook.cli": set(FOLDERS),
    "rulebook": ENGINE | {"rulebook.files"},  # rulebook.load
}
GAME_WORDS = re.compile(
    r"shark|robot|limb|svintus|kraken|mermaid|cannon|villain|pirate|ghost|alien|seagull|lifeboat|whale|serpent"
    r"|volcano|dolphin|whirlpool|get.?bit|dead.?man|atlantis|hunger|trophy|rowing|navigation", re.I)


def modules():
    """(package, module, file) for every module of the project."""
    for pkg, folder in FOLDERS.items():
        for f in sorted(folder.glob("*.py")):
            yield pkg, (pkg if f.stem == "__init__" else f"{pkg}.{f.stem}"), f


def package_of(module: str) -> str:
    return max((p for p in FOLDERS if module == p or module.startswith(p + ".")), key=len)


def imports_of(path: Path):
    """Every project module a file imports, at its top or inside a function."""
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{a.name}" for a in node.names]
            # `from pkg import module` reads the module; `from pkg import name` reads pkg's __init__
            modules = [m for m in subs if _file_of(m) is not None]
            names = subs + ([] if modules and len(modules) == len(subs) else [node.module])
        yield from names


def _file_of(module: str) -> Path | None:
    """The file of a project module, or None."""
    pkg = package_of(module) if any(module.startswith(p) for p in FOLDERS) else None
    if pkg is None:
        return None
    rest = module[len(pkg):].lstrip(".").replace(".", "/")
    path = (FOLDERS[pkg] / rest).with_suffix(".py") if rest else FOLDERS[pkg] / "__init__.py"
    return path if path.exists() else None


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


def test_every_module_is_imported_by_its_installed_name():
    """The stages are installed as rulebook.dsl, rulebook.validator, ...: an
    import of a top-level `dsl` or `interpreter` works only in a checkout,
    and would pick up any other distribution's package of that name."""
    wrong = []
    for path in [*ROOT.glob("*/*.py"), *ROOT.glob("rulebook/*/*.py")]:
        for name in imports_of(path):
            if name.split(".")[0] in STAGES:
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not wrong, wrong


def test_the_allowed_imports_table_is_the_one_in_the_docs():
    """docs/architecture.md's table of which package may import which is this test's ALLOWED."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    rows = dict(re.findall(r"^\| `(rulebook[\w.]*)` \| ([^|]*) \|", doc, re.M))
    assert set(rows) == set(ALLOWED), set(rows) ^ set(ALLOWED)
    for pkg, allowed in ALLOWED.items():
        shown = set(re.findall(r"`(rulebook[\w.]*)`", rows[pkg]))
        if "the four stages" in rows[pkg]:
            shown |= ENGINE
        expected = allowed if pkg != "rulebook.cli" else {"rulebook"}
        assert shown == expected or (pkg == "rulebook.cli" and "everything" in rows[pkg]), (pkg, shown ^ expected)


def test_no_file_imports_itself_through_others():
    cycles = list(nx.simple_cycles(graph()))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_each_stage_imports_only_the_stages_it_builds_on():
    wrong = []
    for a, b in graph().edges:
        pa, pb = package_of(a), package_of(b)
        if pa != pb and pb not in ALLOWED[pa]:
            wrong.append(f"{a} imports {b}")
    assert not wrong, wrong


CLASS_CAP = 410


def classes_of_the_engine() -> dict[tuple[Path, str], ast.ClassDef]:
    """Every class of the stage folders, by (file, name)."""
    found = {}
    for stage in STAGES:
        for path in sorted((ROOT / stage).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef):
                    found[(path, node.name)] = node
    return found


def _base_of(path: Path, base: ast.expr, classes: dict) -> tuple[Path, str] | None:
    """Where a base class named in ``path`` is defined, if the project defines it:
    in the same file, or in the project module the file imports the name from."""
    name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else None
    if name is None:
        return None
    if (path, name) in classes:
        return path, name
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and any(a.name == name for a in node.names):
            source = _file_of(node.module)
            if source is not None and (source, name) in classes:
                return source, name
    return None


def class_size(key: tuple[Path, str], classes: dict, seen: set | None = None) -> int:
    """A class's body plus, recursively, the bodies of the project's classes it
    is built on: a tower of mixins sharing one ``self`` is one class to read."""
    seen = set() if seen is None else seen
    seen.add(key)
    node = classes[key]
    size = node.end_lineno - node.lineno + 1
    for base in node.bases:
        found = _base_of(key[0], base, classes)
        if found is not None and found not in seen:
            size += class_size(found, classes, seen)
    return size


def test_a_class_size_counts_its_bases():
    """The measure itself: a mixin tower is as long as all its floors."""
    classes = {}
    path = ROOT / "validator" / "checker.py"
    tree = ast.parse("class A:\n    x = 1\n\n\nclass B(A):\n    y = 2\n    z = 3\n\n\n"
                     "class C(B, A, object):\n    pass\n")
    for node in tree.body:
        classes[(path, node.name)] = node
    assert class_size((path, "A"), classes) == 2
    assert class_size((path, "B"), classes) == 3 + 2
    assert class_size((path, "C"), classes) == 2 + 3 + 2  # A is counted once


@pytest.mark.parametrize("pkg", STAGES)
def test_no_class_of_the_engine_is_over_about_400_lines(pkg):
    classes = classes_of_the_engine()
    over = []
    for (path, name) in classes:
        if path.parent.name != pkg:
            continue
        size = class_size((path, name), classes)
        shown = f"{path.name}: class {name} is {size} lines with its bases"
        if size > CLASS_CAP:
            over.append(shown)
    assert not over, over


@pytest.mark.parametrize("pkg", ["dsl", "validator", "compiler", "interpreter", "agents"])
def test_the_engine_names_no_game(pkg):
    # the Python files, the grammar and the schemas (their examples too)
    for path in [p for ext in ("py", "lark", "json") for p in (ROOT / pkg).glob(f"*.{ext}")]:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not GAME_WORDS.search(line), f"{path.name}:{n}: {line.strip()}"
