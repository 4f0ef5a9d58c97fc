"""Every limit, every escape attempt and every damaged file, with its code
(issue 8; docs/security.md lists them).

A hostile ruleset, saved game or scenario file gets a diagnostic (``E0xx``)
or a typed error (``R0xx``/``R1xx``), never a Python exception, a hang or
a Python object's repr; the command line turns each into one line and an
exit code. What the engine gets wrong is a strict xfail naming the bug:
it documents the bug, and starts failing (XPASS) once the bug is fixed.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path, compile_text, validate_path
from rulebook.dsl.parser import MAX_NESTING, MAX_TEXT, ParseError, parse_block, parse_expression, parse_template
from rulebook.interpreter.errors import RulebookError, RuleError, SaveFileError
from rulebook.interpreter.game import Game
from rulebook.validator.checker import DEFAULT_LIMITS
from rulebook.validator.loader import MAX_BYTES, MAX_DEPTH, MAX_NODES

from rulebook.testing.scenarios import run_file
from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]
HEAD = "rulebook: 1\nid: unit\ntitle: Unit\nplayers: {min: 2, max: 2}\n"
REPR = re.compile(r"object at 0x|<(function|class|module|built-in|bound method|lambda|generator)[ >]")


def ruleset(body: str, head: str = HEAD) -> str:
    return head + textwrap.dedent(body)


def compiled(body: str, head: str = HEAD, limits=None):
    return compile_text(ruleset(body, head), "unit.yaml", (), limits)


def codes_of(result) -> list[str]:
    return [d.code for d in result.report.errors]


def game(body: str, limits=None) -> Game:
    result = compiled(body, limits=limits)
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return Game(result.program)


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line of ``text`` containing ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def no_repr(text: str) -> None:
    assert not REPR.search(text), f"a Python object's repr leaks: {text}"


def on_begin(code: str) -> str:
    return "phases:\n  p:\n    on_begin: |\n" + textwrap.indent(textwrap.dedent(code).strip("\n"), "      ") \
        + "\n      end game\n"


# ============================================================== YAML: E003
def billion_laughs(leaf: str = "1") -> str:
    """Nine levels of ten aliases each: 10**9 values once expanded, about 400 bytes on disk."""
    lines = [f"a: &a [{', '.join([leaf] * 10)}]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_E003():
    text = billion_laughs()
    assert len(text) < 500
    result = compile_text(text, "bomb.yaml")
    assert codes_of(result) == ["E003"]
    (d,) = result.report.errors
    assert str(MAX_NODES) in d.message and "alias" in d.message
    assert result.program is None


def test_alias_bomb_is_E003_from_a_file(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(billion_laughs())
    assert [d.code for d in validate_path(path).errors] == ["E003"]


@pytest.mark.parametrize("text", [
    pytest.param("a: " + "[" * (MAX_DEPTH + 10) + "]" * (MAX_DEPTH + 10) + "\n", id="flow"),
    pytest.param("".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 10)) + "  " * (MAX_DEPTH + 10) + "x: 1\n",
                 id="block"),
    pytest.param("a: " + "{b: " * (MAX_DEPTH + 10) + "1" + "}" * (MAX_DEPTH + 10) + "\n", id="flow-mapping"),
    pytest.param("a: " + "[" * 5_000 + "]" * 5_000 + "\n", id="five-thousand"),
])
def test_document_nested_too_deeply_is_E003(text):
    result = compile_text(text, "deep.yaml")
    assert codes_of(result) == ["E003"]
    assert str(MAX_DEPTH) in result.report.errors[0].message


def test_document_nested_just_within_the_limit_is_not_E003():
    depth = MAX_DEPTH - 2
    result = compile_text("a: " + "[" * depth + "]" * depth + "\n", "deep.yaml")
    assert "E003" not in codes_of(result)


# Found while writing these tests: the C loader's composer recursed once per
# level on the C stack and about 25,000 levels (a 50 KB file) killed the
# process with a segmentation fault; then the first pre-scan missed explicit
# keys and brackets after an apostrophe inside a plain scalar.
DEEP_SHAPES = [
    pytest.param("[" * 40_000 + "]" * 40_000, id="brackets"),
    pytest.param("[{a: " * 20_000 + "1" + "}]" * 20_000, id="brackets-and-braces"),
    pytest.param("- " * 40_000 + "x", id="dashes"),
    pytest.param("? " * 40_000 + "x", id="explicit-keys"),
    pytest.param("[\n" + "x'y, [\n" * 40_000 + "]" * 40_001, id="brackets-after-an-apostrophe"),
]


@pytest.mark.parametrize("shape", DEEP_SHAPES)
def test_document_nested_tens_of_thousands_deep_is_E003_not_a_segfault(shape):
    """In a child process: a crash of the YAML composer must not take the test run with it."""
    code = ("import sys\nfrom compiler.build import compile_text\n"
            "r = compile_text(sys.stdin.read(), 'deep.yaml')\n"
            "print(' '.join(d.code for d in r.report.errors))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=shape + "\n", capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"the process died with {proc.returncode}: {proc.stderr[-300:]}"
    assert proc.stdout.split() == ["E003"]


def test_file_over_the_size_limit_is_E003(tmp_path):
    text = "# " + "x" * MAX_BYTES + "\n"
    result = compile_text(text, "big.yaml")
    assert codes_of(result) == ["E003"] and str(MAX_BYTES) in result.report.errors[0].message
    path = tmp_path / "big.yaml"
    path.write_text(text)
    assert codes_of(compile_path(path)) == ["E003"]
    assert [d.code for d in validate_path(path).errors] == ["E003"]


def test_size_limit_counts_bytes_not_characters():
    text = "# " + "é" * (MAX_BYTES // 2 + 1) + "\n"  # fewer characters than MAX_BYTES, more bytes
    assert len(text) < MAX_BYTES
    assert codes_of(compile_text(text, "big.yaml")) == ["E003"]


@pytest.mark.parametrize("tagged", [
    "a: !!python/object/apply:os.system ['touch {marker}']\n",
    "phases: !!python/object/apply:os.system ['touch {marker}']\n",
    "phases:\n  p:\n    on_begin: !!python/object/new:os.system ['touch {marker}']\n",
    "!!python/object/apply:subprocess.check_call [['touch', '{marker}']]\n",
])
def test_yaml_python_tags_construct_nothing(tmp_path, tagged):
    marker = tmp_path / "pwned"
    text = HEAD + "phases:\n  q:\n    on_begin: end game\n" if tagged.startswith("a:") else HEAD
    text = (text + tagged.format(marker=marker)) if not tagged.startswith("!!") else tagged.format(marker=marker)
    result = compile_text(text, "tags.yaml")
    assert result.program is None and result.report.errors, "a Python tag was accepted"
    assert not marker.exists(), "a YAML tag ran code"
    for d in result.report.diagnostics:
        no_repr(d.render(text))


# ============================================================== rule text: E024
def test_rule_text_nested_too_deeply_is_E024_at_its_place():
    deep = "(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1)
    text = ruleset(on_begin(f"let x = {deep}"))
    result = compile_text(text, "unit.yaml")
    assert codes_of(result) == ["E024"]
    d = result.report.errors[0]
    assert d.line == line_of(text, "let x =") and str(MAX_NESTING) in d.message


def test_rule_text_just_within_the_nesting_limit_compiles():
    ok = "(" * (MAX_NESTING - 1) + "1" + ")" * (MAX_NESTING - 1)
    assert codes_of(compiled(on_begin(f"let x = {ok}"))) == []


def test_rule_text_indented_too_deeply_is_E024():
    nest = "".join("    " * i + "if true:\n" for i in range(MAX_NESTING + 2)) + "    " * (MAX_NESTING + 2) + "pass"
    assert codes_of(compiled(on_begin(nest))) == ["E024"]


def test_operators_nested_too_deeply_are_E024():
    """Not brackets but 1,000 nested operators in 2 KB: the compiler's
    recursion is stopped and reported."""
    for expr in ["not " * 1000 + "true", "-" * 1000 + "1", "1 + " * 1000 + "1", "a" + ".b" * 1000]:
        text = ruleset(f'vars:\n  x: "{expr}"\n' + on_begin("pass"))
        assert codes_of(compile_text(text, "unit.yaml")) == ["E024"], expr[:20]


@pytest.mark.parametrize("expr", ["-" * 600 + "1", "not " * 600 + "true", "x" + ".y" * 600],
                         ids=["minus", "not", "attribute"])
def test_parser_reports_operators_nested_too_deeply_as_E024(expr):
    """Found while fuzzing: about 500 nested operators made the parser's
    transformer recurse past Python's limit (RecursionError, or Lark's
    VisitError) instead of E024."""
    for fn, text in ((parse_expression, expr), (parse_template, "{" + expr + "}"), (parse_block, f"let x = {expr}")):
        with pytest.raises(ParseError) as err:
            fn(text)
        assert err.value.code == "E024", fn.__name__


def test_rule_text_too_long_is_E024():
    long_block = "let x = 1\n" * (MAX_TEXT // 10 + 1)
    result = compiled(on_begin(long_block))
    assert codes_of(result) == ["E024"] and str(MAX_TEXT) in result.report.errors[0].message
    long_expr = "1 + " * (MAX_TEXT // 4) + "1"
    assert codes_of(compiled(f'vars:\n  x: "{long_expr}"\n' + on_begin("pass"))) == ["E024"]


# ============================================================== components: E064 and R107
BILLION = """
components:
  card:
    count: 1000000000
