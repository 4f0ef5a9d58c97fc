"""The worst hostile files, each run as a user would run it, in a process
with a memory cap and a time limit (issue 22): each must be refused with
exit 1 and one clear message, well within the budget docs/security.md
states (``BUDGET_BYTES`` of address space, ``BUDGET_SECONDS`` of CPU). Before
issue 22 these read /dev/zero until MemoryError (3.7 GB), took 67 s and
7.5 GB, 1.4-7.6 GB for an alias bomb of texts, or exited 3."""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUDGET_BYTES = 1_000_000_000  # address space of the whole process, Python and its libraries included
BUDGET_SECONDS = 30  # CPU seconds


def _limits() -> None:  # in the child, when prlimit is not installed
    resource.setrlimit(resource.RLIMIT_AS, (BUDGET_BYTES, BUDGET_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (BUDGET_SECONDS, BUDGET_SECONDS))


def run_capped(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "rulebook.cli", *map(str, args)]
    prlimit = shutil.which("prlimit")
    if prlimit:
        command = [prlimit, f"--as={BUDGET_BYTES}", f"--cpu={BUDGET_SECONDS}", *command]
    try:
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=4 * BUDGET_SECONDS, preexec_fn=None if prlimit else _limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args}: still running after {4 * BUDGET_SECONDS} s")


def _save(tmp_path: Path) -> dict:
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    game = Game(compile_path(ROOT / "examples" / "tic-tac-toe" / "ruleset.yaml").program)
    data = game.save(game.new(players=2, seed=3))
    data.update(seed=3, humans=[1], bots="random")
    return data


def _log_header() -> dict:
    return {"rulebook_log": 1, "ruleset": "tic-tac-toe", "path": "x", "version": "1.0", "digest": "0",
            "variants": [], "players": 2, "seed": 3, "params": {}}


CASES = {
    "validate an alias bomb of long texts": ("validate", "alias.yaml"),
    "validate a billion laughs": ("validate", "laughs.yaml"),
    "validate a 5,000-digit number": ("validate", "digits.yaml"),
    "validate YAML nested 200,000 deep": ("validate", "deep.yaml"),
    "validate /dev/zero": ("validate", "/dev/zero"),
    "validate 4.8 MB of 199,000 values": ("validate", "many.yaml"),
    "resume /dev/zero": ("play", "tic-tac-toe", "--resume", "/dev/zero"),
    "resume JSON nested a million deep": ("play", "tic-tac-toe", "--resume", "deep.json"),
    "resume a 5,000-digit seed": ("play", "tic-tac-toe", "--resume", "digits.json"),
    "resume a save of a billion MCTS iterations": ("play", "tic-tac-toe", "--resume", "bots.json"),
    "resume a 20 MB save": ("play", "tic-tac-toe", "--resume", "big.json"),
    "replay /dev/zero": ("replay", "/dev/zero"),
    "replay a log line nested 900,000 deep": ("replay", "deep.jsonl"),
    "replay a log line of 2 MB": ("replay", "long.jsonl"),
    "a scenario whose ruleset is /dev/zero": ("test", "scenarios/zero.yaml"),
    "a scenario with a 5,000-digit seed": ("test", "scenarios/seed.yaml"),
}


