"""Every construct of the language reference compiles in every context that
allows it, and the compiled code calls only what its module defines.

The compiler writes helpers beside the code that needs them (a function's
companion that tests its list for items, compiler/emptiness.py; functions
split off deep expressions; constants). A helper written for one context and
not another is a NameError when the code runs, found by a user (issue 37,
item 9: ``count(f(...)) == 0`` in a scenario). So each expression of
docs/language.md's examples that names only the ruleset's names is compiled
in the host ruleset of the reference:

- in a rule (a hook's statements), and narrated there (``say "{...}"``);
- as a ruleset function's value, called with a value computed at the call
  (so it stays a call) and with a constant (so it is written in place), and,
  for a list, tested for items (``count(f(...)) == 0``);
- as a scenario's expectation and in a scenario's ``run:`` block, with the
  same calls and narration.

Each rule example's statements are compiled as a ``run:`` block too. The
modules' names are then checked: every global name a function reads is
defined in the module's namespace (a missing helper is found here, without
running the code), and each expectation is evaluated once.
"""

from __future__ import annotations

import builtins
import symtable
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest
import yaml
from rulebook.compiler.build import compile_text
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game
from rulebook.interpreter.run import PYTHON_ERRORS
from rulebook.validator.check_calls import BUILTINS
from rulebook.validator.loader import load_text

from rulebook.testing.scenarios import snippets_of
from tests.data_driven.test_docs import host_with, of_kind, parse_rule_example

ROOT = Path(__file__).resolve().parents[2]

# Builtins whose examples need another host (a board) or draw at random (a rule's expectation
# must give one answer): each has its heading and examples in docs/language.md, run by tests/data_driven/test_docs.py.
ELSEWHERE = {"distance", "lines", "neighbours", "space_at", "within", "roll"}
# Constructs of the reference the examples use only with their own names, written with the host's.
MORE = ["zone(top(deck)) == deck", "first(filter(players, p => p.coins > 0)) == 0",
        # lists of each shape a test for items takes apart (compiler/emptiness.py), as a function's value too
        "filter(deck, c => c.value > 3)", "map(players, p => p.coins)",
        "hand[player] + filter(table, c => c.value > 0)",
        "filter(deck, c => c.value > 4) + [top(deck)]", "deck if total > 0 else filter(table, c => c.value > 1)",
        "[top(deck), bottom(deck)]", "sort(map(deck, c => c.value))", "filter(deck, c => worth(c) > 30)"]


def unbound(source: str, namespace: dict) -> list[str]:
    """The global names the functions of ``source`` read that ``namespace`` does not define."""
    out = []

    def visit(table) -> None:
        for sym in table.get_symbols():
            name = sym.get_name()
            if table.get_type() != "module" and sym.is_global() and sym.is_referenced() \
                    and name not in namespace and not hasattr(builtins, name):
                out.append(f"{table.get_name()}: {name}")
        for child in table.get_children():
            visit(child)

    visit(symtable.symtable(source, "<module>", "exec"))
    return out


def doc_of(text: str):
    doc, diags = load_text(yaml.safe_dump({"x": text}), "<context>")
    assert not diags
    return doc


@lru_cache(maxsize=1)
def expressions() -> list[tuple[str, object]]:
    """(expression, type): those of the reference's examples a scenario may
    write (only the ruleset's names), each once, and ``MORE``."""
    program = compile_text(host_with("pass\n"), "host.yaml").program
    found = list(MORE)
    for block in of_kind("rule", "example"):
        ex = parse_rule_example(block.text)
        if not (ex.error and ex.error.startswith(("E", "W"))):
            found += ex.checks + ex.final
    out = []
    for text in dict.fromkeys(found):
        probe, _ = snippets_of(program).expr(doc_of(text), ("x",))
        if probe is not None:
            out.append((text, probe.type))
    return out


def narrated(text: str) -> str | None:
    """``say`` of the expression's value, in quotes it does not hold."""
    for q in ('"', "'"):
        if q not in text:
            return f"say {q}{{{text}}}{q}"
    return None


def uses(k: int, text: str, kind) -> list[str]:
    """Calls of the function ``ctx_k`` (whose value is ``text``): computed
    argument, constant argument, and a test of its list for items."""
    out = [f"ctx_{k}(count(deck))", f"ctx_{k}(1)"]
    if kind.kind == "list":
        out += [f"count(ctx_{k}(count(deck))) == 0", f"count(ctx_{k}(count(deck) + 1)) > 0",
                f"count(ctx_{k}(1)) == 0"]
    return out


def statements(k: int, text: str, kind) -> list[str]:
    """Rule text using the expression in place, in a function, and narrated."""
    out = [f"let e_{k} = {text}"] + [f"let u_{k}_{j} = {u}" for j, u in enumerate(uses(k, text, kind))]
    say = narrated(text)
    return out + ([say] if say else [])


