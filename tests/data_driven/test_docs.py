"""Every example in docs/language.md and docs/format.md runs here, and the
two references are checked for completeness against the engine.

Fenced blocks are found by their info string:

- ```` ```yaml example ```` a complete ruleset. It must compile without any
  diagnostic (``warn=W101,W104`` lists warnings it may give; ``error=E051``
  says it must fail with that code). It is then played to the end by random
  bots with its smallest and largest player count, ``seeds=N`` games each,
  and so is every variant it declares (``fails=R103`` says the first game
  must stop with that runtime error, or Python exception, instead).
  ``name=X`` names it for a scenario.
- ```` ```yaml fragment ```` part of a ruleset: its top-level keys replace
  those of a minimal ruleset (one phase that ends the game); it must compile
  without errors (``error=E0xx``: with that error; warnings are allowed) and
  is played like an example (``fails=`` too).
- ```` ```yaml scenario ```` a scenario file for the nearest ``yaml example``
  above it (or ``ruleset=X``); it must pass, as with ``rulebook test``;
  ``fails=N`` says it must fail with N failures, whose messages are the
  lines of the ```` ```text ```` block right after it.
- ```` ```rule example ```` rule text run inside the host ruleset of
  docs/language.md (the block ``yaml example name=host``), in place of its
  line ``# the example runs here``: statements run on the first turn of
  player 0 in a 3-player game (``players=N``, ``seed=N`` change that).
  Comment lines are directives:

  - ``# expect: EXPR`` becomes a check at that very place, in the scope of
    the example (its locals are visible); every check must run and hold.
  - ``# answer: N`` the option index given to the next decision (default 0).
  - ``# options: [..]`` the labels of the options of the next decision
    (a JSON list), checked before it is answered.
  - ``# prompt: TEXT`` the prompt of the next decision, checked likewise.
  - ``# says: TEXT`` a ``say`` statement must have printed exactly TEXT.
  - ``# winners: [..]`` the winners when the game has ended.
  - ``# finally: EXPR`` EXPR holds once the example has run (evaluated like
    a scenario expectation: only the ruleset's names are visible).
  - ``# visible to P: EXPR`` / ``# hidden from P: EXPR`` after the example,
    player P's view shows (does not show) the face of component EXPR.
  - ``# error: CODE`` compiling (E...) or running (R...) fails with CODE.
  - ``# told to P: TEXT`` / ``# told to all: TEXT`` the narration of the
    whole example for player P (for a spectator) holds the sentence TEXT.

- ```` ```text ```` is not an example (syntax summaries, output).
"""
from __future__ import annotations

import json
import re
import signal
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from rulebook.agents.base import RandomAgent, play_out
from rulebook.compiler.build import compile_text
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game
from rulebook.interpreter.view import component_view
from rulebook.validator.check_calls import BUILTINS
from rulebook.validator.loader import load_text

from rulebook.testing.scenarios import run_file

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LANGUAGE = DOCS / "language.md"
FORMAT = DOCS / "format.md"
GRAMMAR = ROOT / "dsl" / "rules.lark"
SCHEMA = ROOT / "validator" / "ruleset.schema.json"

MARKER = "# the example runs here"
MAX_DECISIONS = 3000
SECONDS_PER_EXAMPLE = 5


# ------------------------------------------------------------------ blocks
@dataclass
class Block:
    file: str
    line: int
    lang: str
    kind: str
    opts: dict
    text: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def read_blocks(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"^(`{3,})\s*(.*)$", lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).split()
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        lang = info[0] if info else ""
        kind = info[1] if len(info) > 1 and "=" not in info[1] else ""
        opts = dict(w.split("=", 1) for w in info[1:] if "=" in w)
        out.append(Block(path.name, i + 1, lang, kind, opts, "\n".join(lines[i + 1:j]) + "\n"))
        i = j + 1
    return out


def all_blocks() -> list[Block]:
    return [b for path in (LANGUAGE, FORMAT) if path.exists() for b in read_blocks(path)]


BLOCKS = all_blocks()


def of_kind(lang: str, kind: str) -> list[Block]:
    return [b for b in BLOCKS if b.lang == lang and b.kind == kind]


