"""The module the compiler writes reads as code a person wrote (issue 38,
item 6): every runtime name imported by name from a module that declares
it, no star import, no line after one that leaves its block, no
``player = None`` that nothing reads, a framed unit's locals named after
the rule's names. Checked on every ruleset and example."""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path
from rulebook.compiler.code import RUNTIME

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p for folder in ("rulesets", "examples") for p in (ROOT / folder).glob("*/ruleset.yaml"))
ENDS = (ast.Continue, ast.Break, ast.Return, ast.Raise)


@pytest.fixture(scope="module", params=RULESETS, ids=lambda p: p.parent.name)
def module(request):
    compiled = compile_path(request.param)
    assert compiled.program is not None, compiled.report
    source = compiled.program.source
    return source, ast.parse(source)


def test_the_runtime_modules_declare_what_compiled_code_imports():
    for name, names in RUNTIME:
        runtime = importlib.import_module(name)
        missing = [n for n in names if not hasattr(runtime, n)]
        assert not missing, (name, missing)
    lib = importlib.import_module("rulebook.interpreter.lib")
    assert len(set(lib.__all__)) == len(lib.__all__)
    assert all(hasattr(lib, n) for n in lib.__all__)


def test_every_import_is_by_name_from_the_runtime_and_used(module):
    source, tree = module
    declared = {name: set(names) for name, names in RUNTIME}
    declared["rulebook.interpreter.lib"] = set(importlib.import_module("rulebook.interpreter.lib").__all__)
    imported = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            assert "*" not in names, ast.get_source_segment(source, node)
            assert node.module in declared, node.module
            assert set(names) <= declared[node.module], set(names) - declared[node.module]
            imported.update(names)
        elif isinstance(node, ast.Import):
            assert [a.name for a in node.names] == ["itertools"]
            imported.add("itertools")
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    assert imported <= loaded, f"imported and never read: {imported - loaded}"


def test_every_name_read_is_defined_imported_or_bound(module):
    _source, tree = module
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update(a.asname or a.name for a in node.names)
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    assert loaded <= bound, f"read and never bound: {loaded - bound}"


def test_no_statement_follows_one_that_leaves_its_block(module):
    source, tree = module
    dead = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                for before, after in zip(stmts, stmts[1:]):
                    if isinstance(before, ENDS):
                        dead.append(f"{after.lineno}: {ast.get_source_segment(source, after)}")
    assert not dead, dead[:5]


def test_no_function_sets_player_without_reading_it(module):
    _source, tree = module
    unread = []
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        names = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == "player"]
        if any(isinstance(n.ctx, ast.Store) for n in names) and not any(isinstance(n.ctx, ast.Load) for n in names):
            unread.append(fn.name)
    assert not unread, unread


def test_a_framed_units_locals_carry_the_rules_names(module):
    source, _tree = module
    numbered = re.findall(r"\bl_\d+\b", source)
    named = re.findall(r"\bl_\d+_[A-Za-z]\w*", source)
    assert named or not numbered
    # a bare l_N only where the rule's name cannot stand in code (or ends in a digit)
    for line in source.splitlines():
        head = re.match(r"\s+# L: (.*)", line)
        if head:
            for slot, name in re.findall(r"(\d+) (\w+)", head.group(1)):
                if name != "temp" and not name[-1].isdigit():
                    assert not re.search(rf"\bl_{slot}\b", source.split(line, 1)[1].split("\ndef ", 1)[0]), \
                        (slot, name)
