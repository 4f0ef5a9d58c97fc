"""Fuzzing with hostile input (issue 8): whatever a ruleset file or a piece
of rule text holds, Rulebook answers with diagnostics or typed errors, never
with a Python exception.

Five fuzzers, each a plain function of one generated input so that
``tools/fuzz_long.py`` can run the same ones far longer:

* ``fuzz_yaml``: random YAML documents (nested mappings, lists and scalars
  dumped with ``yaml.safe_dump``, ruleset-shaped documents with random
  sections, and random text) given to ``compiler.build.compile_text``:
  it returns a report or a program and never raises.
* ``fuzz_mutant``: mutations of every real ruleset (``rulesets/*`` and
  ``examples/*``, found when the tests are collected): a key deleted, a
  value of another type, a reference (zone, phase, action, ...) renamed, a
  string truncated, random characters inserted, two values swapped.
  Compiling never raises; a mutant that still compiles plays a few short
  seeded games with random choices (at most ``DECISION_CAP`` decisions
  each) that run or stop with a ``RulebookError``, never another exception.
* ``fuzz_rule_text``: random rule text (random tokens, and grammar-shaped
  expressions and statements, then damaged) given to ``parse_block``,
  ``parse_expression`` and ``parse_template``: only ``ParseError``.
* ``fuzz_rule_program``: grammar-shaped statements put into a small ruleset
  (so that the name resolver, the type checker and the compiler see them),
  compiled and, when they compile, played like the mutants.
* ``fuzz_save``: a game of a real ruleset played a little, saved, its
  JSON edited with the same mutations: ``Game.load`` raises only
  ``SaveFileError`` (R020-R023), and a save it accepts plays on or stops
  with a ``RulebookError``.

A crash found by fuzzing is not patched here: it is kept as a strict xfail
reproduction below (``test_known_crash_*``) and listed in ``KNOWN_CRASHES``,
which the fuzzers tolerate so that they keep looking for other crashes. When
the engine is fixed the reproduction passes, its strict xfail fails, and
both entries get removed; the reproduction stays as a regression test
(``test_found_by_fuzzing_*``) or an ``@example``.

Run time: each test has a fixed ``max_examples``, ``derandomize=True`` (the
same examples on every run) and no deadline; the file takes well under a
minute on two cores.
"""
from __future__ import annotations

import json
import random
import re
import signal
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, example, given, note, settings
from hypothesis import strategies as hst
from rulebook.compiler.build import compile_text
from rulebook.dsl import ast as A
from rulebook.dsl.parser import KEYWORDS, ParseError, parse_block, parse_expression, parse_template
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game
from rulebook.validator.diagnostics import CODES, Report

ROOT = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------- settings
GAMES_PER_MUTANT = 3
DECISION_CAP = 300  # decisions per simulated game
# Smaller run-time limits than the defaults, so that a mutant that loops or
# makes huge decks stops quickly (with the same error codes).
FUZZ_LIMITS = {"max_steps": 20_000, "max_phase_entries": 200, "max_components": 5_000, "max_zones": 5_000}

FAST = settings(deadline=None, derandomize=True, database=None, print_blob=False,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))

# ----------------------------------------------------------------- known crashes
# name -> (predicate on the exception, reason). An exception matching a
# predicate is a crash already reproduced by a strict xfail test below.


def _raised_in(err: BaseException, file: str, function: str) -> bool:
    """Whether ``err`` went through ``function`` of Rulebook's ``file``."""
    import traceback
    return any(f.filename.replace("\\", "/").endswith(file) and f.name == function
               for f in traceback.extract_tb(err.__traceback__))


KNOWN_CRASHES: dict[str, tuple] = {}


def known_crash(err: BaseException) -> str | None:
    for name, (matches, _) in KNOWN_CRASHES.items():
        if matches(err):
            return name
    return None


def _note(text: str) -> None:
    """Hypothesis' ``note`` inside a test; nothing when a fuzzer body is
    called by hand to reproduce a failure."""
    from hypothesis.errors import InvalidArgument
    try:
        note(text)
    except InvalidArgument:
        pass


class Crash(AssertionError):
    """An exception Rulebook should not have let out."""


def crash(what: str, err: BaseException) -> Crash:
    return Crash(f"{what} raised {type(err).__name__}: {str(err)[:500]}")


# ----------------------------------------------------------------- resource caps
MEMORY_HEADROOM = 2 * 1024 ** 3  # bytes of address space a fuzzed input may add
TIME_CAP = 30.0  # seconds of CPU one compile or one simulated game may take


class TooSlow(Exception):
    """Raised by the time cap inside a compile or a game that takes too long."""


class capped:
    """Bound what one fuzzed input may use: its address space grows by at
    most MEMORY_HEADROOM (an unbounded allocation becomes a MemoryError
    instead of exhausting the machine) and it uses at most ``seconds`` of
    CPU (then TooSlow is raised inside it). Linux, main thread only; elsewhere
    nothing is capped.

    A class, not a ``contextlib.contextmanager``: the latter sets
    ``__traceback__`` on the exception passing through, which a frozen
    dataclass exception such as ParseError refuses."""

    def __init__(self, seconds: float = TIME_CAP):
        self.seconds = seconds
        self.old_limit = self.old_handler = None

    def __enter__(self):
        try:
            import resource
            with open("/proc/self/status") as f:
                vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
            self.old_limit = resource.getrlimit(resource.RLIMIT_AS)
            hard = self.old_limit[1]
            soft = vm + MEMORY_HEADROOM if hard == resource.RLIM_INFINITY else min(hard, vm + MEMORY_HEADROOM)
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except (ImportError, OSError, ValueError, StopIteration):
            self.old_limit = None
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            seconds = self.seconds

            def on_alarm(signum, frame):
                raise TooSlow(f"more than {seconds} seconds of CPU")
            # CPU time, not wall time: a busy machine does not make an input "too slow"
            self.old_handler = signal.signal(signal.SIGPROF, on_alarm)
            signal.setitimer(signal.ITIMER_PROF, seconds)
        return self

    def __exit__(self, *exc):
        if self.old_handler is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.old_handler)
        if self.old_limit is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, self.old_limit)
        return False


# ----------------------------------------------------------------- checks shared by the fuzzers
def no_repr(text: str, what: str) -> None:
    """No Python object's repr (``<... object at 0x...>``, ``<function ...>``,
    ``<class ...>``) in text a user reads."""
    assert not re.search(r"object at 0x|<(function|class|module|built-in|bound method|lambda) ", text), \
        f"a Python repr leaks into {what}: {text[:300]}"


def check_report(result, text: str) -> None:
    """A compile result is a program or a report of errors, and every
    diagnostic is well formed."""
    assert isinstance(result.report, Report)
    assert (result.program is None) == (not result.report.ok), "a program with errors, or no program and no error"
    for d in result.report.diagnostics:
        assert d.code in CODES, f"unknown diagnostic code {d.code}"
        assert isinstance(d.line, int) and isinstance(d.column, int) and d.line >= 1 and d.column >= 1, d
        assert isinstance(d.message, str) and d.message
        no_repr(d.render(text), "a diagnostic")  # rendering never raises, whatever the position