zones:
  deck: {}
phases:
  p:
    on_begin: |
      move components(card) to deck
      end game
"""


def test_a_deck_of_a_billion_cards_is_E064_at_validation(tmp_path):
    result = compiled(BILLION)
    assert codes_of(result) == ["E064"]
    d = result.report.errors[0]
    text = ruleset(BILLION)
    assert d.line == line_of(text, "count: 1000000000")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    assert [d.code for d in validate_path(path).errors] == ["E064"]


def test_a_deck_of_a_billion_cards_forced_at_run_time_is_R107():
    """A parameter chosen when the game starts: the validator's dry run
    uses the default (10); Game.new with a billion stops with R107."""
    g = game("""
    params:
      n: 10
    components:
      card:
        count: n
    zones:
      deck: {}
    phases:
      p:
        on_begin: |
          move components(card) to deck
          end game
    """)
    assert g.new(players=2).over
    with pytest.raises(RuleError) as err:
        g.new(players=2, params={"n": 1_000_000_000})
    assert err.value.code == "R107" and str(DEFAULT_LIMITS["max_components"]) in str(err.value)


def test_a_product_of_for_each_lists_past_the_limit_is_E064():
    result = compiled("""
    components:
      card:
        for_each: {a: "range(1000)", b: "range(1000)"}
    zones:
      deck: {}
    phases:
      p:
        on_begin: |
          move components(card) to deck
          end game
    """)
    assert codes_of(result) == ["E064"]


def test_creating_components_past_the_limit_is_R107():
    g = game("""
    components:
      card:
        count: 1
    zones:
      deck: {}
    phases:
      p:
        on_begin: |
          repeat 100:
              create card in deck
          end game
    """, limits={"max_components": 50})
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R107" and "unit.yaml:" in err.value.where


def test_zones_past_the_limit_are_E064():
    result = compiled("""
    components:
      card:
        count: 200
    zones:
      deck: {}
      slot: {per: card}
    phases:
      p:
        on_begin: |
          move components(card) to deck
          end game
    """, limits={"max_zones": 100})
    assert codes_of(result) == ["E064"]


# ============================================================== run time: R100, R102, R105
def test_a_loop_that_never_ends_is_R100_naming_the_rule_file_and_line():
    body = """
    vars:
      x: 0
    phases:
      spin:
        on_begin: |
          let y = 1
          while true:
              set x += 1
          end game
    """
    text = ruleset(body)
    result = compile_text(text, "unit.yaml")
    with pytest.raises(RuleError) as err:
        Game(result.program).new(players=2)
    e = err.value
    assert e.code == "R100"
    line = line_of(text, "set x += 1")
    assert e.where == f"unit.yaml:{line}:{text.splitlines()[line - 1].index('set') + 1}"
    assert (e.file, e.line, e.column) == ("unit.yaml", line, text.splitlines()[line - 1].index("set") + 1)
    assert e.decision == 0  # failed while the game was made, before its first decision
    assert str(e).startswith(f"unit.yaml:{line}:") and "spin" in str(e)
    assert str(DEFAULT_LIMITS["max_steps"]) in e.message


def test_repeat_a_trillion_times_is_R100():
    g = game("""
    vars:
      x: 0
    phases:
      spin:
        on_begin: |
          repeat 1000000000000:
              set x += 1
          end game
    """)
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R100" and "unit.yaml:" in err.value.where


def test_the_step_limit_is_set_per_compile():
    g = game("""
    vars:
      x: 0
    phases:
      p:
        on_begin: |
          repeat 500:
              set x += 1
          end game
    """, limits={"max_steps": 100})
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R100" and "more than 100 steps" in err.value.message


def test_phases_looping_without_decisions_are_R102():
    g = game("""
    phases:
      a:
        on_begin: |
          if turn_number > 5:
              end game
        next: b
      b:
        next: a
    """)  # an 'end game' that never runs: the validator would refuse the loop (E052) otherwise
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R102" and "unit.yaml:" in err.value.where
    assert str(DEFAULT_LIMITS["max_phase_entries"]) in err.value.message


@pytest.mark.parametrize("procedures", [
    "procedures:\n  again:\n    effect: |\n      again()\n",
    "procedures:\n  ping:\n    effect: |\n      pong()\n  pong:\n    effect: |\n      ping()\n",
], ids=["itself", "each-other"])
def test_procedures_recursing_are_R105(procedures):
    first = procedures.split("\n")[1].strip(" :")
    g = game(procedures + on_begin(f"{first}()"))
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R105" and "unit.yaml:" in err.value.where
    assert str(DEFAULT_LIMITS["max_stack"]) in err.value.message


def test_triggers_recursing_are_R105():
    g = game(textwrap.dedent("""
    events:
      ping: {}
      pong: {}
    triggers:
      echo:
        on: ping
        effect: |
          emit pong
      reply:
        on: pong
        effect: |
          emit ping
    """) + on_begin("emit ping"))
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R105"


def test_a_moved_trigger_that_moves_is_R105_or_R100():
    """The built-in event 'moved' fired by a trigger's own move."""
    g = game(textwrap.dedent("""
    components:
      card:
        count: 2
    zones:
      a: {}
      b: {}
    triggers:
      bounce:
        on: moved
        effect: |
          move event.component to (a if event.to_zone == b else b)
    """) + on_begin("move components(card) to a"))
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code in ("R105", "R100")


