"""A longer fuzz run: the fuzzers of tests/hostile/test_fuzz.py with many more examples.

    python tools/fuzz_long.py --examples 100000            # every fuzzer, 100000 examples each
    python tools/fuzz_long.py --examples 10000 --jobs 2 --fuzzer mutant --out /tmp/fuzz
    python tools/fuzz_long.py --list                        # the fuzzers' names

The test file runs each fuzzer with a few hundred fixed examples; this runs
the same strategies and the same checks (``fuzz_yaml``, ``fuzz_mutant`` per
ruleset, ``fuzz_rule_text``, ``fuzz_rule_program``) with fresh random
examples (``--seed``), and keeps going after a failure: every failure is
recorded under a signature (the exception and the innermost Rulebook source
line it came from), with its count and the shortest input that caused it.
Crashes already listed in ``KNOWN_CRASHES`` (and reproduced by strict xfail
tests) are counted apart as known. Each input runs with the tests' caps
(extra address space and seconds per compile or game), so a runaway input
is a recorded failure, not a stuck or swapping machine.

Prints a summary and, with ``--out DIR``, writes ``summary.json`` and one
``FUZZER-N.txt`` per failure signature (the input, and for a YAML input the
text to reproduce it with ``rulebook validate``). Exit code 1 when any new
(not known) failure was found.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import json
import multiprocessing
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


class _TimeUp(Exception):
    pass


def _module():
    from tests import test_fuzz
    return test_fuzz


def _input_text(fz, inp) -> str | None:
    """The text an input feeds to Rulebook, to reproduce a failure without Hypothesis."""
    if isinstance(inp, fz.YamlInput):
        return inp.text()
    if isinstance(inp, fz.MutantInput):
        text, selected, done = fz.make_mutant(inp)
        return f"# variants: {list(selected)}\n# mutations: {done}\n{text}"
    if isinstance(inp, fz.ProgramInput):
        return inp.text()
    if isinstance(inp, fz.RuleTextInput):
        return inp.final()
    return None


def _signature(err: BaseException) -> str:
    """The kind of failure: the underlying exception and where in Rulebook's
    own code it was raised (or the assertion's message for a broken property)."""
    root = err.__cause__ if err.__cause__ is not None else err
    frames = traceback.extract_tb(root.__traceback__)
    own = [f for f in frames if f.filename.startswith(str(ROOT)) and "/tests/" not in f.filename
           and "/tools/" not in f.filename]
    if isinstance(root, AssertionError) and not own:
        return f"AssertionError: {str(root).splitlines()[0][:120] if str(root) else ''}"
    where = f"{Path(own[-1].filename).relative_to(ROOT)}:{own[-1].lineno}" if own else (
        f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?")
    return f"{type(root).__name__} at {where}"


def run_fuzzer(job) -> dict:
    name, examples, seed, time_budget = job
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    fz = _module()
    strategy, body = fz.fuzzers()[name]
    tags: collections.Counter = collections.Counter()
    failures: dict[str, dict] = {}
    known: collections.Counter = collections.Counter()
    count = [0]
    started = time.monotonic()
    last = [started]

    def record(inp, err: BaseException) -> None:
        sig = _signature(err)
        entry = failures.setdefault(sig, {"signature": sig, "count": 0, "message": "", "input": None,
                                          "text": None, "traceback": ""})
        entry["count"] += 1
        r = repr(inp)
        if entry["input"] is None or len(r) < len(entry["input"]):
            entry["input"] = r
            entry["message"] = str(err)[:2000]
            root = err.__cause__ if err.__cause__ is not None else err
            entry["traceback"] = "".join(traceback.format_exception(type(root), root, root.__traceback__))[-6000:]
            try:
                entry["text"] = _input_text(fz, inp)
            except Exception as e:  # noqa: BLE001
                entry["text"] = f"(could not rebuild the input: {e!r})"

    @settings(max_examples=examples, deadline=None, derandomize=False, database=None, print_blob=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @hseed(seed)
    @given(inp=strategy)
    def run(inp):
        if time_budget and time.monotonic() - started > time_budget:
            raise _TimeUp()
        count[0] += 1
        try:
            for t in body(inp) or ():
                tags[t] += 1
                if ":known-crash:" in t:
                    known[t.rsplit(":", 1)[1]] += 1
        except (KeyboardInterrupt, _TimeUp):
            raise
        except BaseException as err:  # noqa: BLE001 - every failure is recorded, and the run goes on
            record(inp, err)
        if count[0] % 1000 == 0 or time.monotonic() - last[0] > 600:
            last[0] = time.monotonic()
            print(f"  {name}: {count[0]} examples, {len(failures)} failure kinds, "
                  f"{time.monotonic() - started:.0f}s", file=sys.stderr, flush=True)

    stopped = "done"
    try:
        run()
    except _TimeUp:
        stopped = "time budget"
    except KeyboardInterrupt:
        stopped = "interrupted"
    except Exception as err:  # noqa: BLE001 - Hypothesis itself gave up (e.g. an unsatisfiable strategy)
        stopped = f"hypothesis stopped: {type(err).__name__}: {str(err)[:200]}"
    return {"fuzzer": name, "examples": count[0], "seconds": round(time.monotonic() - started, 1), "seed": seed,
            "stopped": stopped, "outcomes": dict(tags.most_common()), "known_crashes": dict(known),
            "failures": sorted(failures.values(), key=lambda f: -f["count"])}


def write(out: Path, began, seed: int, examples: int, results: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    summary = {"started": began.isoformat(timespec="seconds"),
               "written": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"), "seed": seed,
               "examples_per_fuzzer": examples, "python": sys.version.split()[0], "pid": os.getpid(),
               "results": results}
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    for r in results:
        for i, f in enumerate(r["failures"]):
            safe = r["fuzzer"].replace(":", "-")
            (out / f"{safe}-{i + 1}.txt").write_text(
                f"# {f['signature']} (x{f['count']})\n# {f['message'][:500]}\n# input: {f['input']}\n"
                f"{f['traceback']}\n--- input text ---\n{f['text'] or ''}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=10_000, help="examples per fuzzer (default 10000)")
    ap.add_argument("--fuzzer", action="append", default=[],
                    help="run only fuzzers whose name starts with this (repeatable): yaml, rule_text, "
                         "rule_program, mutant, mutant:get-bit, ...")
    ap.add_argument("--jobs", type=int, default=1, help="fuzzers run in parallel processes")
    ap.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: from the clock)")
    ap.add_argument("--time-budget", type=float, default=0, help="stop each fuzzer after this many seconds")
    ap.add_argument("--out", type=Path, default=None, help="folder for summary.json and the failing inputs")
    ap.add_argument("--list", action="store_true", help="list the fuzzers and exit")
    args = ap.parse_args(argv)

    names = list(_module().fuzzers())
    if args.list:
        print("\n".join(names))
        return 0
    if args.fuzzer:
        names = [n for n in names if any(n.startswith(f) for f in args.fuzzer)]
        if not names:
            ap.error(f"no fuzzer matches {args.fuzzer}")
    seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
    began = datetime.datetime.now(datetime.UTC)
    print(f"fuzzing {len(names)} fuzzers x {args.examples} examples, seed {seed}, {args.jobs} job(s)",
          file=sys.stderr, flush=True)
    fz = _module()
    for path in fz.RULESETS:  # read once here: workers are forked from this process
        fz.ruleset_data(path)
    import rulebook.interpreter.narrate  # noqa: F401
    import rulebook.interpreter.view  # noqa: F401 - imported lazily by the fuzzers: load them before forking
    fz.test_rulesets_are_discovered_and_compile_unmutated()  # and warm the grammar

    def cost(name: str) -> float:  # the slowest first, so that parallel jobs end together
        if name.startswith("mutant:"):
            return fz.RULESETS[fz.RULESET_IDS.index(name.split(":", 1)[1])].stat().st_size
        return {"rule_program": 5_000, "yaml": 2_000, "rule_text": 1_000}.get(name, 0)
    jobs = [(n, args.examples, seed, args.time_budget) for n in sorted(names, key=cost, reverse=True)]
    results: list[dict] = []

    def done(result: dict) -> None:  # each fuzzer's result as soon as it ends, so a long run can be cut short
        results.append(result)
        print(f"  {result['fuzzer']}: finished, {result['examples']} examples, "
              f"{sum(f['count'] for f in result['failures'])} failures, {result['seconds']}s",
              file=sys.stderr, flush=True)
        if args.out:
            write(args.out, began, seed, args.examples, results)
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
            for result in pool.imap_unordered(run_fuzzer, jobs):
                done(result)
    else:
        for job in jobs:
            done(run_fuzzer(job))
    results.sort(key=lambda r: names.index(r["fuzzer"]))

    total = sum(r["examples"] for r in results)
    new = sum(len(r["failures"]) for r in results)
    print()
    print(f"{'fuzzer':<28} {'examples':>9} {'seconds':>8} {'failures':>9}  known crashes   stopped")
    for r in results:
        fails = sum(f["count"] for f in r["failures"])
        known = ", ".join(f"{k} x{v}" for k, v in r["known_crashes"].items()) or "-"
        print(f"{r['fuzzer']:<28} {r['examples']:>9} {r['seconds']:>8} {fails:>9}  {known:<15} {r['stopped']}")
    print(f"total: {total} examples, {new} new failure kind(s), seed {seed}, "
          f"started {began.isoformat(timespec='seconds')}")
    for r in results:
        for f in r["failures"]:
            print(f"\n[{r['fuzzer']}] {f['signature']} (x{f['count']})\n  {f['message'][:500]}\n  "
                  f"shortest input: {f['input'][:1000]}")
    if args.out:
        write(args.out, began, seed, args.examples, results)
        print(f"\nwrote {args.out}/summary.json", file=sys.stderr)
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