@lru_cache(maxsize=1)
def host():
    """The host ruleset with each expression as a function, and a rule that uses them all: its program."""
    exprs = expressions()
    functions = "".join(f"  ctx_{k}:\n    params: {{k: int}}\n    value: {yaml.safe_dump(text, width=10**6).strip()}\n"
                        .replace("...\n", "") for k, (text, _) in enumerate(exprs))
    procedures = "".join(f"  use_{k}:\n    effect: |\n" + textwrap.indent("\n".join(statements(k, text, kind)), " " * 6)
                         + "\n" for k, (text, kind) in enumerate(exprs))
    procedures += "  use_all:\n    effect: |\n" + "".join(f"      use_{k}()\n" for k in range(len(exprs)))
    # a scenario may create only what the ruleset's rules create (E070): these rules do
    procedures += "  make_more:\n    effect: |\n      create card in table with (suit='green', value=7)\n" \
                  "      create pawn in bag\n"
    # the rules are compiled, not run: the game's first turn is the examples' own state (rule errors there)
    text = host_with("pass\n").replace("\nfunctions:\n", "\nfunctions:\n" + functions, 1)
    text = text.replace("\nprocedures:\n", "\nprocedures:\n" + procedures, 1)
    compiled = compile_text(text, "host.yaml")
    assert compiled.program is not None, "\n".join(d.render(text) for d in compiled.report.errors)
    return compiled.program


def test_the_reference_gives_expressions_of_every_builtin():
    names = {n for n in BUILTINS if any(f"{n}(" in text for text, _ in expressions())}
    assert set(BUILTINS) - names <= ELSEWHERE, sorted(set(BUILTINS) - names - ELSEWHERE)
    assert len(expressions()) >= 150


def test_in_rules_and_functions_the_module_defines_all_it_calls():
    program = host()
    assert "def proc_use_all(" in program.source
    assert unbound(program.source, program.module) == []
    assert "_nonempty" in program.source  # the tests of a function's list for items are there


@pytest.mark.parametrize("k", range(len(expressions())), ids=lambda k: expressions()[k][0][:60])
def test_in_scenarios_the_snippet_defines_all_it_calls(k):
    program = host()
    text, kind = expressions()[k]
    snippets = snippets_of(program)
    before = set(snippets.sources)
    st = Game(program).new(players=3, seed=0)
    for expr in [text, *uses(k, text, kind)]:
        probe, diags = snippets.expr(doc_of(expr), ("x",))
        assert probe is not None, [d.render() for d in diags]
        try:
            probe.value(st)
        except (RulebookError, *PYTHON_ERRORS):
            pass  # a rule's own error (the examples' state is not this one; the runner says so): the code ran
    block = "\n".join(statements(k, text, kind))
    uid, diags = snippets.block(doc_of(block), ("x",))
    assert uid is not None, [d.render() for d in diags]
    for name in set(snippets.sources) - before:
        ns = dict(program.module)
        exec(compile(snippets.sources[name], name, "exec"), ns)  # noqa: S102 - the compiler's own output
        assert unbound(snippets.sources[name], ns) == [], snippets.sources[name]


def rule_examples() -> list:
    """The rule examples of the reference that run (no error expected) and ask nothing."""
    out = []
    for block in of_kind("rule", "example"):
        ex = parse_rule_example(block.text)
        if not ex.error and not ex.decisions:
            out.append(pytest.param(ex.code, id=block.id))
    return out


@pytest.mark.parametrize("code", rule_examples())
def test_each_rule_example_compiles_as_a_run_block(code):
    program = host()
    snippets = snippets_of(program)
    before = set(snippets.sources)
    uid, diags = snippets.block(doc_of(textwrap.dedent(code)), ("x",))
    assert uid is not None, [d.render() for d in diags]
    for name in set(snippets.sources) - before:
        ns = dict(program.module)
        exec(compile(snippets.sources[name], name, "exec"), ns)  # noqa: S102 - the compiler's own output
        assert unbound(snippets.sources[name], ns) == []


SCENARIO = """\
name: a function's list tested for items in a scenario
players: 2
steps:
  - expect: ["count(kept(count(heap))) == 0", "count(kept(count(heap) + 1)) < 1"]
  - run: |
      if count(kept(count(heap))) == 0:
          say "none kept"
  - says: ["none kept"]
expect: "not (count(kept(count(heap))) > 0)"
"""


def test_a_scenario_tests_a_functions_list_for_items(tmp_path):
    """The newcomer's case: ``count(f(...)) == 0`` in ``expect:`` and ``run:`` (NameError: fn_..._nonempty)."""
    from rulebook.testing.scenarios import run_file

    nim = (ROOT / "examples" / "nim" / "ruleset.yaml").read_text(encoding="utf-8")
    function = "functions:\n  kept:\n    params: {n: int}\n    value: \"filter(heap, s => n > 100)\"\n"
    (tmp_path / "ruleset.yaml").write_text(nim.replace("components:\n", function + "components:\n", 1))
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "kept.yaml").write_text(SCENARIO)
    outcome = run_file(tmp_path / "scenarios" / "kept.yaml")
    assert outcome.passed, [d.render() for d in outcome.failures]