# ============================================================== value size and query work: R107, R100
# Each runs under the fuzzers' cap (2 GB more address space, seconds of CPU):
# without the limits under test, these would exhaust the machine.
CAN_CAP = Path("/proc/self/status").exists()
needs_cap = pytest.mark.skipif(not CAN_CAP, reason="needs Linux to cap memory and time; else it exhausts them")

BILLION_FOR_EACH = """
define:
  big: 1000000000
components:
  card:
    for_each: {value: "range(big)"}
zones:
  deck: {}
phases:
  p:
    on_begin: |
      move components(card) to deck
      end game
"""


@needs_cap
def test_a_range_of_a_billion_in_for_each_is_E064_at_validation():
    """Found while fuzzing: range(n) built its n numbers before any limit
    was checked, so loading this raised MemoryError (or ate the machine)."""
    from tests.hostile.test_fuzz import capped
    with capped(seconds=60):
        result = compiled(BILLION_FOR_EACH)
    assert codes_of(result) == ["E064"]
    assert str(DEFAULT_LIMITS["max_value"]) in result.report.errors[0].message


@needs_cap
def test_a_range_of_a_billion_in_rule_text_is_R107():
    from tests.hostile.test_fuzz import capped
    g = game(on_begin("let x = count(range(1000000000))"))
    with pytest.raises(RuleError) as err, capped(seconds=60):
        g.new(players=2)
    assert err.value.code == "R107" and "unit.yaml:" in err.value.where


@needs_cap
@pytest.mark.parametrize("start, what", [('"ab"', "text"), ("[1, 2]", "list")], ids=["text", "list"])
def test_a_value_doubled_in_a_loop_is_R107(start, what):
    """120 steps, far under the step limit, asking for 2**60 items."""
    from tests.hostile.test_fuzz import capped
    text = ruleset(on_begin(f"let s = {start}\nrepeat 60:\n    set s = s + s"))
    result = compile_text(text, "unit.yaml")
    with pytest.raises(RuleError) as err, capped(seconds=60):
        Game(result.program).new(players=2)
    e = err.value
    assert e.code == "R107" and what in e.message and str(DEFAULT_LIMITS["max_value"]) in e.message
    assert e.where.startswith(f"unit.yaml:{line_of(text, 'set s = s + s')}:")


NESTED_QUERIES = "let k = count(filter(range(100000), x => any(range(100000), y => y == x + 100000)))"


@needs_cap
def test_work_inside_one_expression_is_R100():
    """Two nested queries over 100 000 items are a handful of steps and
    10**10 comparisons: the work budget stops them, not the step limit."""
    from tests.hostile.test_fuzz import TooSlow, capped
    g = game(on_begin(NESTED_QUERIES))
    try:
        with capped(seconds=10):
            g.new(players=2)
    except TooSlow:
        pytest.fail("one expression used more than 10 seconds of CPU without a RuleError")
    except RuleError as err:
        assert err.code == "R100" and str(DEFAULT_LIMITS["max_work"]) in err.message
        return
    pytest.fail("the expression ran to its end")


@needs_cap
def test_work_inside_one_expression_is_R100_naming_the_rule_file_and_line():
    from tests.hostile.test_fuzz import capped
    text = ruleset(on_begin(NESTED_QUERIES))
    result = compile_text(text, "unit.yaml")
    with pytest.raises(RuleError) as err, capped(seconds=10):
        Game(result.program).new(players=2)
    assert err.value.where.startswith(f"unit.yaml:{line_of(text, 'let k =')}:")


def test_the_value_and_work_limits_are_set_per_compile():
    g = game(on_begin("let s = [1, 2, 3]\nrepeat 3:\n    set s = s + s"), limits={"max_value": 10})
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R107" and "limit is 10" in err.value.message
    g = game(on_begin("let k = count(filter(range(50), x => x > 1))"), limits={"max_work": 10})
    with pytest.raises(RuleError) as err:
        g.new(players=2)
    assert err.value.code == "R100" and "more than 10 items" in err.value.message


# ============================================================== escape attempts
ESCAPES = [
    # Python's names are not the language's names
    ("let x = __import__('os')", "E037"),
    ("let x = eval('1 + 1')", "E037"),
    ("let x = exec('1')", "E037"),
    ("let x = open('/etc/passwd')", "E037"),
    ("let x = getattr(players, 'x')", "E037"),
    ("let x = globals()", "E037"),
    ("let x = compile('1', 'f', 'eval')", "E037"),
    ("open('/etc/passwd')", "E037"),
    ("exec('import os')", "E037"),
    ("__import__('os')", "E037"),
    ("let x = exec", "E030"),
    ("let x = os", "E030"),
    ("let x = __builtins__", "E030"),
    ("let x = self", "E030"),
    # dunder attributes, on every kind of value
    ("let x = players.__class__", "E032"),
    ("let x = 'a'.__class__", "E032"),
    ("let x = (1).__class__", "E032"),
    ("let x = current.__dict__", "E032"),
    ("let x = top(deck).__init__", "E032"),
    ("let x = top(deck)._private", "E032"),
    ("let x = filter(players, p => p.__class__)", "E032"),
    # format-string tricks in say templates: Rulebook templates, not str.format
    ('say "{0.__class__}"', "E032"),
    ('say "{players.__class__.__mro__}"', "E032"),
    ('let x = 1\nsay "{x.__globals__}"', "E032"),
    ('say "{x.__globals__}"', "E030"),
    ('say "{players!r}"', "E023"),
    ('say "{players:>10}"', "E023"),
    ('say "{__import__}"', "E030"),
    ('say "{eval(1)}"', "E037"),
    ('say "{"', "E023"),
    ('say "}"', "E023"),
    # labels and prompts of choose
    ('choose q from players by 0 label "{q.__globals__}"', "E032"),
    ('choose q from players by 0 label "{0.__class__}"', "E032"),
    ('choose q from players by 0 prompt "{current.__class__}"', "E032"),
    ('choose q from players by 0 prompt "{q!s}"', "E023"),
]


@pytest.mark.parametrize("code, expected", ESCAPES, ids=[c for c, _ in ESCAPES])
def test_rule_text_cannot_reach_python(code, expected):
    body = "components:\n  card:\n    count: 3\nzones:\n  deck: {}\n" + on_begin(code)
    text = ruleset(body)
    result = compile_text(text, "unit.yaml")
    assert result.program is None
    assert expected in codes_of(result), "\n".join(d.render(text) for d in result.report.errors)
    for d in result.report.diagnostics:
        no_repr(d.render(text))


