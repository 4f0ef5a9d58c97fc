"""docs/tutorial.md stays true: its files and its command outputs are checked.

The tutorial is read as a script, top to bottom, in a fresh folder:

- a ```` ```yaml file=PATH ```` block writes PATH (a ruleset version, a
  scenario). A ``ruleset.yaml`` block must compile without errors, or, when it
  says ``error=CODE at=LINE:COL``, fail with exactly that first error there;
  ``warn=W1,W2`` lists the warnings it must give (none otherwise).
- a ```` ```console ```` block holds commands (``$ rulebook ...``, optionally
  ``# exit N``) each followed by what it prints. Each command is run as the
  real ``rulebook`` runs (``rulebook.cli.main``, standard output and error
  together) in the folder as it stands at that point, and must print exactly
  what the tutorial shows (only the ``time:`` line of a simulation is
  ignored, since it is a measurement).

Last, the files the tutorial ends with are the ones in examples/nim, so the
example CI validates, tests and simulates is the tutorial's game.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path

from rulebook.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
EXAMPLE = ROOT / "examples" / "nim"
GAME = "games/nim"  # where the tutorial's reader writes the game

FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
TIME_LINE = re.compile(r"^time: .*$", re.M)


def blocks(text: str | None = None) -> list[dict]:
    """The fenced blocks of the tutorial with their info string parsed, in order."""
    text = TUTORIAL.read_text(encoding="utf-8") if text is None else text
    out = []
    for m in FENCE.finditer(text):
        words = m["info"].split()
        lang = words[0] if words else ""
        attrs = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        line = text.count("\n", 0, m.start()) + 1
        out.append({"lang": lang, "attrs": attrs, "body": m["body"], "line": line})
    return out


def file_blocks() -> list[dict]:
    return [b for b in blocks() if b["lang"] == "yaml" and "file" in b["attrs"]]


def commands(body: str) -> list[tuple[str, int | None, str]]:
    """(command, expected exit code or None, expected output) for each ``$`` line."""
    out: list[list] = []
    for line in body.splitlines(keepends=True):
        if line.startswith("$ "):
            cmd, _, comment = line[2:].rstrip("\n").partition("#")
            m = re.fullmatch(r"\s*exit (\d+)\s*", comment)
            out.append([cmd.strip(), int(m.group(1)) if m else None, ""])
        elif out:
            out[-1][2] += line
        elif line.strip():
            raise AssertionError(f"console block starts with output, not a command: {line!r}")
    return [tuple(c) for c in out]


def run_rulebook(cmd: str, cwd: Path) -> tuple[int, str]:
    """Run ``rulebook ARGS`` as the installed command does; stdout and stderr in one text, in order."""
    argv = shlex.split(cmd)
    assert argv[0] == "rulebook", f"only rulebook commands can be checked: {cmd}"
    buf = io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                main(argv[1:])
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        os.chdir(old)
    return code, buf.getvalue()


def normal(text: str) -> str:
    text = TIME_LINE.sub("time: ...", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def play_through(workdir: Path, on_command=None) -> list[tuple[dict, tuple, int, str]]:
    """Run the tutorial in workdir.

    Returns (block, (command, exit code shown, output shown), exit code, output) for every command."""
    ran = []
    for b in blocks():
        if b["lang"] == "yaml" and "file" in b["attrs"]:
            path = workdir / b["attrs"]["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b["body"], encoding="utf-8")
        elif b["lang"] == "console":
            for want in commands(b["body"]):
                code, output = run_rulebook(want[0], workdir)
                ran.append((b, want, code, output))
                if on_command:
                    on_command(b, want, code, output)
    return ran


def test_the_tutorial_has_what_it_should():
    """The steps the tutorial promises are there: a mistake, scenarios, every command it teaches."""
    bs = blocks()
    rulesets = [b for b in file_blocks() if b["attrs"]["file"] == f"{GAME}/ruleset.yaml"]
    assert len(rulesets) >= 4
    assert any("error" in b["attrs"] for b in rulesets[1:]), "no deliberate mistake"
    assert any("/scenarios/" in b["attrs"]["file"] for b in file_blocks())
    shown = " ".join(cmd for b in bs if b["lang"] == "console" for cmd, _, _ in commands(b["body"]))
    for command in ("validate", "play", "explain", "graph", "test", "simulate", "-v misere"):
        assert command in shown, f"the tutorial runs no 'rulebook {command}'"


def _ruleset_versions():
    return [b for b in file_blocks() if b["attrs"]["file"].endswith("ruleset.yaml")]


@pytest.mark.parametrize("block", _ruleset_versions(), ids=lambda b: f"line{b['line']}")
def test_each_ruleset_version_gives_what_the_tutorial_says(block, tmp_path):
    path = tmp_path / "ruleset.yaml"
    path.write_text(block["body"], encoding="utf-8")
    report = compile_path(path, ()).report
    errors = report.sorted()
    errors = [d for d in errors if d.severity == "error"]
    warnings = sorted(d.code for d in report.sorted() if d.severity == "warning")
    want = block["attrs"].get("error")
    if want is None:
        assert not errors, f"tutorial line {block['line']}: " + "; ".join(d.render() for d in errors)
    else:
        assert errors, f"tutorial line {block['line']}: expected {want}, the ruleset loads"
        first = errors[0]
        assert first.code == want
        if "at" in block["attrs"]:
            assert f"{first.line}:{first.column}" == block["attrs"]["at"]
    assert warnings == sorted(w for w in block["attrs"].get("warn", "").split(",") if w)


def test_the_commands_print_what_the_tutorial_shows(tmp_path):
    failures = []

    def check(block, want, code, output):
        cmd, want_code, want_out = want
        if normal(output) != normal(want_out):
            failures.append(f"tutorial line {block['line']}: $ {cmd}\n--- shown:\n{want_out}--- printed now:\n{output}")
        if want_code is not None and code != want_code:
            failures.append(f"tutorial line {block['line']}: $ {cmd} exits {code}, the tutorial says {want_code}")
        elif want_code is None and code != 0:
            failures.append(f"tutorial line {block['line']}: $ {cmd} exits {code}; add '# exit {code}'")

    ran = play_through(tmp_path, check)
    assert ran, "the tutorial runs no command"
    assert not failures, "\n\n".join(failures)


def test_the_tutorial_ends_with_examples_nim():
    last: dict[str, str] = {}
    for b in file_blocks():
        last[b["attrs"]["file"]] = b["body"]
    assert f"{GAME}/ruleset.yaml" in last
    for name, body in last.items():
        rel = Path(name).relative_to(GAME)
        assert (EXAMPLE / rel).is_file(), f"examples/nim has no {rel} (the tutorial writes it)"
        assert (EXAMPLE / rel).read_text(encoding="utf-8") == body, f"examples/nim/{rel} differs from the tutorial"


def test_the_checks_catch_a_wrong_output():
    """The comparison is not vacuous: a changed output or a missing command fails it."""
    assert normal("a\nb\n") != normal("a\nc\n")
    assert normal("time: 0.03 s, 1 games/s\n") == normal("time: 9 s, 2 games/s")
    cmds = commands("$ rulebook validate x # exit 1\nx: FAILED\n$ rulebook test x\n1 passed\n")
    assert cmds == [("rulebook validate x", 1, "x: FAILED\n"), ("rulebook test x", None, "1 passed\n")]
