"""How long the language server takes to check a ruleset again after an
edit (a benchmark, not a test).

    python benchmarks/lsp_recheck.py --runs 20

For the largest seed ruleset, and for a ruleset of at least 2,000 lines made
from it (its procedures copied under new names until it is that long), each
run changes one name in a rule text, as a keystroke does, and times what the
server does before it publishes: the validator's whole pipeline on the
editor's text (``rulebook.lsp.analysis.analyse``), the names for hover and
completion, and the diagnostics in LSP form. The median and the slowest run
are printed, in milliseconds. The server waits ``DEBOUNCE`` after the last
keystroke before it starts; that pause is not counted.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook.lsp.analysis import analyse  # noqa: E402
from rulebook.lsp.diagnostics import to_lsp  # noqa: E402


def largest_seed_ruleset() -> Path:
    return max((ROOT / "rulesets").glob("*/ruleset.yaml"), key=lambda p: len(p.read_text(encoding="utf-8")))


def grown(text: str, lines: int) -> str:
    """``text`` with copies of its procedures (``name_2``, ``name_3``, ...)
    added to its ``procedures:`` section until it has ``lines`` lines."""
    head, sep, rest = text.partition("\nprocedures:\n")
    body = re.match(r"((?:  .*\n|\n)*)", rest).group(1)
    tail = rest[len(body):]
    copies, k = [], 2
    while (head + body + "".join(copies) + tail).count("\n") < lines:
        copies.append(re.sub(r"^  ([A-Za-z_][A-Za-z0-9_]*):", rf"  \1_{k}:", body, flags=re.M))
        k += 1
    return head + sep + body + "".join(copies) + tail


def edits(text: str) -> list[str]:
    """Two texts that differ from ``text`` by one name in rule text (a typo, then its repair)."""
    m = re.search(r"\bcount\(", text)
    typo = text[:m.start()] + "coutn(" + text[m.end():]
    return [typo, text]


def measure(path: str, text: str, runs: int) -> tuple[float, float, int, int]:
    previous = analyse(path, text)
    times, found = [], 0
    for i in range(runs):
        edited = edits(text)[i % 2]
        start = time.perf_counter()
        result = analyse(path, edited, previous)
        [to_lsp(d, "file://" + path, result.lines) for d in result.diagnostics]
        times.append(time.perf_counter() - start)
        found = max(found, len(result.diagnostics))
        previous = result
    return statistics.median(times) * 1000, max(times) * 1000, text.count("\n"), found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--lines", type=int, default=2000, help="the size of the grown ruleset")
    args = ap.parse_args(argv)
    seed = largest_seed_ruleset()
    text = seed.read_text(encoding="utf-8")
    for label, body in ((seed.parent.name, text), (f"{seed.parent.name} grown", grown(text, args.lines))):
        median, slowest, lines, found = measure(str(seed), body, args.runs)
        print(f"{label:<20} {lines:>5} lines  re-check median {median:6.1f} ms  slowest {slowest:6.1f} ms  "
              f"(at most {found} diagnostics)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