@pytest.mark.parametrize("section, expected", [
    ('components:\n  card:\n    count: 2\n    label: "{self.__class__}"\n', "E032"),
    ('components:\n  card:\n    count: 2\n    label: "{0.__class__}"\n', "E032"),
    ('components:\n  card:\n    count: 2\n    label: "{self!r}"\n', "E023"),
    ('actions:\n  go:\n    label: "{0.__class__}"\n    effect: |\n      end game\n', "E032"),
    ('actions:\n  go:\n    label: "{current.__globals__}"\n    effect: |\n      end game\n', "E032"),
], ids=["component-label-self", "component-label-0", "component-label-conversion", "action-label-0",
        "action-label-globals"])
def test_labels_cannot_reach_python(section, expected):
    body = section + "zones:\n  deck: {}\n" + ("phases:\n  p:\n    turn:\n      actions: [go]\n" if "actions" in section
                                               else on_begin("move components(card) to deck"))
    result = compiled(body)
    assert expected in codes_of(result), "\n".join(d.render() for d in result.report.errors)


def test_the_players_name_template_cannot_reach_python():
    head = 'rulebook: 1\nid: unit\nplayers: {min: 2, max: 2, name: "{p.__class__}"}\n'
    assert "E032" in codes_of(compiled(on_begin("pass"), head=head))


def test_escaped_braces_are_printed_as_they_are_never_formatted():
    g = game(on_begin('say "{{0.__class__}} {{x.__globals__}} %s %(x)s {{}}"'))
    st = g.new(players=2)
    said = [e[1] for e in st.events if e[0] == "say"]
    assert said == ["{0.__class__} {x.__globals__} %s %(x)s {}"]


def test_no_python_repr_in_what_a_game_prints():
    """Every kind of value in a say template, a label and a prompt reads as
    game text: players, components, zones, lists, none, booleans."""
    from rulebook.interpreter.narrate import narrate
    g = game("""
    components:
      card:
        for_each: {value: "range(1, 4)"}
        label: "card {self.value} of {self.owner}"
    zones:
      deck: {of: card}
      hand: {per: player, of: card}
    phases:
      p:
        on_begin: |
          move components(card) to deck
          say "{players} {current} {top(deck)} {deck} {hand} {card} {hand[0]} {none} {true} {[1, 'a']} {phase}"
          say "{str(top(deck))} {components(card)} {map(players, q => hand[q])} {count(deck)}"
          choose q from players by 0 prompt "pick from {deck} and {hand}" label "{q} {deck} {hand}"
          end game
    """)
    st = g.new(players=2)
    lines = narrate(st, st.events, None) + narrate(st, st.events, 0, verbose=True)
    lines += g.options(st, 0).labels + [g.prompt(st, 0)]
    assert lines
    for line in lines:
        no_repr(line)
        assert "<" not in line and "0x" not in line, line


def test_an_event_in_a_template_reads_as_game_text():
    """Found while writing these tests: '{event}' printed a Python dict ("{'n': 3}")."""
    g = game(textwrap.dedent("""
    events:
      ping: {n: int}
    triggers:
      t:
        on: ping
        effect: |
          say "{event}"
    """) + on_begin("emit ping(n=3)"))
    st = g.new(players=2)
    said = [e[1] for e in st.events if e[0] == "say"]
    assert said and not any("{'" in s or "':" in s for s in said), said


UNDERSCORE_NAMES = [
    ("let", on_begin("let _x = 1")),
    ("for", on_begin("for __class__ in players:\n    pass")),
    ("lambda", on_begin("let y = filter(players, _c => true)")),
    ("choose", on_begin("choose _c from players by 0")),
    ("simultaneous", on_begin("simultaneous for _p in players:\n    choose c from players by _p")),
    ("var", "vars:\n  _secret: 0\n" + on_begin("set _secret = 1")),
    ("player-var", "player_vars:\n  _s: 0\n" + on_begin("pass")),
    ("define", "define:\n  _d: 1\n" + on_begin("pass")),
    ("zone", "zones:\n  __class__: {}\n" + on_begin("pass")),
    ("procedure", "procedures:\n  _p:\n    effect: |\n      pass\n" + on_begin("_p()")),
    ("property", "components:\n  card:\n    props: {_v: 1}\nzones:\n  deck: {}\n"
     + on_begin("move components(card) to deck")),
    ("state", "components:\n  card:\n    count: 1\n    state:\n      _m: false\nzones:\n  deck: {}\n"
     + on_begin("move components(card) to deck")),
    ("create-as", "components:\n  card:\n    count: 1\nzones:\n  deck: {}\n" + on_begin("create card in deck as _n")),
    ("event-field", "events:\n  ping: {_f: int}\n" + on_begin("emit ping(_f=1)")),
    ("procedure-param", "procedures:\n  pr:\n    params: {_k: int}\n    effect: |\n      pass\n" + on_begin("pr(1)")),
    ("function-param", 'functions:\n  fn:\n    params: {_k: int}\n    value: "_k"\n' + on_begin("let y = fn(1)")),
]


@pytest.mark.parametrize("body", [b for _, b in UNDERSCORE_NAMES], ids=[n for n, _ in UNDERSCORE_NAMES])
def test_declared_names_starting_with_an_underscore_are_E014(body):
    """Found while writing these tests: only '.name' reads were refused, so
    a ruleset could declare a property '_v' it could never read."""
    result = compiled(body)
    assert "E014" in codes_of(result), [d.render() for d in result.report.diagnostics]


# ============================================================== saved games: R020-R023
HIDDEN = """
components:
  card:
    for_each: {value: "range(1, 9)"}
zones:
  deck: {of: card, visibility: hidden}
  hand: {per: player, of: card, visibility: owner}
  pile: {of: card}
setup: |
  move components(card) to deck
  shuffle deck
  deal 2 from deck to hand
phases:
  p:
    on_begin: |
      choose c from hand[0] by 0
      move c to pile
      choose d from hand[1] by 1
      end game
"""


@pytest.fixture(scope="module")
def saved():
    g = game(HIDDEN)
    st = g.new(players=2, seed=3)
    text = json.dumps(g.save(st))
    assert g.load(json.loads(text)).to_data() == st.to_data()
    return g, text


def _load_code(g, data) -> str:
    with pytest.raises(SaveFileError) as err:
        g.load(data)
    assert isinstance(err.value, RulebookError)
    no_repr(str(err.value))
    return err.value.code


def _zone(d, name):
    return d["state"]["zones"][["deck", "hand[0]", "hand[1]", "pile"].index(name)]


def test_a_component_in_two_zones_is_R023(saved):
    g, text = saved
    d = json.loads(text)
    _zone(d, "pile").append(_zone(d, "deck")[0])
    assert _load_code(g, d) == "R023"


def test_a_component_twice_in_one_zone_is_R023(saved):
    g, text = saved
    d = json.loads(text)
    _zone(d, "deck").append(_zone(d, "deck")[0])
    assert _load_code(g, d) == "R023"


def test_a_hidden_card_moved_against_its_loc_is_R023(saved):
    """The top card of the hidden deck edited into the public pile, its
    loc left saying 'deck'."""
    g, text = saved
    d = json.loads(text)
    c = _zone(d, "deck").pop(0)
    _zone(d, "pile").append(c)
    assert _load_code(g, d) == "R023"


def test_a_hidden_card_whose_loc_names_another_zone_is_R023(saved):
    g, text = saved
    d = json.loads(text)
    c = _zone(d, "deck")[0]
    d["state"]["loc"][c] = 3
    assert _load_code(g, d) == "R023"