def host_block() -> Block:
    hosts = [b for b in of_kind("yaml", "example") if b.opts.get("name") == "host"]
    assert len(hosts) == 1, "docs/language.md must hold exactly one ```yaml example name=host block"
    return hosts[0]


@contextmanager
def time_limit(seconds: int, what: str):
    """Fail an example that hangs instead of hanging the test run."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum, frame):
        raise TimeoutError(f"{what} did not finish within {seconds} s")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def render(compiled, text: str) -> str:
    return "\n".join(d.render(text) for d in compiled.report.diagnostics)


def play(program, what: str, seeds: int = 2, fails: str | None = None) -> None:
    """Random bots play every game to the end; with ``fails``, the first game
    must stop with that error code (or Python exception name)."""
    if fails:
        game = Game(program)
        try:
            st = game.new(players=program.min_players, seed=0)
            play_out(game, st, [RandomAgent(p) for p in range(st.n)], max_decisions=MAX_DECISIONS)
        except Exception as err:  # the example documents exactly this failure
            got = getattr(err, "code", None) if isinstance(err, RulebookError) else type(err).__name__
            assert got == fails, f"{what}: expected the game to fail with {fails}, got {got}: {err}"
            return
        raise AssertionError(f"{what}: expected the game to fail with {fails}, but it ended normally")
    game = Game(program)
    for n in sorted({program.min_players, program.max_players}):
        for seed in range(seeds):
            st = game.new(players=n, seed=seed)
            play_out(game, st, [RandomAgent(seed * 100 + p) for p in range(n)], max_decisions=MAX_DECISIONS)
            assert st.over, f"{what}: the game with {n} players, seed {seed} did not end"


def check_ruleset(text: str, block: Block, allowed_warnings=()) -> object:
    compiled = compile_text(text, block.id)
    expected = block.opts.get("error")
    codes = [d.code for d in compiled.report.diagnostics]
    if expected:
        assert expected in codes, f"{block.id}: expected {expected}, got:\n{render(compiled, text)}"
        assert compiled.program is None
        return None
    assert compiled.program is not None, f"{block.id}:\n{render(compiled, text)}"
    unexpected = [d for d in compiled.report.diagnostics if d.code not in allowed_warnings]
    assert not unexpected, f"{block.id}: unexpected diagnostics:\n{render(compiled, text)}"
    return compiled


# ------------------------------------------------------------------ yaml examples
@pytest.mark.parametrize("block", of_kind("yaml", "example"), ids=lambda b: b.id)
def test_yaml_example(block):
    allowed = [w for w in block.opts.get("warn", "").split(",") if w]
    with time_limit(SECONDS_PER_EXAMPLE * 2, block.id):
        compiled = check_ruleset(block.text, block, allowed)
        if compiled is None:
            return
        seeds = int(block.opts.get("seeds", 2))
        play(compiled.program, block.id, seeds, block.opts.get("fails"))
        data = yaml.safe_load(block.text)
        for name, spec in (data.get("variants") or {}).items():
            selected = tuple(spec.get("requires") or ()) + (name,)
            variant = compile_text(block.text, block.id, selected)
            assert variant.program is not None, f"{block.id} variant {name}:\n{render(variant, block.text)}"
            play(variant.program, f"{block.id} variant {name}", 1)


FRAGMENT_BASE = {  # top-level key -> its YAML text in the minimal ruleset
    "rulebook": "rulebook: 1\n",
    "id": "id: fragment\n",
    "players": "players: {min: 2, max: 4}\n",
    "phases": "phases:\n  main:\n    on_begin: end game\n",
}


def fragment_text(block: Block) -> str:
    """The minimal ruleset with the fragment's top-level keys put in place
    of its own (as text: YAML loaders other than Rulebook's read 'on' as true)."""
    keys = set(re.findall(r"^([A-Za-z_]\w*):", block.text, flags=re.M))
    return "".join(text for key, text in FRAGMENT_BASE.items() if key not in keys) + block.text


@pytest.mark.parametrize("block", of_kind("yaml", "fragment"), ids=lambda b: b.id)
def test_yaml_fragment(block):
    text = fragment_text(block)
    with time_limit(SECONDS_PER_EXAMPLE, block.id):
        compiled = compile_text(text, block.id)
        expected = block.opts.get("error")
        if expected:
            codes = [d.code for d in compiled.report.diagnostics]
            assert expected in codes, f"{block.id}: expected {expected}, got:\n{render(compiled, text)}"
            return
        assert compiled.program is not None, f"{block.id}:\n{render(compiled, text)}"
        play(compiled.program, block.id, 1, block.opts.get("fails"))


def ruleset_for(block: Block) -> Block:
    examples = [b for b in of_kind("yaml", "example") if b.file == block.file]
    if "ruleset" in block.opts:
        named = [b for b in examples if b.opts.get("name") == block.opts["ruleset"]]
        assert named, f"{block.id}: no yaml example named {block.opts['ruleset']}"
        return named[0]
    before = [b for b in examples if b.line < block.line]
    assert before, f"{block.id}: a scenario needs a yaml example above it"
    return before[-1]


@pytest.mark.parametrize("block", of_kind("yaml", "scenario"), ids=lambda b: b.id)
def test_yaml_scenario(block, tmp_path):
    ruleset = ruleset_for(block)
    (tmp_path / "ruleset.yaml").write_text(ruleset.text)
    (tmp_path / "scenarios").mkdir()
    path = tmp_path / "scenarios" / "example.yaml"
    path.write_text(block.text)
    with time_limit(SECONDS_PER_EXAMPLE, block.id):
        outcome = run_file(path)
    if "fails" in block.opts:  # a failure shown in the docs: its messages are the next text block's lines
        shown = BLOCKS[BLOCKS.index(block) + 1]
        assert shown.lang == "text", f"{block.id}: a failing scenario is followed by its messages in a text block"
        assert len(outcome.failures) == int(block.opts["fails"]), [d.message for d in outcome.failures]
        assert [d.message for d in outcome.failures] == shown.text.strip().splitlines()
        return
    assert outcome.passed, f"{block.id} (ruleset {ruleset.id}):\n" + "\n".join(
        d.render(block.text if d.file == str(path) else None) for d in outcome.failures)


# ------------------------------------------------------------------ rule examples
DIRECTIVE = re.compile(r"^(?P<indent>\s*)# (?P<what>expect|answer|options|prompt|says|winners|error|finally"
                       r"|visible to \d+|hidden from \d+|told to \d+|told to all): ?(?P<arg>.*)$")


@dataclass
class RuleExample:
    code: str  # the rule text with checks in place of '# expect:' lines
    checks: list[str] = field(default_factory=list)
    # (labels to check, prompt to check, answer); None: not checked
    decisions: list[tuple[list | None, str | None, int]] = field(default_factory=list)
    says: list[str] = field(default_factory=list)
    winners: list | None = None
    visible: list[tuple[bool, int, str]] = field(default_factory=list)
    final: list[str] = field(default_factory=list)
    error: str | None = None
    told: list[tuple[int | None, str]] = field(default_factory=list)  # (viewer, a narrated line)


def parse_rule_example(text: str) -> RuleExample:
    out = RuleExample("")
    lines = []
    labels = prompt = None  # an '# options:' / '# prompt:' waiting for its decision

    def decide(answer: int) -> None:
        nonlocal labels, prompt
        out.decisions.append((labels, prompt, answer))
        labels = prompt = None
    for line in textwrap.dedent(text).splitlines():
        m = DIRECTIVE.match(line)
        if not m:
            lines.append(line)
            continue
        indent, what, arg = m.group("indent"), m.group("what"), m.group("arg").strip()
        if what == "expect":
            k = len(out.checks)
            out.checks.append(arg)
            lines += [f"{indent}append {k} to doc_checked",
                      f"{indent}if not ({arg}):",
                      f"{indent}    append {k} to doc_failures"]
        elif what == "options":
            if labels is not None:
                decide(0)
            labels = json.loads(arg)
        elif what == "prompt":
            if prompt is not None:
                decide(0)
            prompt = arg
        elif what == "answer":
            decide(int(arg))
        elif what == "says":
            out.says.append(arg)
        elif what == "winners":
            out.winners = json.loads(arg)
        elif what == "error":
            out.error = arg
        elif what == "finally":
            out.final.append(arg)
        elif what.startswith("told to "):
            who = what[len("told to "):]
            out.told.append((None if who == "all" else int(who), arg))
        else:
            word, _, p = what.rpartition(" ")
            out.visible.append((word == "visible to", int(p), arg))
    if labels is not None or prompt is not None:
        decide(0)
    out.code = "\n".join(lines).strip("\n") + "\n"
    return out


def host_with(code: str) -> str:
    host = host_block().text
    at = host.index(MARKER)
    line_start = host.rindex("\n", 0, at) + 1
    indent = " " * (at - line_start)
    line_end = host.index("\n", at)
    body = textwrap.indent(code, indent, lambda s: True).rstrip("\n")
    text = host[:line_start] + body + host[line_end:]
    # the checks' bookkeeping: two lists the examples never mention
    return text.replace("\nvars:\n", "\nvars:\n  doc_checked: {type: list of int, initial: '[]'}\n"
                        "  doc_failures: {type: list of int, initial: '[]'}\n", 1)


def evaluate(program, st, expr: str):
    doc, diags = load_text(yaml.safe_dump({"x": expr}), "<check>")
    assert not diags
    from rulebook.testing.scenarios import snippets_of

    probe, diags = snippets_of(program).expr(doc, ("x",))
    assert probe is not None, "\n".join(d.render() for d in diags)
    return probe.value(st)


@pytest.mark.parametrize("block", of_kind("rule", "example"), ids=lambda b: b.id)
def test_rule_example(block):
    ex = parse_rule_example(block.text)
    text = host_with(ex.code)
    compiled = compile_text(text, block.id)
    if ex.error and ex.error.startswith(("E", "W")):
        codes = [d.code for d in compiled.report.diagnostics]
        assert ex.error in codes, f"{block.id}: expected {ex.error}, got:\n{render(compiled, text)}"
        return
    assert compiled.program is not None, f"{block.id}:\n{render(compiled, text)}"
    program = compiled.program
    game = Game(program)
    decisions = list(ex.decisions)
    players = int(block.opts.get("players", 3))
    try:
        with time_limit(SECONDS_PER_EXAMPLE, block.id):
            st = game.new(players=players, seed=int(block.opts.get("seed", 0)))
            made = 0
            while not st.over:
                for p in game.to_move(st):
                    labels, prompt, answer = decisions.pop(0) if decisions else (None, None, 0)
                    if labels is not None:
                        got = game.options(st, p).labels
                        assert got == labels, f"{block.id}: decision {made + 1}: options {got}, expected {labels}"
                    if prompt is not None:
                        got = game.prompt(st, p)
                        assert got == prompt, f"{block.id}: decision {made + 1}: prompt {got!r}, expected {prompt!r}"
                    game.apply(st, p, answer)
                    made += 1
                assert made < 200, f"{block.id}: too many decisions"
    except RulebookError as err:
        assert ex.error, f"{block.id}: the example failed while running: {err}"
        assert err.code == ex.error, f"{block.id}: expected {ex.error}, got {err}"
        return
    assert not ex.error, f"{block.id}: expected error {ex.error}, but the example ran"
    assert not decisions, f"{block.id}: {len(decisions)} answer(s) left over: fewer decisions than expected"
    failed = [ex.checks[k] for k in st.vars["doc_failures"]]
    assert not failed, f"{block.id}: expectations failed: {failed}"
    unchecked = [c for k, c in enumerate(ex.checks) if k not in st.vars["doc_checked"]]
    assert not unchecked, f"{block.id}: expectations never reached: {unchecked}"
    said = [e[1] for e in st.events if e[0] == "say"]
    for text_ in ex.says:
        assert text_ in said, f"{block.id}: expected say {text_!r}, got {said}"
    if ex.winners is not None:
        assert st.winners == ex.winners, f"{block.id}: winners {st.winners}, expected {ex.winners}"
    for expr in ex.final:
        assert evaluate(program, st, expr), f"{block.id}: once the example has run, {expr} does not hold"
    for viewer, line in ex.told:
        from rulebook.interpreter.narrate import narrate

        lines = narrate(st, st.events, viewer)
        assert line in lines, f"{block.id}: {'a spectator' if viewer is None else f'player {viewer}'} " \
                              f"was not told {line!r}; told {lines}"
    for visible, p, expr in ex.visible:
        c = evaluate(program, st, expr)
        shown = "hidden" not in component_view(st, c, p)
        assert shown == visible, f"{block.id}: {expr} is {'visible' if shown else 'hidden'} to player {p}"


@pytest.mark.parametrize("block", of_kind("python", "example"), ids=lambda b: b.id)
def test_python_example(block, monkeypatch):
    """A ```python example``` (the Python API: the decision interface) runs
    as written from the repository's root; its asserts are its checks."""
    monkeypatch.chdir(ROOT)
    exec(compile(block.text, block.id, "exec"), {"__name__": "docs_example"})


# ------------------------------------------------------------------ the blocks themselves
def test_every_block_is_checked_or_plain_text():
    checked = {("yaml", "example"), ("yaml", "fragment"), ("yaml", "scenario"), ("rule", "example"),
               ("python", "example")}
    for b in BLOCKS:
        assert (b.lang, b.kind) in checked or (b.lang == "text" and not b.kind), \
            f"{b.id}: ```{b.lang} {b.kind}``` is neither a checked example nor ```text"


def test_there_are_examples():
    assert len(of_kind("rule", "example")) >= 80
    assert len(of_kind("yaml", "example")) + len(of_kind("yaml", "fragment")) >= 15
    assert of_kind("yaml", "scenario")


# ------------------------------------------------------------------ completeness
def headings(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if re.match(r"^#{1,6} ", line)]


def test_every_builtin_has_a_heading():
    hs = headings(LANGUAGE)
    missing = [name for name in BUILTINS if not any(f"`{name}(" in h for h in hs)]
    assert not missing, f"builtins without a heading `name(...)` in docs/language.md: {missing}"


def grammar_statements() -> dict[str, str]:
    """statement rule -> its leading keywords ('' when it starts with a name)."""
    out = {}
    for line in GRAMMAR.read_text().splitlines():
        m = re.match(r"^([a-z]\w*_stmt):\s*(.*)$", line)
        if m:
            words = []
            for tok in m.group(2).split():
                lit = re.fullmatch(r'"([a-z]+)"', tok)
                if not lit:
                    break
                words.append(lit.group(1))
            out[m.group(1)] = " ".join(words)
    return out


def test_every_statement_has_a_heading():
    stmts = grammar_statements()
    assert "let_stmt" in stmts and stmts["end_game_stmt"] == "end game"
    hs = headings(LANGUAGE)
    for rule, keywords in stmts.items():
        found = [h for h in hs if f"({rule})" in h]
        assert found, f"statement {rule} has no heading naming '({rule})' in docs/language.md"
        if keywords:
            assert f"`{keywords}" in found[0], f"the heading of {rule} should show `{keywords}`: {found[0]}"


def schema_fields(node, out=None) -> set[str]:
    out = set() if out is None else out
    if isinstance(node, dict):
        for k, v in (node.get("properties") or {}).items():
            out.add(k)
            schema_fields(v, out)
        for key in ("additionalProperties", "items"):
            if isinstance(node.get(key), dict):
                schema_fields(node[key], out)
        for alt in (node.get("oneOf") or []) + (node.get("anyOf") or []):
            schema_fields(alt, out)
    return out


def sections(path: Path) -> dict[str, str]:
    """'## `name` ...' heading -> the text up to the next '## ' heading, per name."""
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"^(## .*)$", text, flags=re.M)
    out = {}
    for i in range(1, len(parts), 2):
        for name in re.findall(r"`([a-z_]+)`", parts[i]):
            out[name] = parts[i + 1]
    return out


def test_every_schema_property_is_documented():
    schema = json.loads(SCHEMA.read_text())
    secs = sections(FORMAT)
    for prop, spec in schema["properties"].items():
        assert prop in secs, f"top-level field '{prop}' has no '## `{prop}`' section in docs/format.md"
        fields = schema_fields(spec)
        text = secs[prop]
        missing = sorted(f for f in fields if f"`{f}`" not in text)
        assert not missing, f"docs/format.md, section {prop}: fields not documented: {missing}"
        # field tables list only fields of the schema
        for table in re.findall(r"^\| field \|.*\n\|[-| ]+\|\n((?:\|.*\n)+)", text, flags=re.M):
            for row in table.splitlines():
                for name in re.findall(r"`([A-Za-z_]+)`", row.split("|")[1]):
                    assert name in fields, f"docs/format.md, section {prop}: '{name}' is not a field of the schema"