def _write(t: Path, name: str) -> None:
    """The hostile file of case ``name`` in folder ``t``."""
    save = _save(t)
    header = json.dumps(_log_header())
    laughs = ["a: &a [" + ", ".join(["lol"] * 10) + "]"]
    laughs += [f"{n}: &{n} [" + ", ".join([f"*{p}"] * 10) + "]" for p, n in zip("abcdefgh", "bcdefghi")]
    (t / "scenarios").mkdir(exist_ok=True)
    files = {
        "alias.yaml": lambda: ("rulebook: 1\nid: bomb\ntitle: Bomb\nplayers: {min: 2, max: 2}\nnotes:\n  - &a \""
                               + "x" * 1_000_000 + "\"\n" + "  - *a\n" * 400),
        "laughs.yaml": lambda: "\n".join(laughs) + "\n",
        "digits.yaml": lambda: (ROOT / "examples" / "pig" / "ruleset.yaml").read_text().replace(
            "default: 100", "default: " + "9" * 5000),
        "deep.yaml": lambda: "a: " + "[" * 200_000 + "\n",
        "many.yaml": lambda: ("rulebook: 1\nid: big\ntitle: Big\nplayers: {min: 2, max: 2}\nnotes:\n"
                              + "".join(f"  - wwwwwwwwwww{i:06d} x\n" for i in range(199_000))),
        "scenarios/zero.yaml": lambda: "ruleset: /dev/zero\nplayers: 2\n",
        "scenarios/seed.yaml": lambda: "ruleset: tic-tac-toe\nseed: " + "9" * 5000 + "\n",
        "deep.json": lambda: json.dumps(save)[:-1] + ', "x": ' + "[" * 1_000_000 + "}",
        "digits.json": lambda: json.dumps(save).replace('"seed": 3', '"seed": ' + "9" * 5000, 1),
        "bots.json": lambda: json.dumps(dict(save, bots="mcts:iterations=1000000000")),
        "big.json": lambda: '{"format": 2, "pad": "' + "x" * 20_000_000 + '"}',
        "deep.jsonl": lambda: header + "\n" + "[" * 900_000 + "\n",
        "long.jsonl": lambda: header + "\n" + '{"say": "' + "x" * 2_000_000 + '"}\n',
    }
    for arg in CASES[name]:
        if arg in files:
            (t / arg).write_text(files[arg]())


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_file_is_refused_within_the_budget(tmp_path, name):
    _write(tmp_path, name)
    proc = run_capped(tmp_path, *CASES[name])
    shown = proc.stdout + proc.stderr
    assert proc.returncode == 1, f"{name}: exit {proc.returncode}\n{shown[-2000:]}"
    assert "Traceback" not in shown and "MemoryError" not in shown and "internal error" not in shown, shown[-2000:]
    assert len(shown) < 20_000, f"{name}: {len(shown)} characters of output"


# The rule-level worst cases of issue 22: rulesets whose rules, not files,
# would cost without end. Each runs as a user runs it, under the same caps;
# each either stops with its error, or (where the cost is now the size of
# the data, as charged) finishes.
_HEAD = "rulebook: 1\nid: hostile\ntitle: Hostile\nplayers: {min: 2, max: 2}\n"
_ONCE = "phases:\n  p:\n    on_begin: |\n"


def _nested_calls(levels: int, calls: int) -> str:
    out = "functions:\n"
    for level in range(levels):
        body = " + ".join([f"f{level + 1}(x)"] * calls) if level < levels - 1 else "x"
        out += f"  f{level}:\n    params: {{x: int}}\n    value: \"{body}\"\n"
    return out + "vars:\n  y: 0\n" + _ONCE + "      set y = f0(1)\n      end game\n"


RULE_CASES = {  # name: (ruleset body, command, exit code, what the output must say)
    "seven levels of ten nested calls": (_nested_calls(7, 10), "validate", 0, "ok"),
    "a chain of squaring definitions": (
        "define:\n  a: 3\n" + "".join(f"  {n}: \"{p} * {p}\"\n" for p, n in zip("abcdefghij", "bcdefghijk"))
        + _ONCE + "      end game\n", "validate", 1, "E064"),
    "repeat 40: set x = x * x": ("vars:\n  x: 3\n" + _ONCE + "      repeat 40:\n          set x = x * x\n"
                                 "      end game\n", "simulate", 1, "R107"),
    "set x *= a text": ("vars:\n  x: 3\n" + _ONCE + "      set x *= 'ab'\n      end game\n", "validate", 1, "E041"),
    "count_of a million items, a thousand times": (
        "vars:\n  xs: {type: list of int, initial: \"range(1000000)\"}\n  n: 0\n" + _ONCE
        + "      repeat 1000:\n          set n += count_of(xs, 999999)\n      end game\n", "simulate", 1, "R100"),
    "the difference of two disjoint lists of 300,000": (
        "vars:\n  xs: {type: list of int, initial: \"range(300000)\"}\n"
        "  ys: {type: list of int, initial: \"range(300000, 600000)\"}\n  n: 0\n" + _ONCE
        + "      set n = count(xs - ys)\n      end game\n", "simulate", 0, "errors: 0"),
}


@pytest.mark.parametrize("name", list(RULE_CASES))
def test_a_hostile_rule_stops_or_finishes_within_the_budget(tmp_path, name):
    body, command, code, says = RULE_CASES[name]
    (tmp_path / "hostile.yaml").write_text(_HEAD + body)
    args = ["validate", "hostile.yaml"] if command == "validate" else ["simulate", "hostile.yaml", "-n", "1"]
    proc = run_capped(tmp_path, *args)
    shown = proc.stdout + proc.stderr
    assert proc.returncode == code, f"{name}: exit {proc.returncode}\n{shown[-2000:]}"
    assert says in shown, shown[-2000:]
    assert "Traceback" not in shown and "MemoryError" not in shown, shown[-2000:]