def test_another_ruleset_digest_is_R022(saved):
    g, text = saved
    d = json.loads(text)
    d["digest"] = "0" * 16
    assert _load_code(g, d) == "R022"


def test_another_ruleset_id_is_R021(saved):
    g, text = saved
    d = json.loads(text)
    d["ruleset"] = "get-bit"
    assert _load_code(g, d) == "R021"


def test_other_variants_are_R021(saved):
    g, text = saved
    d = json.loads(text)
    d["variants"] = ["two-players"]
    assert _load_code(g, d) == "R021"


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9])
def test_a_truncated_save_is_R020(saved, cut):
    """The JSON text cut short is not JSON: given to Game.load as it is, it
    is not a saved game (R020); Python's json module refuses it before."""
    g, text = saved
    short = text[:int(len(text) * cut)]
    with pytest.raises(json.JSONDecodeError):
        json.loads(short)
    assert _load_code(g, short) == "R020"


def test_a_save_whose_tables_were_cut_short_is_R023(saved):
    g, text = saved
    for key in ("loc", "face", "owner", "props", "zones", "pvars", "eliminated"):
        d = json.loads(text)
        d["state"][key] = d["state"][key][:-1]
        assert _load_code(g, d) == "R023", key


@pytest.mark.parametrize("field, code", [
    ("format", "R020"), ("ruleset", "R021"), ("digest", "R022"), ("players", "R023"), ("state", "R023"),
])
def test_a_missing_field_is_refused(saved, field, code):
    g, text = saved
    d = json.loads(text)
    del d[field]
    assert _load_code(g, d) == code


def test_a_missing_state_field_is_R023(saved):
    g, text = saved
    for key in json.loads(text)["state"]:
        d = json.loads(text)
        del d["state"][key]
        assert _load_code(g, d) == "R023", key


@pytest.mark.parametrize("data", [None, [], "{}", 42, {"format": 99}, {}], ids=repr)
def test_not_a_save_is_R020(saved, data):
    g, _ = saved
    assert _load_code(g, data) == "R020"


@pytest.mark.parametrize("key, value", [
    ("rng", "not a number"), ("players", "2"), ("params", [1]), ("known", {"x": [1]}), ("props", 5),
], ids=lambda v: str(v)[:12])
def test_values_of_the_wrong_type_are_R023(saved, key, value):
    g, text = saved
    d = json.loads(text)
    (d if key in ("players", "params") else d["state"])[key] = value
    assert _load_code(g, d) == "R023"


@pytest.mark.parametrize("damage", ["pending", "pending-player", "locals", "pc"])
def test_a_damaged_continuation_is_R023(saved, damage):
    """Found while writing these tests: a save whose pending decision or
    frames were damaged loaded, and the game then failed with KeyError or
    IndexError (or silently skipped rules)."""
    g, text = saved
    d = json.loads(text)
    s = d["state"]
    if damage == "pending":
        s["pending"] = {"kind": "x"}
    elif damage == "pending-player":
        s["pending"] = dict(s["pending"], players=[7])
    elif damage == "locals":
        s["stack"] = [[f[0], f[1], []] for f in s["stack"]]
    else:
        s["stack"] = [[f[0], 10 ** 9, f[2]] for f in s["stack"]]
    assert _load_code(g, d) == "R023"


# ============================================================== scenario files: E070
SCENARIO_RULESET = """\
rulebook: 1
id: scen
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 4)"}
zones:
  deck: {of: card}
  pile: {of: card}
setup: |
  move components(card) to deck
phases:
  p:
    on_begin: |
      choose c from deck by 0
      move c to pile
      end game winners [0]
"""

BAD_SCENARIOS = {
    "unknown-field": ("players: 2\nfoo: 1\n", "E070"),
    "unknown-step-field": ("players: 2\nsteps:\n  - {player: 0, opton: card 1}\n", "E070"),
    "illegal-option": ("players: 2\nsteps:\n  - {player: 0, option: card 9}\n", "E070"),
    "index-out-of-range": ("players: 2\nsteps:\n  - {player: 0, index: 9}\n", "E070"),
    "index-not-a-number": ("players: 2\nsteps:\n  - {player: 0, index: x}\n", "E070"),
    "index-a-boolean": ("players: 2\nsteps:\n  - {player: 0, index: true}\n", "E070"),
    "option-a-list": ("players: 2\nsteps:\n  - {player: 0, option: [1]}\n", "E070"),
    "not-your-turn": ("players: 2\nsteps:\n  - {player: 1, option: card 1}\n", "E070"),
    "wrong-options": ("players: 2\nsteps:\n  - {player: 0, options: [x]}\n", "E070"),
    "steps-not-a-list": ("players: 2\nsteps: hello\n", "E070"),
    "step-not-a-mapping": ("players: 2\nsteps: [hello]\n", "E070"),
    "not-a-mapping": ("- 1\n", "E070"),
    "empty": ("", "E070"),
    "wrong-winners": ("players: 2\nsteps:\n  - {player: 0, option: card 1}\nwinners: [1]\n", "E070"),
    "expected-error-missing": ("players: 2\nerror: R999\n", "E070"),
    "expect-fails": ("players: 2\nexpect: \"count(deck) == 0\"\n", "E070"),
    "expect-syntax": ("players: 2\nexpect: \"count(deck) ==\"\n", "E020"),
    "expect-python": ("players: 2\nexpect: \"deck.__class__\"\n", "E032"),
    "setup-python": ("players: 2\nsetup: |\n  let x = __import__('os')\n", "E037"),
    "yaml-error": ("a: [\n", "E001"),
    "unknown-variant": ("players: 2\nvariants: nope\n", "E035"),
    "ruleset-missing": ("ruleset: nothere.yaml\nplayers: 2\n", "E004"),
    "players-out-of-range": ("players: 9\n", "E062"),
    "player-a-string": ("players: 2\nsteps:\n  - {player: x, option: card 1}\n", "E070"),
    "options-player-a-string": ("players: 2\nsteps:\n  - {player: q, options: [x]}\n", "E070"),
}
# Found while writing these tests: each of these made the runner raise
# (ValueError, TypeError, AttributeError, RecursionError, DedentError).
BAD_SCENARIOS.update({
    "seed-a-string": ("players: 2\nseed: abc\n", "E070"),
    "players-a-string": ("players: two\n", "E070"),
    "params-a-list": ("players: 2\nparams: [1]\n", "E070"),
    "winners-a-number": ("players: 2\nsteps:\n  - {player: 0, option: card 1}\nwinners: 5\n", "E070"),
    "expect-a-mapping": ("players: 2\nexpect: {a: 1}\n", "E070"),
    "expect-deep": ("players: 2\nexpect: \"" + "-" * 600 + "1 == 1\"\n", "E024"),
    "setup-bad-dedent": ("players: 2\nsetup: |\n  if true:\n      pass\n    pass\n", "E020"),
})


def _scenario_params():
    return [pytest.param(text, code, id=name) for name, (text, code) in BAD_SCENARIOS.items()]