def compile_checked(text: str, selected: tuple = (), limits: dict | None = None, tags: list | None = None):
    """``compile_text`` with the never-raises property; None after a known crash."""
    tags = tags if tags is not None else []
    try:
        with capped():
            result = compile_text(text, "fuzz.yaml", tuple(selected), limits)
    except Exception as err:  # noqa: BLE001 - any exception is the failure being looked for
        if known_crash(err):
            tags.append(f"compile:known-crash:{known_crash(err)}")
            return None
        raise crash("compile_text", err) from err
    check_report(result, text)
    errors = result.report.errors
    tags.append("compile:ok" if result.program is not None else f"compile:{errors[0].code}")
    return result


def simulate(program, seed: int, games: int = GAMES_PER_MUTANT, cap: int = DECISION_CAP,
             tags: list | None = None) -> list[str]:
    """Play ``games`` short games with random seeded choices (labels, views,
    narration, scores and a save/load round trip included); each one runs
    or stops with a RulebookError. Returns what happened, for notes."""
    from rulebook.interpreter.narrate import narrate
    from rulebook.interpreter.view import view
    tags = tags if tags is not None else []
    game = Game(program)
    rnd = random.Random(seed)
    out = []
    for _ in range(games):
        lo, hi = program.min_players, program.max_players
        players = rnd.randint(lo, hi) if isinstance(lo, int) and isinstance(hi, int) and lo <= hi else lo
        game_seed = rnd.randrange(2 ** 32)
        decisions = 0
        try:
            with capped():
                st = game.new(players=players, seed=game_seed)
                while not game.is_over(st) and decisions < cap:
                    movers = game.to_move(st)
                    assert movers, "the game is not over but nobody is to move"
                    p = rnd.choice(movers)
                    options = game.options(st, p)
                    assert options, f"player {p} is to move with no option"
                    for o in options:
                        no_repr(o.label, "an option label")
                    view(st, p)
                    game.apply(st, p, rnd.randrange(len(options)))
                    decisions += 1
                    for line in narrate(st, st.events, None):
                        no_repr(line, "narration")
                    st.events.clear()
                game.scores(st)
                saved = json.loads(json.dumps(game.save(st)))
                game.load(saved)
            tags.append("game:over" if st.over else "game:cap")
            out.append(f"{players} players, seed {game_seed}: {decisions} decisions, over={st.over}")
        except RulebookError as err:
            no_repr(str(err), "a run-time error")
            tags.append(f"game:{getattr(err, 'code', 'R000')}")
            out.append(f"{players} players, seed {game_seed}: stopped after {decisions} decisions: "
                       f"{type(err).__name__} {getattr(err, 'code', '')}")
        except AssertionError:
            raise
        except Exception as err:  # noqa: BLE001
            if known_crash(err):
                tags.append(f"game:known-crash:{known_crash(err)}")
                continue
            raise crash(f"a game of {players} players with seed {game_seed} after {decisions} decisions "
                        f"(choices from random.Random({seed}))", err) from err
    return out


# ================================================================= a. random YAML documents
RULESET_KEYS = ["rulebook", "id", "title", "players", "min", "max", "default", "params", "define", "vars",
                "player_vars", "components", "zones", "events", "functions", "procedures", "setup", "start",
                "actions", "phases", "triggers", "end", "scoring", "variants", "patch", "requires", "excludes",
                "count", "for_each", "props", "label", "per", "of", "visibility", "ordered", "on_begin",
                "on_end", "end_if", "turn", "next", "to", "if", "effect", "on", "when", "value", "type",
                "initial", "params", "winners", "copies", "state", "board", "first", "repeat", "name",
                "<<", "__class__", "__proto__", ""]
RULE_SNIPPETS = ["end game", "move top(deck) to hand[current]", "count(deck) > 0", "{self.value}",
                 "range(1, 11)", "{0.__class__}", "__import__('os')", "say \"{x.__globals__}\"",
                 "while true:\n    pass\n", "players", "top(deck)", "1000000000", "-1", "none", ""]

# texts without control characters, which the loader refuses at once (E007): most texts are printable
# so that the fuzzer gets past the loader, and a short one of any characters keeps E007 itself fuzzed
printable = hst.characters(blacklist_categories=("Cs", "Cc"))
scalars = hst.one_of(
    hst.none(), hst.booleans(),
    hst.integers(), hst.integers(-3, 12),
    hst.floats(allow_nan=True, allow_infinity=True),
    hst.text(printable, max_size=20), hst.text(max_size=3), hst.sampled_from(RULE_SNIPPETS),
    hst.sampled_from(RULESET_KEYS),
)
keys = hst.one_of(hst.sampled_from(RULESET_KEYS), hst.text(printable, max_size=10), hst.integers(-2, 5),
                  hst.booleans())
yaml_values = hst.recursive(
    scalars,
    lambda kids: hst.one_of(hst.lists(kids, max_size=5), hst.dictionaries(keys, kids, max_size=5)),
    max_leaves=25,
)
ruleset_shaped = hst.fixed_dictionaries(
    {"rulebook": hst.one_of(hst.just(1), scalars),
     "id": hst.one_of(hst.just("fuzz"), scalars),
     "players": hst.one_of(hst.fixed_dictionaries({"min": hst.integers(-1, 12), "max": hst.integers(-1, 12)}),
                           yaml_values),
     "phases": hst.one_of(hst.dictionaries(hst.sampled_from(["a", "b", "start"]),
                                           hst.dictionaries(hst.sampled_from(RULESET_KEYS), yaml_values,
                                                            max_size=3), max_size=3), yaml_values)},
    optional={k: yaml_values for k in ("title", "params", "define", "vars", "player_vars", "components",
                                        "zones", "events", "functions", "procedures", "setup", "start",
                                        "actions", "triggers", "end", "scoring", "variants")},
)
YAML_TOKENS = ["- ", ": ", "? ", "&a ", "*a", "!!python/object/apply:os.system ['true']", "!!binary ", "!tag ",
               "{", "}", "[", "]", ",", "|", ">", "|-", "---", "...", "%YAML 1.1", "\n", "\n  ", "\n    ", "\t",
               "#", "'", '"', "<<: *a", "~", "null", "yes", "on", "0x1F", "1e3", ".inf", "2001-12-14",
               "rulebook: 1\n", "id: x\n", "phases:\n", "players: {min: 2, max: 2}\n"]
random_yaml_text = hst.one_of(
    hst.text(max_size=200),
    hst.lists(hst.one_of(hst.sampled_from(YAML_TOKENS), hst.text(max_size=4)), max_size=40).map("".join),
)


@dataclass(frozen=True)
class YamlInput:
    kind: str  # "data": dumped with yaml.safe_dump; "text": given as it is
    value: object

    def text(self) -> str:
        if self.kind == "text":
            return self.value
        return yaml.safe_dump(self.value, sort_keys=False, allow_unicode=True, default_flow_style=None)


