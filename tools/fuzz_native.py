"""Fuzz the native build with hostile texts for a while (issue 37, item 10).

    python tools/fuzz_native.py --seconds 600 --seed 20261207 [--out DIR]

Each round writes a ruleset (Nim, the smallest example) whose title,
descriptions and ``say`` lines hold a random choice of texts that are code
in C or in Cython's output (comment ends, trigraphs, preprocessor lines,
backslashes, quotes, line and paragraph separators, control-free random
unicode, long runs), builds it with ``--native`` in a fresh folder, and
checks what ``tests/hostile/test_native_hostile.py`` checks for its one fixed
ruleset: the library plays the Python module's games, and no hostile text
is in the generated C outside comments and string literals, and no comment
holds a comment end. A native build takes tens of seconds, so a
ten-minute run is a handful of rounds: each is printed as it ends, and
the summary says how many rounds ran and how many failed. Exit 1 on any
failure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulebook.compiler import native  # noqa: E402
from rulebook.compiler.build import compile_text  # noqa: E402
from rulebook.interpreter.game import Game  # noqa: E402

from rulebook.simulate.run import game_seed, play_one  # noqa: E402

PIECES = ["*/", "/*", "??/", "??=", "??(", "??)", "??'", "??<", "??!", "??>", "??-", "#include <x.h>", "#define X 1",
          "\\", "\\\\", "\\n", "\\x00", "'", '"', "'''", '"""', "\u2028", "\u2029", "int x = 1;", "}",
          "{", ";", "__pyx_", "cdef extern", "%s", "{player}", "#", "@", "$"]


def hostile_text(rng: random.Random) -> str:
    """A text made of hostile pieces, random printable unicode and long runs."""
    parts = []
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        if kind < 0.6:
            parts.append(rng.choice(PIECES))
        elif kind < 0.9:
            parts.append("".join(chr(rng.choice([rng.randint(0x21, 0x7e), rng.randint(0xa1, 0x2fff)]))
                                 for _ in range(rng.randint(1, 12))))
        else:
            parts.append(rng.choice(PIECES) * rng.randint(50, 400))
    return "".join(parts).replace("{", "{{").replace("}", "}}")  # braces stay text in a `say`


def hostile_nim(rng: random.Random) -> str:
    data = yaml.safe_load((ROOT / "examples" / "nim" / "ruleset.yaml").read_text())
    data["title"] = hostile_text(rng)
    data["params"]["sticks"]["description"] = hostile_text(rng)
    says = [hostile_text(rng) for _ in range(rng.randint(1, 4))]
    data["actions"]["take"]["effect"] += "".join(f"say {json.dumps(s)}\n" for s in says)
    return yaml.safe_dump(data, allow_unicode=rng.random() < 0.5, sort_keys=False)


def check_c(c: str) -> list[str]:
    """What is wrong in one generated C file (empty: nothing)."""
    wrong = []
    for comment in re.findall(r"/\*.*?\*/", c, re.S):
        if "*/" in comment[2:-2]:
            wrong.append("a comment holds a comment end")
    outside = re.sub(r"/\*.*?\*/", "", c, flags=re.S)
    outside = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', outside)
    outside = re.sub(r"'(?:[^'\\\n]|\\.)*'", "''", outside)
    for piece in ("??/", "??=", "#include <x.h>", "#define X 1"):
        if piece in outside:
            wrong.append(f"{piece!r} outside comments and strings")
    return wrong


def one_round(rng: random.Random) -> list[str]:
    text = hostile_nim(rng)
    result = compile_text(text, "hostile.yaml")
    if result.program is None:
        return [f"did not compile: {result.report}"]
    kept: dict[str, str] = {}
    build = native._build

    def keep(name, source, folder):
        out = build(name, source, folder)
        kept["c"] = next(folder.glob("*.c")).read_text(encoding="utf-8", errors="replace")
        return out

    native._build = keep
    try:
        fast = native.native_program(result.program)
    finally:
        native._build = build
    py, nat = Game(result.program), Game(fast)
    wrong = check_c(kept.get("c", ""))
    if [play_one(nat, 2, game_seed(0, i)) for i in range(4)] != [play_one(py, 2, game_seed(0, i)) for i in range(4)]:
        wrong.append("the native library plays other games than the Python module")
    return wrong


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if native.missing():
        print(f"no native build here: {native.missing()}")
        return 2
    os.environ["RULEBOOK_CACHE"] = "off"  # every round builds: a cached library would check nothing
    rng = random.Random(args.seed)
    start, rounds, failures = time.monotonic(), 0, []
    while time.monotonic() - start < args.seconds:
        began = time.monotonic()
        wrong = one_round(rng)
        rounds += 1
        print(f"round {rounds}: {'ok' if not wrong else '; '.join(wrong)} ({time.monotonic() - began:.0f} s)",
              flush=True)
        failures += [(rounds, w) for w in wrong]
    summary = {"seed": args.seed, "seconds": round(time.monotonic() - start), "rounds": rounds,
               "failures": len(failures)}
    print(json.dumps(summary))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "summary.json").write_text(json.dumps(summary | {"found": failures}, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