@pytest.fixture
def scenario_dir(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(SCENARIO_RULESET)
    (tmp_path / "scenarios").mkdir()
    good = tmp_path / "scenarios" / "good.yaml"
    good.write_text("players: 2\nsteps:\n  - {player: 0, option: card 1}\nwinners: [0]\n")
    assert run_file(good).passed
    return tmp_path


@pytest.mark.parametrize("text, code", _scenario_params())
def test_bad_scenarios_fail_cleanly(scenario_dir, text, code):
    path = scenario_dir / "scenarios" / "bad.yaml"
    path.write_text(text)
    outcome = run_file(path)  # never raises
    assert not outcome.passed
    assert outcome.failures and all(d.code.startswith("E") for d in outcome.failures)
    assert code in [d.code for d in outcome.failures], [d.render() for d in outcome.failures]
    for d in outcome.failures:
        no_repr(d.render(text))


# ============================================================== the command line


def _write(tmp_path, name, text) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _clean(out: str, err: str) -> None:
    assert "Traceback" not in out + err
    for line in (out + err).splitlines():
        no_repr(line)


LOOP = ruleset("""
vars:
  x: 0
phases:
  spin:
    on_begin: |
      while true:
          set x += 1
      end game
""")
PHASE_LOOP = ruleset("""
phases:
  a:
    on_begin: |
      if turn_number > 5:
          end game
    next: b
  b:
    next: a
""")
PARAM_DECK = ruleset("""
params:
  n: 10
components:
  card:
    count: n
zones:
  deck: {}
phases:
  p:
    on_begin: |
      move components(card) to deck
      end game
""")


@pytest.mark.parametrize("name, text, code", [
    ("bomb.yaml", billion_laughs(), "E003"),
    ("big.yaml", "# " + "x" * MAX_BYTES + "\n", "E003"),
    ("deep.yaml", "a: " + "[" * 100 + "]" * 100 + "\n", "E003"),
    ("billion.yaml", ruleset(BILLION), "E064"),
    ("escape.yaml", ruleset(on_begin("let x = __import__('os')")), "E037"),
    ("fmt.yaml", ruleset(on_begin('say "{0.__class__}"')), "E032"),
], ids=["alias-bomb", "too-big", "too-deep", "billion-cards", "import", "format-string"])
def test_cli_validate_reports_a_limit_with_exit_1(tmp_path, capsys, name, text, code):
    path = _write(tmp_path, name, text)
    exit_code, out, err = run_main(capsys, "validate", path)
    assert exit_code == 1 and f"error[{code}]" in out and "FAILED" in out
    _clean(out, err)
    exit_code, out, err = run_main(capsys, "validate", "--format", "json", path)
    assert exit_code == 1 and code in [d["code"] for d in json.loads(out)]


@pytest.mark.parametrize("text, args, code", [
    (LOOP, ("play", "{path}", "--seed", "1"), "R100"),
    (PHASE_LOOP, ("play", "{path}"), "R102"),
    (PARAM_DECK, ("play", "{path}", "--param", "n=1000000000"), "R107"),
], ids=["R100", "R102", "R107"])
def test_cli_run_time_limits_are_one_error_with_its_hint_and_exit_1(tmp_path, capsys, text, args, code):
    path = _write(tmp_path, "unit.yaml", text)
    exit_code, out, err = run_main(capsys, *[a.format(path=path) for a in args])
    assert exit_code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[0].startswith("rulebook: ") and f"error[{code}]" in lines[0], err
    assert lines[1:] == [] or (len(lines) == 2 and lines[1].startswith("  = hint: ")), err
    _clean(out, err)


def test_cli_simulate_reports_games_that_break_with_exit_1(tmp_path, capsys):
    path = _write(tmp_path, "unit.yaml", LOOP)
    exit_code, out, err = run_main(capsys, "simulate", path, "-n", "2", "-q", "--failures", str(tmp_path / "failures"))
    assert exit_code == 1 and "R100" in out + err
    _clean(out, err)


def test_cli_usage_errors_are_one_line_with_exit_2(tmp_path, capsys):
    path = _write(tmp_path, "unit.yaml", PARAM_DECK)
    for args in (("play", path, "--players", "9"), ("frobnicate",), ("play", path, "--param", "oops")):
        exit_code, out, err = run_main(capsys, *args)
        assert exit_code == 2, args
        _clean(out, err)


def test_cli_unreadable_input_is_one_line_with_exit_1(tmp_path, capsys):
    exit_code, out, err = run_main(capsys, "validate", str(tmp_path / "nothing.yaml"))
    assert exit_code == 1 and "error[E004]: no ruleset" in out and "FAILED" in out, out  # one problem among the paths
    _clean(out, err)
    exit_code, out, err = run_main(capsys, "play", str(tmp_path / "nothing.yaml"))
    assert exit_code == 1 and len([x for x in err.splitlines() if x.strip()]) == 1
    _clean(out, err)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00rulebook")
    exit_code, out, err = run_main(capsys, "validate", str(binary))
    assert exit_code == 1
    _clean(out, err)


def _has_resume() -> bool:
    from rulebook.cli.main import cli
    return any("--resume" in p.opts for p in cli.commands["play"].params)


@pytest.mark.skipif(not _has_resume(), reason="this rulebook has no 'play --resume'")
@pytest.mark.parametrize("damage", ["truncated", "digest", "two-zones", "not-json"])
def test_cli_resuming_a_damaged_save_is_one_line_with_exit_1(tmp_path, capsys, damage):
    path = _write(tmp_path, "unit.yaml", ruleset(HIDDEN))
    g = Game(compile_path(path).program)
    text = json.dumps(g.save(g.new(players=2, seed=3)))
    d = json.loads(text)
    if damage == "truncated":
        text = text[:len(text) // 2]
    elif damage == "digest":
        d["digest"] = "0" * 16
        text = json.dumps(d)
    elif damage == "two-zones":
        _zone(d, "pile").append(_zone(d, "deck")[0])
        text = json.dumps(d)
    else:
        text = "\x00\xff not json"
    save = _write(tmp_path, "save.json", text)
    exit_code, out, err = run_main(capsys, "play", path, "--resume", save)
    assert exit_code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("rulebook: "), err
    _clean(out, err)


def test_cli_bad_scenario_fails_with_exit_1(scenario_dir, capsys):
    path = scenario_dir / "scenarios" / "bad.yaml"
    path.write_text(BAD_SCENARIOS["unknown-field"][0])
    exit_code, out, err = run_main(capsys, "test", str(path))
    assert exit_code == 1 and "FAIL" in out and "E070" in out and "0 passed, 1 failed" in out
    _clean(out, err)


def test_cli_internal_errors_are_one_line_with_exit_3_and_debug_shows_them(tmp_path, capsys, monkeypatch):
    import rulebook.compiler.build

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug inside Rulebook")
    monkeypatch.setattr(rulebook.compiler.build, "validate_path", broken)
    path = _write(tmp_path, "unit.yaml", LOOP)
    exit_code, out, err = run_main(capsys, "validate", path)
    assert exit_code == 3
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "internal error" in lines[0] and "--debug" in lines[0]
    _clean(out, err)
    with pytest.raises(ZeroDivisionError):
        run_main(capsys, "--debug", "validate", path)


def test_cli_a_crash_inside_validation_shows_no_traceback(tmp_path, capsys):
    """The dedent crash (tests/hostile/test_fuzz.py) reaches the command line as one
    line: exit 3 while it is a bug, exit 1 once it is a diagnostic."""
    path = _write(tmp_path, "unit.yaml", ruleset(on_begin("if true:\n    pass\n  pass")))
    exit_code, out, err = run_main(capsys, "validate", path)
    assert exit_code in (1, 3)
    assert len([x for x in err.splitlines() if x.strip()]) <= 1
    _clean(out, err)


@pytest.mark.parametrize("effect, code", [
    ("deal 1000000000 from deck to hand", None),  # the deck runs out: the deal stops there
    ("deal 1000000000 from deck to hand for []", None),  # nobody to deal to
    ("draw 1000000000 from deck to deck", "R100"),  # top to bottom for ever: the work budget stops it
    ("deal 1000000000 from hand[0] to hand", "R100"),  # dealing from a receiving zone
], ids=["deal-runs-out", "deal-to-nobody", "draw-round-and-round", "deal-round-and-round"])
def test_a_huge_draw_or_deal_ends_or_is_stopped(effect, code):
    """Found by the long fuzz run: 'deal 1000000000 from stock to hand' kept
    looping over its rounds after the stock was empty (30 s of CPU)."""
    text = ruleset("components:\n  card:\n    count: 10\nzones:\n  deck: {}\n  hand: {per: player}\n"
                   "setup: |\n  move components(card) to deck\n  deal 2 from deck to hand\n"
                   + on_begin(effect + "\nend game"))
    result = compile_text(text, "unit.yaml")
    assert result.program is not None, [d.render() for d in result.report.errors]
    game = Game(result.program)
    if code is None:
        st = game.new(players=2)
        assert st.over
    else:
        with pytest.raises(RulebookError) as err:
            game.new(players=2)
        assert err.value.code == code


# ============================================================== work a rule hides (issue 37, item 8)
SHARED_TEXT = """
vars:
  s: "'x'"
  ys: {type: list of str, initial: "[]"}
  t: "''"
""" + on_begin("repeat 19:\n    set s = s + s\nset ys = [s]\nrepeat 19:\n    set ys = ys + ys\n{STATEMENT}")


@needs_cap
@pytest.mark.parametrize("statement", ["set t = str(ys)", 'say "{ys}"', "set t = 'the list: ' + str(ys)"])
def test_a_list_sharing_one_long_text_written_as_text_is_R107_before_the_text_is_made(statement):
    """2**19 items that are one text of 2**19 characters: a list within the
    value limit that costs no memory to hold, and 2**38 characters (275 GB)
    as text, which ended in MemoryError (exit 3). Counted first, it is R107
    at the statement."""
    from tests.hostile.test_fuzz import capped
    text = ruleset(SHARED_TEXT.replace("{STATEMENT}", statement))
    result = compile_text(text, "unit.yaml")
    with pytest.raises(RuleError) as err, capped(seconds=20):
        Game(result.program).new(players=2, record=True)
    assert err.value.code == "R107" and str(DEFAULT_LIMITS["max_value"]) in err.value.message
    assert err.value.where.startswith(f"unit.yaml:{line_of(text, statement)}:")


@pytest.mark.parametrize("statement", ["set t = str(xs)", 'say "{xs}"'])
def test_writing_a_list_as_text_is_charged_by_the_length_of_the_text(statement):
    """A list of 60 numbers is at least 180 characters of text: over a work budget of 150, under one of 250."""
    body = "vars:\n  xs: {type: list of int, initial: \"range(60)\"}\n  t: \"''\"\n" + on_begin(statement)
    with pytest.raises(RuleError) as err:
        game(body, limits={"max_work": 150}).new(players=2, record=True)
    assert err.value.code == "R100"
    assert game(body, limits={"max_work": 250}).new(players=2, record=True).over


@needs_cap
def test_distinct_of_a_list_sharing_one_long_row_is_R100_within_seconds():
    """2**19 items that are one row of 500,000 numbers: its size was summed
    item by item before it was charged (2.6 * 10**11 visits, a hang)."""
    from tests.hostile.test_fuzz import capped
    text = ruleset("vars:\n  row: {type: list of int, initial: \"range(500000)\"}\n"
                   "  ys: {type: list of list of int, initial: \"[]\"}\n  n: 0\n"
                   + on_begin("set ys = [row]\nrepeat 19:\n    set ys = ys + ys\nset n = count(distinct(ys))"))
    result = compile_text(text, "unit.yaml")
    with pytest.raises(RuleError) as err, capped(seconds=20):
        Game(result.program).new(players=2)
    assert err.value.code == "R100"
    assert err.value.where.startswith(f"unit.yaml:{line_of(text, 'distinct(ys)')}:")


def test_distinct_of_lists_is_charged_by_their_size_at_every_depth():
    body = "vars:\n  n: 0\n" + on_begin("let row = range(20)\nset n = count(distinct([row, row, row, [row]]))")
    # 1 for the list, 4 for its items, 20 for each row reached (four), 1 for the inner list's item: 86
    with pytest.raises(RuleError) as err:
        game(body, limits={"max_work": 85}).new(players=2)
    assert err.value.code == "R100"
    assert game(body, limits={"max_work": 86}).new(players=2).vars["n"] == 2


class _Prog:
    max_work = 10**6


class _St:
    """What ``appended`` reads of a state: the work count and the budget."""
    def __init__(self):
        self.work, self.prog = 0, _Prog()


def test_an_append_changes_a_list_nothing_else_holds_in_place():
    """``append`` was ``xs = xs + [v]``, a copy per append: a loop of n
    appends cost n**2 / 2 (190,000 of them: minutes). A list that only its
    table holds now takes the item in place, without a copy (none charged)."""
    from rulebook.interpreter.lib import appended
    st, table = _St(), {"xs": [0]}
    first = id(table["xs"])
    for v in range(1, 1000):
        appended(st, table, "xs", v, "unit.yaml:1:1", 10**6)
    assert table["xs"] == list(range(1000)) and id(table["xs"]) == first and st.work == 0


def test_an_append_copies_a_list_something_else_holds_and_charges_the_copy():
    from rulebook.interpreter.lib import appended, appended_local
    st, table = _St(), {"xs": [1, 2, 3]}
    kept = table["xs"]  # another variable, a clone, a frame, a save: anything holding the list
    appended(st, table, "xs", 4, "unit.yaml:1:1", 10**6)
    assert kept == [1, 2, 3] and table["xs"] == [1, 2, 3, 4] and st.work == 3
    appended(st, table, "xs", 5, "unit.yaml:1:1", 10**6)  # the copy is the table's own: in place
    assert table["xs"] == [1, 2, 3, 4, 5] and st.work == 3
    local = kept
    out = appended_local(st, [local], 9, "unit.yaml:1:1", 10**6)  # held by two names: copied
    assert kept == [1, 2, 3] and out == [1, 2, 3, 9] and st.work == 6
    mine = [7]
    same = appended_local(st, [mine], 8, "unit.yaml:1:1", 10**6)  # held by ``mine`` alone: in place
    assert same is mine and mine == [7, 8] and st.work == 6


def test_an_append_past_the_value_limit_is_R107_at_its_statement():
    text = ruleset("vars:\n  xs: {type: list of int, initial: \"range(10)\"}\n" + on_begin("append 1 to xs"))
    with pytest.raises(RuleError) as err:
        Game(compile_text(text, "unit.yaml", (), {"max_value": 10}).program).new(players=2)
    assert err.value.code == "R107" and err.value.where.startswith(f"unit.yaml:{line_of(text, 'append 1')}:")


@needs_cap
@pytest.mark.parametrize("count, code", [(190000, None), (300000, "R100")])
def test_a_long_loop_of_appends_finishes_or_stops_at_the_step_limit(count, code):
    from tests.hostile.test_fuzz import capped
    text = ruleset("vars:\n  xs: {type: list of int, initial: \"[]\"}\n"
                   + on_begin(f"repeat {count}:\n    append 1 to xs\nlet ys = []\nrepeat 1000:\n    append 2 to ys"))
    g = Game(compile_text(text, "unit.yaml").program)
    with capped(seconds=20):
        if code is None:
            assert g.new(players=2).vars["xs"] == [1] * count
            return
        with pytest.raises(RuleError) as err:
            g.new(players=2)
    assert err.value.code == code and err.value.where.startswith(f"unit.yaml:{line_of(text, 'append 1')}:")


# Every kind of place an append can change, shared every way a list can be:
# another variable, a local, a frame that waits for a choice, a clone.
APPENDS = """
vars:
  xs: {type: list of int, initial: "[]"}
  ys: {type: list of int, initial: "[]"}
  seen: {type: list of int, initial: "[]"}
player_vars:
  mine: {type: list of int, initial: "[]"}
components:
  chip:
    state:
      marks: {type: list of int, initial: "[]"}
actions:
  add:
    params: {v: "range(3)"}
    effect: |
      append v to xs
      append v to player.mine
      let c = first(components(chip))
      append v to c.marks
      end turn
  alias:
    effect: |
      set ys = xs
      append 9 to xs
      let zs = xs
      append 7 to zs
      append 8 to zs
      set seen = zs
      end turn
  ask:
    effect: |
      let picked = xs
      append 5 to picked
      choose w from [1, 2]
      append w to picked
      set seen = picked
      append 6 to ys
      end turn
phases:
  main:
    turn: {actions: [add, alias, ask]}
    next: main
end:
  long:
    if: "count(xs) > 40"
"""


def test_appends_never_change_a_list_that_another_name_holds():
    g = game(APPENDS)
    st = g.new(players=2, seed=1)
    for label in ("add", "add", "alias"):
        g.apply(st, g.to_move(st)[0], g.options(st, g.to_move(st)[0]).labels.index(
            next(x for x in g.options(st, g.to_move(st)[0]).labels if x.startswith(label))))
    assert st.vars["ys"] == st.vars["xs"][:-1] and st.vars["xs"][-1] == 9
    assert st.vars["seen"] == st.vars["xs"] + [7, 8]


@pytest.mark.parametrize("seed", range(4))
def test_a_clone_and_its_original_never_share_an_appended_list(seed):
    """Random turns on a pool of states, each step on one of them, cloned at
    random: every state must be the state its own decisions give when
    replayed on a fresh game (``Game.load`` replays a save and compares it
    field for field, R023 if an append of one reached another)."""
    import random
    g = game(APPENDS)
    rnd = random.Random(seed)
    pool = [g.new(players=2, seed=seed)]
    for _ in range(60):
        st = rnd.choice(pool)
        if st.over:
            continue
        if rnd.random() < 0.3:
            pool.append(g.clone(st))
            continue
        p = g.to_move(st)[0]
        g.apply(st, p, rnd.randrange(len(g.options(st, p))))
    assert len(pool) > 3
    for st in pool:
        g.load(g.save(st))


def nested_calls(levels: int, calls: int, top: str = "set y = f{top}(1)") -> str:
    """Function ``f{k}`` adds ``calls`` calls of ``f{k-1}``; ``f0`` is its argument."""
    out = "functions:\n"
    for k in range(levels + 1):
        body = " + ".join([f"f{k - 1}(n)"] * calls) if k else "n"
        out += f"  f{k}:\n    params: {{n: int}}\n    value: \"{body}\"\n"
    return out + "vars:\n  y: 0\n" + on_begin(top.format(top=levels))


@needs_cap
def test_calls_nested_in_calls_are_charged_to_the_work_budget():
    """f9(1): ten calls a level, nine levels, 10**8 calls and no loop nor
    query for a budget to count (29 s in one action). Each call of a
    function that calls functions counts one: R100 at the statement."""
    from tests.hostile.test_fuzz import capped
    text = ruleset(nested_calls(9, 10))
    with pytest.raises(RuleError) as err, capped(seconds=20):
        Game(compile_text(text, "unit.yaml").program).new(players=2)
    assert err.value.code == "R100" and "function calls" in err.value.message
    assert err.value.where.startswith(f"unit.yaml:{line_of(text, 'set y = f9(1)')}:")


def test_a_call_of_a_function_that_calls_functions_counts_one():
    """f3 calls f2 three times, f2 calls f1 three times, f1 calls f0 (written
    at its call site) three times: a call of f3 costs 1 + 3. f1 is not
    charged: the calls it makes are written out, its body is all it costs."""
    body = nested_calls(3, 3, "repeat 10:\n    set y = f{top}(1)")
    assert game(body, limits={"max_work": 40}).new(players=2).vars["y"] == 27
    with pytest.raises(RuleError) as err:
        game(body, limits={"max_work": 39}).new(players=2)
    assert err.value.code == "R100"


NEGATIVE_COPIES = """
params:
  n: {default: NUMBER, type: int}
components:
  card:
    for_each: {v: "range(3)"}
    copies: COPIES
zones:
  deck: {}
setup: move components(card) to deck
""" + on_begin("")


@pytest.mark.parametrize("number, copies, players", [
    (-1, "n", 2),  # a parameter's default
    (1, "(player_count - 3) * (player_count - 3) - n", 3),  # negative only with 3 players, between min and max
], ids=["parameter", "a-middle-player-count"])
def test_a_negative_copies_computed_from_parameters_is_E014_at_its_value(number, copies, players):
    """It passed ``validate`` and failed only in play (R104): the dry run made
    the components at the smallest and largest player count and let any
    error but R107 through. Now every player count, E014 at the value."""
    head = HEAD.replace("max: 2", "max: 4")
    text = ruleset(NEGATIVE_COPIES.replace("NUMBER", str(number)).replace("COPIES", f'"{copies}"'), head)
    result = compile_text(text, "unit.yaml")
    assert codes_of(result) == ["E014"], [d.render() for d in result.report.diagnostics]
    d = result.report.errors[0]
    assert (d.line, d.column) == (line_of(text, "copies:"), text.splitlines()[d.line - 1].index("copies:") + 9)
    assert "copies -1 is negative" in d.message and f"with {players} players" in d.message


def test_a_negative_count_or_copies_set_by_a_variant_is_E014_in_the_variant(tmp_path):
    text = ruleset(NEGATIVE_COPIES.replace("NUMBER", "2").replace("COPIES", "n")
                   + "variants:\n  none-at-all:\n    params: {n: -2}\n")
    path = tmp_path / "unit.yaml"
    path.write_text(text)
    report = validate_path(path)
    assert [d.code for d in report.errors] == ["E014"]
    assert "none-at-all" in report.errors[0].message and "copies -2 is negative" in report.errors[0].message