yaml_inputs = hst.one_of(
    hst.builds(YamlInput, hst.just("data"), yaml_values),
    hst.builds(YamlInput, hst.just("data"), ruleset_shaped),
    hst.builds(YamlInput, hst.just("text"), random_yaml_text),
)


def fuzz_yaml(inp: YamlInput) -> list[str]:
    text = inp.text()
    _note(f"text = {text!r}")
    tags: list[str] = []
    result = compile_checked(text, tags=tags)
    if result is not None and result.program is not None:
        simulate(result.program, 0, games=1, cap=50, tags=tags)
    return tags


@settings(FAST, max_examples=250, deadline=None, derandomize=True)
@given(inp=yaml_inputs)
@example(inp=YamlInput("text", "a: &a [*a]"))
@example(inp=YamlInput("text", "!!python/object/apply:os.system ['echo pwned']"))
@example(inp=YamlInput("text", "rulebook: 1\nid: x\nplayers: {min: 2, max: 2}\nphases: {p: {on_begin: end game}}\n"))
@example(inp=YamlInput("data", {"rulebook": 1, "id": "x", "players": {"min": 3, "max": 2}, "phases": {}}))
def test_random_yaml_never_raises(inp):
    fuzz_yaml(inp)


# ================================================================= b. mutations of the real rulesets
def discover() -> list[Path]:
    return sorted(ROOT.glob("rulesets/*/ruleset.yaml")) + sorted(ROOT.glob("examples/*/ruleset.yaml"))


