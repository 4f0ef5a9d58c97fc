"""Native builds of a hostile ruleset (issue 37, item 10): texts holding
quotes, backslashes, ``*/``, ``??/`` trigraphs, line breaks, U+2028 and
very long runs give a library that plays the same games as the Python
module, and nothing of the ruleset reaches the C as code: Cython copies
source lines into C comments, so a ``*/`` copied there must not end one.
One build (tens of seconds), so one test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from rulebook.compiler import native
from rulebook.compiler.build import compile_text
from rulebook.interpreter.game import Game

from rulebook.simulate.run import game_seed, play_one

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["*/ int pwned = 1; /*", "??/", "??=define X", "\\\\", "'", "'''", "\u2028", "a" * 3000,
           "\\n#include <pwned.h>", "*/"]


def hostile_nim() -> str:
    """Nim with the hostile texts in its title, a description and what its
    action says (written by ``yaml.safe_dump``, so YAML escapes them)."""
    data = yaml.safe_load((ROOT / "examples" / "nim" / "ruleset.yaml").read_text())
    data["title"] = "Nim */ ??/ \u2028 \\"
    data["params"]["sticks"]["description"] = " ".join(HOSTILE)
    effect = data["actions"]["take"]["effect"]
    data["actions"]["take"]["effect"] = effect + "".join(f'say "{h}"\n' for h in HOSTILE)
    return yaml.safe_dump(data, allow_unicode=False, sort_keys=False)


def _comments(c: str) -> list[str]:
    return re.findall(r"/\*.*?\*/", c, re.S)


@pytest.mark.skipif(native.missing() is not None, reason=str(native.missing()))
def test_a_hostile_ruleset_builds_as_native_code_that_plays_the_python_modules_games(tmp_path, monkeypatch):
    result = compile_text(hostile_nim(), "hostile.yaml")
    assert result.program is not None, result.report
    program = result.program
    kept = {}
    build = native._build

    def keep(name, source, folder):  # the C Cython wrote, to read after the build
        out = build(name, source, folder)
        kept["source"] = source
        kept["c"] = next(folder.glob("*.c")).read_text(encoding="utf-8", errors="replace")
        return out

    monkeypatch.setattr(native, "_build", keep)
    fast = native.native_program(program)
    py, nat = Game(program), Game(fast)
    assert [play_one(nat, 2, game_seed(0, i)) for i in range(6)] == [play_one(py, 2, game_seed(0, i))
                                                                      for i in range(6)]
    c = kept["c"]
    # the texts did reach the build (in the C they are string constants, which Cython may store
    # compressed; the C holds no copies of source lines in comments: native.CYTHON_FLAGS)
    assert "pwned" in kept["source"] and "??/" in kept["source"]
    assert fast.params == program.params and fast.title == program.title
    outside = re.sub(r"/\*.*?\*/", "", c, flags=re.S)
    outside = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', outside)  # C string literals (escaped by Cython)
    assert "int pwned = 1" not in outside and "<pwned.h>" not in outside  # (Cython names constants after
    # their text, as identifiers such as __pyx_kp_u_int_pwned_1: not code)
    assert "??/" not in outside and "??=" not in outside
    for comment in _comments(c):
        assert "*/" not in comment[2:-2]
