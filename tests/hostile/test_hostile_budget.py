"""The worst hostile files, each run as a user would run it, in a process
with a memory cap and a time limit (issue 22): each must be refused with
exit 1 and one clear message, well within the budget docs/security.md
states (``BUDGET_BYTES`` of address space, ``BUDGET_SECONDS`` of CPU). Before
issue 22 these read /dev/zero until MemoryError (3.7 GB), took 67 s and
7.5 GB, 1.4-7.6 GB for an alias bomb of texts, or exited 3."""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUDGET_BYTES = 1_000_000_000  # address space of the whole process, Python and its libraries included
BUDGET_SECONDS = 30  # CPU seconds


def _limits(space: int, seconds: int):
    def limit() -> None:  # in the child, when prlimit is not installed
        resource.setrlimit(resource.RLIMIT_AS, (space, space))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    return limit


def run_capped(tmp_path: Path, *args, space: int = BUDGET_BYTES, seconds: int = BUDGET_SECONDS
               ) -> subprocess.CompletedProcess:
    """The command line run with ``args`` in a process of at most ``space``
    bytes of address space and ``seconds`` of CPU."""
    command = [sys.executable, "-m", "rulebook.cli", *map(str, args)]
    prlimit = shutil.which("prlimit")
    if prlimit:
        command = [prlimit, f"--as={space}", f"--cpu={seconds}", *command]
    # this checkout's code, not whichever the installed package points at
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    try:
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=4 * seconds, preexec_fn=None if prlimit else _limits(space, seconds), env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args}: still running after {4 * seconds} s")


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


# Issue 37, item 8: rules that passed every budget, each played as a user
# plays it (``play FILE --seed 1``) in 2 GB of address space and 20 s of CPU.
# Before: MemoryError and exit 3 (str, say), hangs (distinct, append, killed at
# 20 s), an action of 29 s (nested calls), and R104 only in play (copies).
PLAY_SPACE, PLAY_SECONDS = 2_000_000_000, 20
_SHARED_TEXT = ("vars:\n  s: \"'x'\"\n  ys: {type: list of str, initial: \"[]\"}\n  t: \"''\"\n" + _ONCE
                + "      repeat 19:\n          set s = s + s\n      set ys = [s]\n"
                "      repeat 19:\n          set ys = ys + ys\n")


def _calls_ten_times_nine_deep() -> str:
    out = "functions:\n"
    for k in range(10):
        body = " + ".join([f"f{k - 1}(n)"] * 10) if k else "n"
        out += f"  f{k}:\n    params: {{n: int}}\n    value: \"{body}\"\n"
    return out + "vars:\n  y: 0\n" + _ONCE + "      set y = f9(1)\n      end game\n"


def _procedures_ten_calls_nine_deep() -> str:
    out = "vars:\n  y: 0\nprocedures:\n"
    for k in range(10):
        body = "".join([f"p{k - 1}()\n"] * 10) if k else "set y = y + 1\n"
        out += f"  p{k}:\n    effect: |\n" + "".join(f"      {line}\n" for line in body.splitlines())
    return out + _ONCE + "      p9()\n      end game\n"


def _triggers_ten_events_nine_deep() -> str:
    out = "vars:\n  y: 0\nevents:\n" + "".join(f"  e{k}: {{}}\n" for k in range(10)) + "triggers:\n"
    for k in range(10):
        body = "".join([f"emit e{k - 1}\n"] * 10) if k else "set y = y + 1\n"
        out += f"  t{k}:\n    on: e{k}\n    effect: |\n" + "".join(f"      {line}\n" for line in body.splitlines())
    return out + _ONCE + "      emit e9\n      end game\n"


PLAY_CASES = {  # name: (ruleset body, exit code, (its error's code, the text it names, the column in it) or None)
    "str() of a list sharing one text of 512 K characters 2**19 times": (
        _SHARED_TEXT + "      set t = str(ys)\n      end game\n", 1, ("R107", "set t = str(ys)", 0)),
    "say of that list": (_SHARED_TEXT + "      say \"{ys}\"\n      end game\n", 1, ("R107", "say \"{ys}\"", 0)),
    "distinct() of a list sharing one row of 500,000 numbers 2**19 times": (
        "vars:\n  row: {type: list of int, initial: \"range(500000)\"}\n"
        "  ys: {type: list of list of int, initial: \"[]\"}\n  n: 0\n" + _ONCE
        + "      set ys = [row]\n      repeat 19:\n          set ys = ys + ys\n      set n = count(distinct(ys))\n"
        "      end game\n", 1, ("R100", "set n = count(distinct(ys))", 0)),
    "190,000 appends": ("vars:\n  xs: {type: list of int, initial: \"[]\"}\n" + _ONCE
                        + "      repeat 190000:\n          append 1 to xs\n      end game\n", 0, None),
    "ten calls a level, nine levels deep": (_calls_ten_times_nine_deep(), 1, ("R100", "set y = f9(1)", 0)),
    "procedures: ten calls a level, nine levels deep": (_procedures_ten_calls_nine_deep(), 1,
                                                        ("R100", re.compile(r"p[1-8]\(\)"), 0)),
    "triggers: ten events a level, nine levels deep": (_triggers_ten_events_nine_deep(), 1,
                                                        ("R100", re.compile(r"emit e[0-8]"), 0)),
    "copies from a parameter whose default is -1": (
        "params:\n  n: {default: -1, type: int}\ncomponents:\n  card:\n    for_each: {v: \"range(3)\"}\n"
        "    copies: n\n" + _ONCE + "      end game\n", 1, ("E014", "copies: n", len("copies: "))),
}


@pytest.mark.parametrize("name", list(PLAY_CASES))
def test_a_hostile_rule_played_stops_with_a_located_error_or_finishes(tmp_path, name):
    body, code, error = PLAY_CASES[name]
    text = _HEAD + body
    (tmp_path / "hostile.yaml").write_text(text)
    proc = run_capped(tmp_path, "play", "hostile.yaml", "--seed", "1", space=PLAY_SPACE, seconds=PLAY_SECONDS)
    shown = proc.stdout + proc.stderr
    assert proc.returncode == code, f"{name}: exit {proc.returncode}\n{shown[-2000:]}"
    if error is None:
        assert "Game over" in shown, shown[-2000:]
    elif isinstance(error[1], re.Pattern):  # the budget runs out somewhere among many like statements
        place = re.search(rf"hostile\.yaml:(\d+):(\d+): error\[{error[0]}\]", shown)
        assert place, shown[-2000:]
        line, column = int(place[1]), int(place[2])
        assert error[1].match(text.splitlines()[line - 1], column - 1), (text.splitlines()[line - 1], column)
    else:
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if error[1] in ln)
        column = text.splitlines()[line - 1].index(error[1]) + 1 + error[2]
        assert f"hostile.yaml:{line}:{column}: error[{error[0]}]" in shown, shown[-2000:]
    assert "Traceback" not in shown and "MemoryError" not in shown and "internal error" not in shown, shown[-2000:]