RULESETS = discover()
RULESET_IDS = [p.parent.name for p in RULESETS]
MUTANT_EXAMPLES = max(6, min(20, 150 // max(1, len(RULESETS))))  # per ruleset: the file stays fast
_sources: dict = {}


def ruleset_data(path: Path):
    if path not in _sources:
        text = path.read_text(encoding="utf-8")
        _sources[path] = yaml.safe_load(text)
    return _sources[path]


REF_SECTIONS = ("zones", "phases", "actions", "procedures", "functions", "components", "vars", "player_vars",
                "params", "define", "events", "triggers", "variants")
ODD_NAMES = ["__class__", "_hidden", "eval", "exec", "open", "__import__", "globals", "self", "event",
             "players", "current", "none", "true", "if", "1x", "deck deck", "", "x" * 80]
NEW_VALUES = [0, -1, 1, 10 ** 9, 10 ** 30, 2.5, "", "x", "none", "{0.__class__}", "{x.__globals__}", True,
              False, None, [], [1, "a"], {}, {"a": 1}, {"count": 10 ** 9}, [[[]]]]
INSERT_TOKENS = sorted(KEYWORDS) + ["(", ")", "[", "]", "{", "}", "{{", "}}", ":", ".", ",", ";", "=", "==",
                                    "=>", "<", ">", "+", "-", "*", "//", "%", "!", "&", "|", "\"", "'", "#",
                                    "\\", "\n", "\n    ", "\n  ", "    ", "\t", "_", "__class__", "0", "99999999999",
                                    "-0", "x", "deck", "current", "self", "event", "\x00", "é", "\u2028"]


def walk(node, path=()):
    """Every (path, value) of a plain data tree, the root first."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


def get_at(node, path):
    for k in path:
        node = node[k]
    return node


def set_at(node, path, value):
    get_at(node, path[:-1])[path[-1]] = value


def names_defined(data) -> list[str]:
    out = []
    if isinstance(data, dict):
        for section in REF_SECTIONS:
            if isinstance(data.get(section), dict):
                out += [str(k) for k in data[section]]
    return sorted(set(out))


@dataclass(frozen=True)
class Mutation:
    op: str
    a: int  # picks the target (modulo the number of candidates)
    b: int  # picks a second target, a position or a replacement
    text: str  # characters to insert or a new name

    def apply(self, data) -> str:
        """Mutate ``data`` in place; returns what was done, for notes."""
        return getattr(self, "_" + self.op)(data)

    def _delete(self, data):
        paths = [p for p, _ in walk(data) if p]
        if not paths:
            return "nothing to delete"
        path = paths[self.a % len(paths)]
        parent = get_at(data, path[:-1])
        del parent[path[-1]]
        return f"deleted {path}"

    def _swap_type(self, data):
        paths = [p for p, _ in walk(data) if p]
        if not paths:
            return "nothing to swap"
        path = paths[self.a % len(paths)]
        old = get_at(data, path)
        choices = [v for v in NEW_VALUES if type(v) is not type(old)] + ([self.text] if not isinstance(old, str)
                                                                           else [])
        new = choices[self.b % len(choices)]
        set_at(data, path, json.loads(json.dumps(new)))
        return f"{path}: {old!r:.40} -> {new!r:.40}"

    def _rename(self, data):
        names = names_defined(data)
        if not names:
            return "no names"
        old = names[self.a % len(names)]
        pool = [n for n in names if n != old] + ODD_NAMES + [old + "x", old[:-1], "_" + old, self.text or "y"]
        new = pool[(self.b // 3) % len(pool)]
        mode = self.b % 3
        word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(old) + r"(?![A-Za-z0-9_])")
        if mode == 0:  # the definition only: every reference now dangles
            for section in REF_SECTIONS:
                sec = data.get(section)
                if isinstance(sec, dict) and old in sec and new not in sec:
                    data[section] = {(new if k == old else k): v for k, v in sec.items()}
            return f"renamed the definition of {old!r} to {new!r}"
        strings = [p for p, v in walk(data) if isinstance(v, str) and word.search(v)]
        if mode == 2:
            strings = strings[self.a % len(strings):][:1] if strings else []
        for p in strings:
            set_at(data, p, word.sub(new, get_at(data, p)))
        return f"renamed {len(strings)} uses of {old!r} to {new!r}"

    def _strings(self, data):
        return [p for p, v in walk(data) if p and isinstance(v, str)]

    def _truncate(self, data):
        paths = [p for p in self._strings(data) if get_at(data, p)]
        if not paths:
            return "no strings"
        path = paths[self.a % len(paths)]
        old = get_at(data, path)
        cut = self.b % len(old)
        set_at(data, path, old[:cut])
        return f"{path} cut at {cut}: ...{old[max(0, cut - 20):cut]!r}"

    def _insert(self, data):
        paths = self._strings(data)
        if not paths:
            return "no strings"
        path = paths[self.a % len(paths)]
        old = get_at(data, path)
        at = self.b % (len(old) + 1)
        set_at(data, path, old[:at] + self.text + old[at:])
        return f"{path}: inserted {self.text!r} at {at}"

    def _swap_values(self, data):
        paths = [p for p, _ in walk(data) if p]
        if len(paths) < 2:
            return "nothing to swap"
        p, q = paths[self.a % len(paths)], paths[self.b % len(paths)]
        if p[:len(q)] == q or q[:len(p)] == p:  # one inside the other
            return "no swap"
        x, y = get_at(data, p), get_at(data, q)
        set_at(data, p, y)
        set_at(data, q, x)
        return f"swapped {p} and {q}"


insert_text = hst.lists(hst.one_of(hst.sampled_from(INSERT_TOKENS), hst.characters()), min_size=1,
                        max_size=5).map("".join)
mutations = hst.builds(
    Mutation,
    op=hst.sampled_from(["delete", "swap_type", "rename", "truncate", "insert", "swap_values"]),
    a=hst.integers(0, 2 ** 20), b=hst.integers(0, 2 ** 20),
    text=hst.one_of(insert_text, hst.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)),
)


@dataclass(frozen=True)
class MutantInput:
    ruleset: str  # folder name
    mutations: tuple
    variant: int  # 0: the base game; k: the k-th variant (modulo), with what it requires
    seed: int


def mutant_inputs(ruleset: str):
    return hst.builds(MutantInput, hst.just(ruleset), hst.lists(mutations, min_size=1, max_size=3).map(tuple),
                      hst.integers(0, 8), hst.integers(0, 2 ** 32 - 1))


def make_mutant(inp: MutantInput) -> tuple[str, tuple, list[str]]:
    """(the mutant's YAML text, the variants to select, what was done)."""
    path = RULESETS[RULESET_IDS.index(inp.ruleset)]
    data = json.loads(json.dumps(ruleset_data(path)))  # a fresh deep copy
    done = [m.apply(data) for m in inp.mutations]
    selected: tuple = ()
    variants = data.get("variants") if isinstance(data, dict) else None
    if inp.variant and isinstance(variants, dict) and variants:
        names = list(variants)
        name = names[(inp.variant - 1) % len(names)]
        spec = variants[name]
        requires = spec.get("requires") if isinstance(spec, dict) else None
        selected = tuple(str(r) for r in requires if isinstance(r, (str, int))) if isinstance(requires, list) else ()
        selected += (str(name),)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return text, selected, done


def validate_checked(text: str, tags: list) -> None:
    """``validate_path`` (what ``rulebook validate`` runs: the base game and
    every variant) never raises either."""
    import tempfile

    from rulebook.compiler.build import validate_path
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ruleset.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            with capped():
                report = validate_path(path)
        except Exception as err:  # noqa: BLE001
            if known_crash(err):
                tags.append(f"validate:known-crash:{known_crash(err)}")
                return
            raise crash("validate_path", err) from err
    for d in report.diagnostics:
        assert d.code in CODES, f"unknown diagnostic code {d.code}"
        no_repr(d.render(text), "a diagnostic")
    tags.append("validate:ok" if report.ok else f"validate:{report.errors[0].code}")


def fuzz_mutant(inp: MutantInput) -> list[str]:
    text, selected, done = make_mutant(inp)
    _note(f"mutations: {done}; variants {selected}")
    tags: list[str] = []
    if inp.variant == 0:  # one mutant in nine is also validated as the command line does
        validate_checked(text, tags)
    result = compile_checked(text, selected, FUZZ_LIMITS, tags)
    if result is not None and result.program is not None:
        _note("the mutant compiles; games: " + "; ".join(simulate(result.program, inp.seed, tags=tags)))
    return tags


def _mutant_test(ruleset: str):
    @settings(FAST, max_examples=MUTANT_EXAMPLES, deadline=None, derandomize=True)
    @given(inp=mutant_inputs(ruleset))
    def run(inp):
        fuzz_mutant(inp)
    return run


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_mutated_rulesets_compile_or_report_and_play_or_stop_cleanly(ruleset):
    _mutant_test(ruleset)()


def test_rulesets_are_discovered_and_compile_unmutated():
    assert RULESETS, "no ruleset found"
    for path in RULESETS:
        text = yaml.safe_dump(ruleset_data(path), sort_keys=False, allow_unicode=True, width=100)
        result = compile_checked(text)
        assert result is not None and result.program is not None, \
            f"{path} does not compile after a YAML round trip:\n" + "\n".join(d.render() for d in result.report.errors)


# ================================================================= c. random rule text
NAMES = ["x", "y", "c", "p", "deck", "hand", "current", "players", "self", "event", "score", "top", "count",
         "filter", "map", "range", "_x", "__class__", "eval", "open"]
RULE_TOKENS = sorted(KEYWORDS) + NAMES + [
    "(", ")", "[", "]", ",", ".", ":", ";", "=", "+=", "-=", "*=", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*",
    "//", "%", "=>", "0", "1", "42", "99999999999999999999", '"a"', "'b'", '"{x}"', '"{0.__class__}"', "#c",
    "\n", "\n    ", "\n        ", "\n  ", "\t", "\\\n", "{", "}", "!", "&", "|", "@", "$", "`", "?", "\x00"]

random_token_text = hst.lists(hst.sampled_from(RULE_TOKENS), max_size=30).flatmap(
    lambda toks: hst.sampled_from([" ", ""]).map(lambda sep: sep.join(toks)))

# grammar-shaped expressions and statements
atoms = hst.one_of(hst.sampled_from(NAMES), hst.integers(-5, 10 ** 12).map(str),
                   hst.sampled_from(['"a"', "'b c'", '"{x}"', "true", "false", "none", "[]"]))


def _expr_ext(e):
    return hst.one_of(
        hst.tuples(e, hst.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "and", "or", "in",
                                        "not in"]), e).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        e.map(lambda x: f"not {x}"), e.map(lambda x: f"-{x}"), e.map(lambda x: f"({x})"),
        hst.tuples(hst.sampled_from(NAMES), hst.sampled_from(["value", "owner", "suit", "__class__", "id"])).map(
            lambda t: f"{t[0]}.{t[1]}"),
        hst.tuples(e, e).map(lambda t: f"{t[0]}[{t[1]}]"),
        hst.tuples(hst.sampled_from(["count", "top", "filter", "map", "max", "sum", "range", "len", "sort",
                                     "any", "all", "first", "random", "str", "name", "zone", "f", "eval"]),
                   hst.lists(e, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        hst.tuples(hst.sampled_from(["c", "x"]), e).map(lambda t: f"{t[0]} => {t[1]}"),
        hst.tuples(e, e, e).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        hst.lists(e, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
    )


expressions = hst.recursive(atoms, _expr_ext, max_leaves=12)
simple_statements = hst.one_of(
    hst.tuples(hst.sampled_from(["x", "y", "c"]), expressions).map(lambda t: f"let {t[0]} = {t[1]}"),
    hst.tuples(hst.sampled_from(["x", "score", "c.value", "current.score"]), hst.sampled_from(["=", "+=", "-="]),
               expressions).map(lambda t: f"set {t[0]} {t[1]} {t[2]}"),
    hst.tuples(expressions, expressions).map(lambda t: f"move {t[0]} to {t[1]}"),
    hst.tuples(expressions, expressions).map(lambda t: f"draw 1 from {t[0]} to {t[1]}"),
    expressions.map(lambda x: f"shuffle {x}"),
    hst.tuples(expressions, expressions).map(lambda t: f"choose c from {t[0]} by {t[1]}"),
    hst.sampled_from(["end game", "end turn", "end phase", "pass", "return", "say \"hi {x}\"",
                      "say \"{0.__class__}\"", "say \"{x.__globals__}\"", "emit ping", "f(1)",
                      "end game winners [current]", "remove top(deck)", "create card in deck"]),
)


def _block_ext(body):
    indented = body.map(lambda b: "\n".join("    " + line for line in b.split("\n")))
    return hst.one_of(
        hst.lists(body, min_size=1, max_size=3).map("\n".join),
        hst.tuples(expressions, indented).map(lambda t: f"if {t[0]}:\n{t[1]}"),
        hst.tuples(expressions, indented, indented).map(lambda t: f"if {t[0]}:\n{t[1]}\nelse:\n{t[2]}"),
        hst.tuples(expressions, indented).map(lambda t: f"for c in {t[0]}:\n{t[1]}"),
        hst.tuples(expressions, indented).map(lambda t: f"while {t[0]}:\n{t[1]}"),
        hst.tuples(expressions, indented).map(lambda t: f"repeat {t[0]}:\n{t[1]}"),
    )


statements = hst.recursive(simple_statements, _block_ext, max_leaves=8)


@dataclass(frozen=True)
class Damage:
    kind: str
    at: int
    text: str

    def apply(self, s: str) -> str:
        i = self.at % (len(s) + 1)
        if self.kind == "insert":
            return s[:i] + self.text + s[i:]
        if self.kind == "delete":
            return s[:i] + s[i + len(self.text):]
        if self.kind == "truncate":
            return s[:i]
        if self.kind == "dedent":  # remove a few spaces at the start of a line
            lines = s.split("\n")
            k = self.at % len(lines)
            lines[k] = lines[k][min(len(self.text), len(lines[k]) - len(lines[k].lstrip(" "))):]
            return "\n".join(lines)
        return s


damages = hst.lists(hst.builds(Damage, hst.sampled_from(["insert", "delete", "truncate", "dedent"]),
                               hst.integers(0, 10 ** 6), hst.sampled_from(RULE_TOKENS + ["  ", " "])), max_size=2)


@dataclass(frozen=True)
class RuleTextInput:
    text: str
    damage: tuple = ()

    def final(self) -> str:
        s = self.text
        for d in self.damage:
            s = d.apply(s)
        return s


rule_texts = hst.one_of(
    hst.builds(RuleTextInput, random_token_text),
    hst.builds(RuleTextInput, hst.text(max_size=60)),
    hst.builds(RuleTextInput, expressions, damages.map(tuple)),
    hst.builds(RuleTextInput, statements, damages.map(tuple)),
)

PARSE_CODES = {"E020", "E021", "E022", "E024"}


def _only_parse_errors(fn, text: str, codes: set) -> str:
    try:
        with capped():
            out = fn(text)
    except ParseError as err:
        assert err.code in codes, f"{fn.__name__} gave {err.code}, expected one of {sorted(codes)}"
        assert isinstance(err.line, int) and isinstance(err.column, int) and err.line >= 1 and err.column >= 1
        assert isinstance(err.message, str) and err.message
        return f"{fn.__name__}:{err.code}"
    except Exception as err:  # noqa: BLE001
        if known_crash(err):
            return f"{fn.__name__}:known-crash:{known_crash(err)}"
        raise crash(f"{fn.__name__}({text!r})", err) from err
    if fn is parse_block:
        assert isinstance(out, A.Block)
    elif fn is parse_template:
        assert isinstance(out, list)
    return f"{fn.__name__}:ok"


def fuzz_rule_text(inp: RuleTextInput) -> list[str]:
    text = inp.final()
    _note(f"text = {text!r}")
    return [_only_parse_errors(parse_block, text, PARSE_CODES),
            _only_parse_errors(parse_expression, text, PARSE_CODES),
            _only_parse_errors(parse_template, text, PARSE_CODES | {"E023"})]


@settings(FAST, max_examples=600, deadline=None, derandomize=True)
@given(inp=rule_texts)
@example(inp=RuleTextInput("(" * 60 + "1" + ")" * 60))
@example(inp=RuleTextInput("x" * 30_000))
@example(inp=RuleTextInput("if true:\n" + "".join("    " * i + "if true:\n" for i in range(1, 60)) + "    pass"))
@example(inp=RuleTextInput("say \"{0.__class__}\""))
@example(inp=RuleTextInput("{x.__globals__}"))
@example(inp=RuleTextInput("say '\\N{nope}'"))
@example(inp=RuleTextInput("if true:\n    pass\n  pass\n"))
@example(inp=RuleTextInput("-" * 600 + "1"))
def test_random_rule_text_raises_only_parse_errors(inp):
    fuzz_rule_text(inp)


# ================================================================= d. rule text inside a ruleset
PROGRAM_HEAD = """\
rulebook: 1
id: fuzz
title: Fuzz
players: {min: 2, max: 3}
params:
  n: 3
components:
  card:
    for_each: {value: "range(1, 7)", suit: "['a', 'b']"}
    state:
      marked: false
    label: "{self.suit} {self.value}"
zones:
  deck: {of: card, visibility: hidden}
  hand: {per: player, of: card, visibility: owner}
  pile: {of: card}
vars:
  x: 0
  y: {type: int, initial: 0}
player_vars:
  score: 0
events:
  ping: {}
procedures:
  proc:
    params: {k: int}
    effect: |
      set x += k
functions:
  f:
    params: {k: int}
    value: "k + 1"
setup: |
  move components(card) to deck
  shuffle deck
  deal 2 from deck to hand
"""


@dataclass(frozen=True)
class ProgramInput:
    body: RuleTextInput
    seed: int

    def text(self) -> str:
        body = self.body.final() or "pass"
        return PROGRAM_HEAD + yaml.safe_dump(
            {"phases": {"main": {"on_begin": body + "\nend game\n"}}}, sort_keys=False, allow_unicode=True)


program_inputs = hst.builds(ProgramInput, hst.one_of(
    hst.builds(RuleTextInput, statements),
    hst.builds(RuleTextInput, statements, damages.map(tuple))), hst.integers(0, 2 ** 32 - 1))


def fuzz_rule_program(inp: ProgramInput) -> list[str]:
    text = inp.text()
    _note(text)
    tags: list[str] = []
    result = compile_checked(text, (), FUZZ_LIMITS, tags)
    if result is not None and result.program is not None:
        _note("games: " + "; ".join(simulate(result.program, inp.seed, games=2, cap=50, tags=tags)))
    return tags


@settings(FAST, max_examples=250, deadline=None, derandomize=True)
@given(inp=program_inputs)
@example(inp=ProgramInput(RuleTextInput("let c = top(deck)\nset c.marked = true\nsay \"{c.__class__}\""), 0))
@example(inp=ProgramInput(RuleTextInput("choose c from hand[current] by current label \"{c.value}\"\n"
                                        "move c to pile"), 1))
def test_rule_text_in_a_ruleset_compiles_or_reports_and_runs_or_stops_cleanly(inp):
    fuzz_rule_program(inp)


# ================================================================= e. damaged saved games
_programs: dict = {}


def ruleset_program(name: str):
    """The compiled base game of a discovered ruleset (cached)."""
    if name not in _programs:
        path = RULESETS[RULESET_IDS.index(name)]
        _programs[name] = compile_text(path.read_text(encoding="utf-8"), str(path)).program
    return _programs[name]


@dataclass(frozen=True)
class SaveInput:
    ruleset: str
    decisions: int  # random decisions played before saving
    seed: int
    mutations: tuple  # applied to the saved data, like a ruleset's mutations


save_inputs = hst.builds(SaveInput, hst.sampled_from(RULESET_IDS) if RULESET_IDS else hst.nothing(),
                         hst.integers(0, 120), hst.integers(0, 2 ** 32 - 1),
                         hst.lists(mutations, min_size=1, max_size=3).map(tuple))


def fuzz_save(inp: SaveInput) -> list[str]:
    """A saved game edited at random: Game.load refuses it with a
    SaveFileError, or loads it, and then the game plays on (a few random
    decisions) or stops with a RulebookError."""
    from rulebook.interpreter.errors import SaveFileError
    program = ruleset_program(inp.ruleset)
    if program is None:
        return ["save:ruleset-does-not-compile"]
    game = Game(program)
    rnd = random.Random(inp.seed)
    players = rnd.randint(program.min_players, program.max_players)
    st = game.new(players=players, seed=inp.seed)
    for _ in range(inp.decisions):
        if game.is_over(st):
            break
        p = rnd.choice(game.to_move(st))
        game.apply(st, p, rnd.randrange(len(game.options(st, p))))
    data = json.loads(json.dumps(game.save(st)))
    done = [m.apply(data) for m in inp.mutations]
    _note(f"{players} players, seed {inp.seed}, {inp.decisions} decisions; edits: {done}")
    try:
        with capped():
            loaded = game.load(data)
    except SaveFileError as err:
        assert err.code in ("R020", "R021", "R022", "R023"), err.code
        no_repr(str(err), "a save error")
        return [f"load:{err.code}"]
    except Exception as err:  # noqa: BLE001
        if known_crash(err):
            return [f"load:known-crash:{known_crash(err)}"]
        raise crash("Game.load", err) from err
    tags = ["load:accepted"]
    from rulebook.interpreter.view import view
    try:
        with capped():
            for _ in range(50):
                if game.is_over(loaded):
                    break
                movers = game.to_move(loaded)
                assert movers, "a loaded game is not over but nobody is to move"
                p = rnd.choice(movers)
                options = game.options(loaded, p)
                view(loaded, p)
                game.apply(loaded, p, rnd.randrange(len(options)))
            game.scores(loaded)
        tags.append("game:over" if loaded.over else "game:cap")
    except RulebookError as err:
        tags.append(f"game:{getattr(err, 'code', 'R000')}")
    except Exception as err:  # noqa: BLE001 - AssertionError too: a loaded game nobody can move
        name = known_crash(err)
        if name:
            return tags + [f"game:known-crash:{name}"]
        if isinstance(err, AssertionError):
            raise
        raise crash("a loaded game", err) from err
    return tags


@settings(FAST, max_examples=40, deadline=None, derandomize=True)
@given(inp=save_inputs)
def test_damaged_saves_are_refused_or_play_on_cleanly(inp):
    fuzz_save(inp)


# ================================================================= the program compiled by test d is sane
def test_the_fuzzing_ruleset_head_compiles():
    result = compile_checked(ProgramInput(RuleTextInput("pass"), 0).text())
    assert result is not None and result.program is not None, \
        "\n".join(d.render() for d in result.report.errors)
    assert simulate(result.program, 0, games=1)


# ================================================================= crashes found by fuzzing
@pytest.mark.parametrize("initial", ["[]", "[1, 2]"])
def test_found_by_fuzzing_a_component_state_written_as_a_list(initial):
    """The long run's survive and lifeboat mutants: a list as a changing
    property's initial value passed the schema and reached the rule-text
    parser as a list (TypeError). It is now a literal value, like a list in
    ``vars``."""
    text = ("rulebook: 1\nid: unit\nplayers: {min: 2, max: 2}\ncomponents:\n  card:\n    count: 1\n"
            f"    state:\n      at: {initial}\nzones:\n  deck: {{}}\nphases:\n  p:\n    on_begin: |\n"
            "      move components(card) to deck\n"
            "      end game winners [first(deck).at[0]] if len(first(deck).at) > 0 else []\n")
    result = compile_text(text, "unit.yaml")
    assert result.program is not None, [d.render() for d in result.report.errors]
    game = Game(result.program)
    st = game.new(players=2)
    assert st.over and game.scores(st) is not None
    assert st.winners == yaml.safe_load(initial)[:1]


def test_a_component_state_literal_of_the_wrong_type_is_E041():
    text = ("rulebook: 1\nid: unit\nplayers: {min: 2, max: 2}\ncomponents:\n  card:\n    count: 1\n"
            "    state:\n      at: {type: bool, initial: 3}\nzones:\n  deck: {}\nphases:\n  p:\n    on_begin: |\n"
            "      end game\n")
    result = compile_text(text, "unit.yaml")
    assert [d.code for d in result.report.errors] == ["E041"]
    assert (result.report.errors[0].line, result.report.errors[0].column) == (8, 33)


PENDING_CHOICE = """\
rulebook: 1
id: unit
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 5)"}
zones:
  hand: {of: card}
setup: |
  move components(card) to hand
phases:
  p:
    on_begin: |
      choose c from hand by 0
      end game winners [0]
"""


@pytest.mark.parametrize("damage", ["option-text", "option-list", "option-negative", "option-too-big", "all-done"])
def test_found_by_fuzzing_a_save_with_damaged_pending_options_is_refused(damage):
    from rulebook.interpreter.errors import SaveFileError
    game = Game(compile_text(PENDING_CHOICE, "unit.yaml").program)
    data = json.loads(json.dumps(game.save(game.new(players=2))))
    pend = data["state"]["pending"]
    assert pend["type"] == "comp" and pend["players"] == [0]
    if damage == "all-done":
        pend["done"] = [True] * len(pend["done"])
    else:
        pend["options"][0][0] = {"option-text": "x", "option-list": [1], "option-negative": -5,
                                 "option-too-big": 10 ** 6}[damage]
    with pytest.raises(SaveFileError) as err:
        game.load(data)
    assert err.value.code == "R023"


@pytest.mark.parametrize("variants", [5, None, True], ids=repr)
def test_found_by_fuzzing_a_save_whose_variants_are_not_a_list(variants):
    from rulebook.interpreter.errors import SaveFileError
    program = compile_text("rulebook: 1\nid: unit\nplayers: {min: 2, max: 2}\nphases:\n  p:\n    on_begin: |\n"
                           "      choose q from players by 0\n      end game\n", "unit.yaml").program
    game = Game(program)
    data = json.loads(json.dumps(game.save(game.new(players=2))))
    data["variants"] = variants
    with pytest.raises(SaveFileError) as err:
        game.load(data)
    assert err.value.code in ("R020", "R021")


# Each was found by these fuzzers (or while writing them), reported and
# fixed in the engine; the reproduction stays as a regression test. The
# range and value-size crashes found the same way are in tests/hostile/test_limits.py.
@pytest.mark.parametrize("items", ["[{value: 1}, {colour: red}]", "[{value: 1}, {value: x}]"],
                         ids=["missing-property", "text-and-number"])
def test_found_by_fuzzing_a_score_that_fails_outside_a_rule_is_R104(items):
    """The long run's lifeboat mutants: Game.scores evaluated the scoring
    expression outside the interpreter loop, so a KeyError or TypeError of
    the score escaped (and 'rulebook play' crashed at the end of a game)."""
    text = ("rulebook: 1\nid: unit\nplayers: {min: 2, max: 2}\ncomponents:\n  card:\n"
            f"    items: {items}\nzones:\n  deck: {{}}\nphases:\n  p:\n    on_begin: |\n"
            "      move components(card) to deck\n      choose q from players by 0\n      end game winners [q]\n"
            "scoring:\n  score: \"sum(components(card), c => c.value)\"\n")
    result = compile_text(text, "unit.yaml")
    if "colour" in items:  # a row without the property the score reads: refused at load since, at the row
        assert [(d.code, d.line) for d in result.report.errors] == [("E032", 6)]
        return
    assert result.program is not None, [d.render() for d in result.report.errors]
    game = Game(result.program)
    st = game.new(players=2)
    with pytest.raises(RulebookError) as err:
        game.scores(st)
    assert err.value.code == "R104" and "unit.yaml" in err.value.where
    no_repr(str(err.value), "a run-time error")
    game.apply(st, 0, 0)  # the game ends with explicit winners; its scores still fail cleanly
    with pytest.raises(RulebookError):
        game.scores(st)


def test_found_by_fuzzing_a_component_property_that_reads_a_zone_is_refused():
    """The long run's survive mutants: a component property reading a zone
    compiled (the loader's dry run swallowed the error), then Game.new
    raised AttributeError: zones do not exist when components are made."""
    text = ("rulebook: 1\nid: unit\nplayers: {min: 2, max: 2}\ncomponents:\n  card:\n    count: 2\n"
            "    props:\n      n: \"count(deck)\"\nzones:\n  deck: {}\nphases:\n  p:\n    on_begin: |\n"
            "      move components(card) to deck\n      end game\n")
    result = compile_text(text, "unit.yaml")
    assert result.program is None
    assert [d.code for d in result.report.errors] == ["E041"]
    assert result.report.errors[0].line == 5  # the component type


def test_found_by_fuzzing_a_dedent_to_an_unknown_column_is_E020():
    """Rule text going back to a column no block started at made Lark's
    indenter raise DedentError through parse_block and compile_text."""
    with pytest.raises(ParseError) as err:
        parse_block("if true:\n    pass\n  pass\n")
    assert err.value.code == "E020"
    text = ("rulebook: 1\nid: unit\nplayers: {min: 2, max: 2}\nphases:\n  p:\n    on_begin: |\n"
            "      if true:\n          pass\n        end game\n")
    result = compile_text(text, "unit.yaml")
    assert [d.code for d in result.report.errors] == ["E020"]
    assert result.report.errors[0].line >= 7


# ================================================================= f. save, log and scenario files (issue 22)
# What a user may be handed: a save, a log or a scenario file, damaged in
# its data (the mutations above) or in its text (characters inserted,
# deleted, cut, brackets or digits piled up). Each is read from a file as
# the command line reads it; the answer is a located R02x error (a save, a
# log) or failures of that scenario, never another exception, a hang or an
# answer that is not placed in the file.
LOCATED = re.compile(r"^\S+:\d+:\d+: error\[R02\d\]: ")
TEXT_DAMAGE = ["[" * 200, "{" * 200, "9" * 200, "NaN", "\\u001b", "\\ud800", "\x00", "\n", "", "]",
               '"', ":", ",", "null", "true", "-1", "1e999", "\xff"]


@dataclass(frozen=True)
class FileInput:
    ruleset: str
    decisions: int
    seed: int
    mutations: tuple  # of the data, like a ruleset's
    damage: tuple  # of the text: (position, characters to delete, text to insert)


text_damage = hst.tuples(hst.integers(0, 2 ** 20), hst.integers(0, 8),
                         hst.one_of(hst.sampled_from(TEXT_DAMAGE), hst.text(max_size=6)))
file_inputs = hst.builds(FileInput, hst.sampled_from(RULESET_IDS) if RULESET_IDS else hst.nothing(),
                         hst.integers(0, 60), hst.integers(0, 2 ** 32 - 1),
                         hst.lists(mutations, max_size=2).map(tuple), hst.lists(text_damage, max_size=3).map(tuple))


def _damaged(text: str, damage: tuple) -> str:
    for at, cut, insert in damage:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + cut:]
    return text


def _played(inp: FileInput):
    """A game of the input's ruleset, played a little with random decisions."""
    program = ruleset_program(inp.ruleset)
    game = Game(program)
    rnd = random.Random(inp.seed)
    st = game.new(players=rnd.randint(program.min_players, program.max_players), seed=inp.seed)
    for _ in range(inp.decisions):
        if game.is_over(st):
            break
        p = rnd.choice(game.to_move(st))
        game.apply(st, p, rnd.randrange(len(game.options(st, p))))
    return game, st, rnd


def _located(err, what: str) -> str:
    assert LOCATED.match(str(err)), f"{what}: an error without its place: {err}"
    no_repr(str(err), what)
    assert "\x1b" not in str(err)
    return err.code


def fuzz_save_file(inp: FileInput) -> list[str]:
    """A save file as ``rulebook play --resume`` reads it (rulebook.files.saves):
    refused with a located R02x error, or loaded and played on cleanly."""
    import tempfile

    from rulebook.interpreter.errors import SaveFileError

    from rulebook.files.saves import read_save
    if ruleset_program(inp.ruleset) is None:
        return ["save_file:ruleset-does-not-compile"]
    game, st, rnd = _played(inp)
    data = json.loads(json.dumps(game.save(st)))
    data.update(seed=inp.seed, humans=[1], bots="random")
    done = [m.apply(data) for m in inp.mutations]
    text = _damaged(json.dumps(data), inp.damage)
    _note(f"edits: {done}; text: {text[:3000]!r}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "save.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            with capped():
                save = read_save(path)
                loaded = save.load(game)
                assert save.bots
        except SaveFileError as err:
            return [f"save_file:{_located(err, 'a save error')}"]
        except Exception as err:  # noqa: BLE001
            raise crash("read_save/Save.load", err) from err
    try:
        with capped():
            for _ in range(20):
                if game.is_over(loaded):
                    break
                p = rnd.choice(game.to_move(loaded))
                game.apply(loaded, p, rnd.randrange(len(game.options(loaded, p))))
    except RulebookError as err:
        return ["save_file:accepted", f"game:{getattr(err, 'code', 'R000')}"]
    return ["save_file:accepted"]


def fuzz_log_file(inp: FileInput) -> list[str]:
    """A log as ``rulebook replay`` reads it (rulebook.files.logs): refused with a
    located R02x error, or replayed."""
    import tempfile

    from rulebook.interpreter.errors import SaveFileError

    from rulebook.files.logs import LogWriter, read, replay
    if ruleset_program(inp.ruleset) is None:
        return ["log_file:ruleset-does-not-compile"]
    game, st, _ = _played(inp)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        again = game.new(players=st.n, seed=inp.seed)
        log = LogWriter(path, game, again, inp.seed, RULESETS[RULESET_IDS.index(inp.ruleset)])
        for entry in st.history:
            option = game.options(again, entry[0]).by_value(entry[1])
            log.decision(entry[0], entry[1], option.label)
            game.apply(again, entry[0], option)
        log.close()
        records = [json.loads(line) for line in path.read_text().splitlines()]
        done = [m.apply(records) for m in inp.mutations]
        lines = [json.dumps(r) if not isinstance(r, str) else r for r in records]
        text = _damaged("\n".join(lines) + "\n", inp.damage)
        _note(f"edits: {done}; text: {text[:3000]!r}")
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            with capped():
                replayed = replay(game, read(path))
        except SaveFileError as err:
            return [f"log_file:{_located(err, 'a log error')}"]
        except Exception as err:  # noqa: BLE001
            raise crash("logs.read/replay", err) from err
    assert len(replayed.labels) == len(replayed) - 1
    return ["log_file:replayed"]


def _scenario_texts() -> list[tuple[Path, str]]:
    return [(f, f.read_text(encoding="utf-8")) for r in RULESETS
            for f in sorted((r.parent / "scenarios").glob("*.yaml"))]


SCENARIOS = _scenario_texts()


@dataclass(frozen=True)
class ScenarioInput:
    scenario: int
    mutations: tuple
    damage: tuple


scenario_inputs = hst.builds(ScenarioInput, hst.integers(0, max(0, len(SCENARIOS) - 1)),
                             hst.lists(mutations, max_size=2).map(tuple), hst.lists(text_damage, max_size=3).map(tuple))


def fuzz_scenario_file(inp: ScenarioInput) -> list[str]:
    """A scenario file beside its ruleset, damaged: it passes or fails with
    diagnostics, and never fails by an exception the runner had to catch
    ('the scenario could not run: ...')."""
    import shutil
    import tempfile

    from rulebook.testing.scenarios import run_file
    original, text = SCENARIOS[inp.scenario]
    data = yaml.safe_load(text)
    done = [m.apply(data) for m in inp.mutations] if isinstance(data, dict) else []
    if done:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    text = _damaged(text, inp.damage)
    _note(f"{original.name}; edits: {done}; text: {text[:3000]!r}")
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "game"
        (game / "scenarios").mkdir(parents=True)
        shutil.copy(original.parent.parent / "ruleset.yaml", game / "ruleset.yaml")
        path = game / "scenarios" / original.name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with capped():
            outcome = run_file(path)
    for d in outcome.failures:
        assert "could not run" not in d.message, f"the scenario runner caught an exception: {d.message}"
        assert d.code in CODES or d.code.startswith("R"), d.code
        no_repr(d.render(), "a scenario failure")
    return ["scenario:passed" if outcome.passed else f"scenario:failed:{outcome.failures[0].code}"]


@settings(FAST, max_examples=30, deadline=None, derandomize=True)
@given(inp=file_inputs)
def test_damaged_save_files_are_refused_at_their_place_or_play_on(inp):
    fuzz_save_file(inp)


@settings(FAST, max_examples=30, deadline=None, derandomize=True)
@given(inp=file_inputs)
def test_damaged_logs_are_refused_at_their_place_or_replay(inp):
    fuzz_log_file(inp)


@settings(FAST, max_examples=30, deadline=None, derandomize=True)
@given(inp=scenario_inputs)
def test_damaged_scenario_files_fail_with_diagnostics(inp):
    fuzz_scenario_file(inp)


# ================================================================= the fuzzers, for tools/fuzz_long.py
# name -> (strategy, body); a ruleset's mutants are one fuzzer each.
def fuzzers() -> dict:
    out = {
        "yaml": (yaml_inputs, fuzz_yaml),
        "rule_text": (rule_texts, fuzz_rule_text),
        "rule_program": (program_inputs, fuzz_rule_program),
        "save": (save_inputs, fuzz_save),
        "save_file": (file_inputs, fuzz_save_file),
        "log_file": (file_inputs, fuzz_log_file),
        "scenario_file": (scenario_inputs, fuzz_scenario_file),
    }
    for name in RULESET_IDS:
        out[f"mutant:{name}"] = (mutant_inputs(name), fuzz_mutant)
    return out




LONG_RUN_SAVES = {
    "frames-deleted": SaveInput(ruleset="lifeboat", decisions=72, seed=5707, mutations=(
        Mutation(op="delete", a=655, b=298708, text="returnreturn"), Mutation(op="delete", a=655, b=72, text="and"))),
    "names-renamed-and-swapped": SaveInput(ruleset="survive", decisions=96, seed=80132138, mutations=(
        Mutation(op="rename", a=588298, b=454, text="w03XHIe"), Mutation(op="rename", a=478, b=2389, text="ew_m3E"),
        Mutation(op="swap_values", a=478, b=2389, text="ew_m3E"))),
    "item-deleted": SaveInput(ruleset="rock-paper-scissors", decisions=0, seed=198, mutations=(
        Mutation(op="delete", a=20654, b=58835, text="A"),)),
    # the long run swapped two pairs; since Survive's creature rules changed (issue 18) the same game's two
    # swaps hit the same pair and cancel out, so one swap is kept: the save is edited, as the case needs
    "values-swapped": SaveInput(ruleset="survive", decisions=117, seed=516733183, mutations=(
        Mutation(op="swap_values", a=110726, b=381, text="gN"),)),
}


@pytest.mark.parametrize("name", LONG_RUN_SAVES)
def test_found_by_fuzzing_edited_saves_that_loaded_are_refused(name):
    """The long run's save fuzzer (2026-11-29): edited saves that passed
    every check of the saved tables, then failed in play (nobody to move,
    TypeError, IndexError). Loading now replays the seed and decisions and
    compares, so each is R023."""
    assert fuzz_save(LONG_RUN_SAVES[name]) == ["load:R023"]
