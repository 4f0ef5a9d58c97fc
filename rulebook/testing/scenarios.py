"""Scenario files: tests written as data, beside the rules they test.

A scenario names a ruleset, variants, a player count and a seed, may run
its own setup effects after the ruleset's setup (to fix a deck order, give
hands, set counters), then plays listed decisions and checks expectations
written in the rule language::

    name: the highest card wins the trick
    players: 2
    seed: 3
    setup: |
      move components(card) to deck at bottom
    steps:
      - {player: 0, option: red 3}
      - expect: "count(trick) == 1"
    winners: [1]

Runs from ``rulebook test`` and from pytest; a failing expectation reports
the expression, its value and its line in the scenario file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulebook.files.locate import named_ruleset
from rulebook.files.saves import MAX_DECISIONS, MAX_PLAYERS
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game
from rulebook.interpreter.labels import literal, player_name
from rulebook.testing.why_failed import explain
from rulebook.validator.diagnostics import Diagnostic, did_you_mean
from rulebook.validator.files import Field, shape_errors
from rulebook.validator.loader import Document, load_file

STEP_KEYS = {"player", "option", "index", "expect", "options", "note", "error", "value", "time_out", "says", "run",
             "present", "absent", "poll", "chance"}
TOP_KEYS = {
    "name",
    "description",
    "ruleset",
    "variants",
    "players",
    "seed",
    "params",
    "setup",
    "steps",
    "expect",
    "winners",
    "over",
    "error",
    "rule",
    "chance",
}


@dataclass
class Outcome:
    file: str
    name: str
    passed: bool
    failures: list[Diagnostic] = field(default_factory=list)
    decisions: int = 0


def find_ruleset(scenario_path: Path, declared) -> Path:
    """The ruleset a scenario runs: the one its ``ruleset:`` names, which is
    input like the rest of the file, so only a ruleset id on the search path
    or a ruleset file inside the scenario's folder (``locate.named_ruleset``;
    FileNotFoundError otherwise); without ``ruleset:``, the nearest
    ``ruleset.yaml`` in its folder or a parent."""
    if declared:
        return named_ruleset(str(declared), scenario_path.parent, "the scenario's ruleset")
    for folder in [scenario_path.parent, *scenario_path.parents]:
        candidate = folder / "ruleset.yaml"
        if candidate.is_file():
            return candidate
    return scenario_path.parent / "ruleset.yaml"


# limits on the fields a scenario gives the game (their types are checked with the other fields)
LIMITS = {
    "seed": Field("a whole number from -2**63 to 2**64-1",
                  lambda v: v is not None and (type(v) is not int or -(2**63) <= v < 2**64)),
    "players": Field(f"a whole number from 1 to {MAX_PLAYERS}", lambda v: type(v) is not int or 1 <= v <= MAX_PLAYERS),
    "variants": Field("a variant name or a list of at most 64 of them",
                      lambda v: not isinstance(v, list) or len(v) <= 64 and all(isinstance(x, str) for x in v)),
    "params": Field("at most 256 parameters", lambda v: not isinstance(v, dict) or len(v) <= 256),
    "steps": Field(f"at most {MAX_DECISIONS} steps", lambda v: not isinstance(v, list) or len(v) <= MAX_DECISIONS),
}


def read_scenario(path: Path) -> tuple[Document, list[Diagnostic]]:
    """A scenario file read like any YAML file nobody vouches for (a regular
    file, the loader's size, nesting, alias and text limits: see
    ``validator.files`` and ``validator.loader``), then the limits above."""
    doc, diags = load_file(path)
    if not diags and isinstance(doc.data, dict):
        diags = [doc.diag("E070", message, where) for where, message in shape_errors(doc.data, LIMITS)]
    return doc, diags


_programs: dict = {}


def _program(ruleset: Path, variants: tuple):
    from rulebook.compiler.build import compile_path

    key = (str(ruleset), variants)
    if key not in _programs:
        _programs[key] = compile_path(ruleset, variants)
    return _programs[key]


def run_file(path: str | Path) -> Outcome:
    """Run one scenario file; never raises: every problem is a failure."""
    try:
        return _run_file(Path(path))
    except Exception as err:  # noqa: BLE001 - a scenario file must never crash the runner
        return Outcome(str(path), Path(path).stem, False,
                       [Diagnostic("E070", f"the scenario could not run: {type(err).__name__}: {err}",
                                   str(path), 1, 1)])


def _run_file(path: Path) -> Outcome:
    doc, diags = read_scenario(path)
    name = path.stem
    if diags:
        return Outcome(str(path), name, False, diags)
    data = doc.data
    if not isinstance(data, dict):
        return Outcome(str(path), name, False, [doc.diag("E070", "a scenario is a mapping of fields", ())])
    name = str(data.get("name", name))
    problems = [
        doc.diag("E070", f"unknown scenario field '{k}'", (k,), key=True,
                 hint=did_you_mean(str(k), TOP_KEYS) or f"fields: {', '.join(sorted(TOP_KEYS))}")
        for k in data
        if k not in TOP_KEYS
    ]
    kinds = {"name": str, "description": str, "ruleset": str, "variants": (list, str), "players": int, "seed": int,
             "params": dict, "setup": str, "steps": list, "expect": (str, list, int, bool), "winners": list,
             "over": bool, "error": str, "rule": str, "chance": list}
    for key, kind in kinds.items():
        if key in data and data[key] is not None and (not isinstance(data[key], kind) or isinstance(data[key], bool)
                                                      and kind is int):
            problems.append(doc.diag("E070", f"'{key}' has the wrong type ({type(data[key]).__name__})", (key,)))
    if isinstance(data.get("expect"), list) and not all(isinstance(e, (str, int, bool)) for e in data["expect"]):
        problems.append(doc.diag("E070", "expect must be an expression or a list of expressions", ("expect",)))
    if problems:
        return Outcome(str(path), name, False, problems)
    variants = data.get("variants") or []
    if isinstance(variants, str):
        variants = [variants]
    steps = data.get("steps") or []
    if not isinstance(steps, list):
        problems.append(doc.diag("E070", "steps must be a list", ("steps",)))
        steps = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict):
            problems.append(doc.diag("E070", "a step is a mapping such as {player: 0, option: ...}", ("steps", i)))
            continue
        for k in step:
            if k not in STEP_KEYS:
                problems.append(
                    doc.diag(
                        "E070",
                        f"unknown step field '{k}'",
                        ("steps", i, k),
                        key=True,
                        hint=did_you_mean(str(k), STEP_KEYS) or f"fields: {', '.join(sorted(STEP_KEYS))}",
                    )
                )
    if problems:
        return Outcome(str(path), name, False, problems)
    try:
        ruleset = find_ruleset(path, data.get("ruleset"))
    except FileNotFoundError as err:
        return Outcome(str(path), name, False, [doc.diag(
            "E004", str(err), ("ruleset",),
            hint="name a ruleset by its id (rulebook list shows them) or by a path inside the scenario's folder")])
    compiled = _program(ruleset, tuple(variants))
    if compiled.program is None:
        errs = compiled.report.errors or [doc.diag("E070", f"cannot load ruleset {ruleset}", ("ruleset",))]
        return Outcome(str(path), name, False, errs)
    prog = compiled.program
    comp = snippets_of(prog)
    failures: list[Diagnostic] = []
    after = []
    if "setup" in data:
        uid, ds = comp.block(doc, ("setup",))
        failures += ds
        if uid is not None:
            after.append(uid)
    checks, blocks = {}, {}
    for i, step in enumerate(steps):
        if isinstance(step, dict) and "expect" in step:
            checks[i] = _expectations(comp, doc, ("steps", i, "expect"), step["expect"], failures)
        if isinstance(step, dict) and "run" in step:
            if not isinstance(step["run"], str):
                failures.append(doc.diag("E070", "run is a block of statements (a string)", ("steps", i, "run")))
                continue
            blocks[i], ds = comp.block(doc, ("steps", i, "run"))
            failures += ds
    scripts = {}
    for i, step in enumerate(steps):
        for key in ("present", "absent"):
            if key in step and not (isinstance(step[key], list) and all(isinstance(x, str) for x in step[key])):
                failures.append(doc.diag("E070", f"{key} is a list of option labels", ("steps", i, key)))
        if "poll" in step:
            failures += _check_poll(doc, step["poll"], ("steps", i, "poll"))
        if "chance" in step:
            scripts[i] = _chance(comp, doc, ("steps", i, "chance"), step["chance"], failures)
    start_script = _chance(comp, doc, ("chance",), data["chance"], failures) if "chance" in data else ()
    final = _expectations(comp, doc, ("expect",), data["expect"], failures) if "expect" in data else []
    if failures:
        return Outcome(str(path), name, False, failures)
    game = Game(prog)
    expected_error = data.get("error")
    decisions = 0
    try:
        st = game.new(
            players=data.get("players"),
            seed=int(data.get("seed", 0)),
            params=data.get("params"),
            after_setup=tuple(after),
            chance=start_script,
        )
        said_from = 0  # the narration since the last decision is what a 'says' step reads
        for i, step in enumerate(steps):
            if "chance" in step:
                st.script = st.script + scripts[i]
            if "run" in step:
                failure = _run_block(st, doc, blocks[i], ("steps", i, "run"))
                if failure is not None:
                    failures.append(failure)
                    break
                game.reask(st)  # the options of the changed state
            if "expect" in step:
                failures += _check(st, doc, checks[i], comp)
            if "says" in step:
                failures += _check_says(st, doc, step["says"], said_from, ("steps", i, "says"))
            for key in ("options", "present", "absent"):
                if key in step:
                    failures += _check_options(game, st, doc, step, key, ("steps", i, key))
            if "option" in step or "index" in step or "time_out" in step or "poll" in step:
                said_from = len(st.events)
                if "poll" in step:
                    failure, answered = _poll(game, st, doc, step["poll"], ("steps", i, "poll"))
                else:
                    failure, answered = _decide(game, st, doc, step, ("steps", i)), 1
                decisions += answered
                if failure is not None:
                    failures.append(failure)
                    break
        else:  # every step ran: a scripted chance outcome left over is one the rules never drew
            for entry in st.script:
                failures.append(doc.diag("E070", f"the scripted {entry[2]} was never used: the rules drew no more "
                                                 "chance events of the scenario", entry[3]))
        failures += _check(st, doc, final, comp)
        if "winners" in data and sorted(st.winners) != sorted(data["winners"] or []):
            failures.append(
                doc.diag(
                    "E070",
                    f"expected winners {data['winners']}, got "
                    f"{st.winners if st.over else 'none (the game is not over)'}",
                    ("winners",),
                )
            )
        if "over" in data and bool(st.over) != bool(data["over"]):
            failures.append(
                doc.diag("E070", f"expected the game {'to be' if data['over'] else 'not to be'} over", ("over",))
            )
    except RulebookError as err:
        code = getattr(err, "code", "R000")
        if expected_error and code == expected_error:
            return Outcome(str(path), name, not failures, failures, decisions)
        failures.append(
            doc.diag(code if code.startswith(("E", "W")) else "E070", f"the game stopped with {err}",
                     _scripted_at(err, ("steps",)))
        )
        return Outcome(str(path), name, False, failures, decisions)
    if expected_error:
        failures.append(doc.diag("E070", f"expected error {expected_error}, but none happened", ("error",)))
    return Outcome(str(path), name, not failures, failures, decisions)


def snippets_of(prog):
    """The compiler of scenario text for ``prog`` (one per program)."""
    from rulebook.compiler.snippets import Snippets

    if getattr(prog, "_snippets", None) is None:
        prog._snippets = Snippets(prog)
    return prog._snippets


def _run_block(st, doc: Document, uid, path) -> Diagnostic | None:
    """Run a step's statements now, between two decisions (to stack a deck,
    give a hand, set a counter), with ``player`` the current player. The
    block may end the game but not ask for a decision; the caller then asks
    the pending question again (``Game.reask``), so that its options are
    those of the changed state."""
    from rulebook.interpreter.game import _unit_name
    from rulebook.interpreter.run import run

    waiting, pending = st.stack, st.pending
    nlocals = st.prog.unit_locals.get(_unit_name(st.prog, uid), 1)
    st.stack = [[uid, 0, [st.current] + [None] * (nlocals - 1)]]
    run(st)
    if st.over:
        return None
    if st.stack:
        st.stack, st.pending = waiting, pending
        return doc.diag("E070", "a run step cannot ask for a decision (choose, simultaneous)", path)
    st.stack, st.pending = waiting, pending
    return None


def _expectations(comp, doc: Document, path, value, failures):
    items = value if isinstance(value, list) else [value]
    out = []
    for j, _text in enumerate(items):
        p = path + (j,) if isinstance(value, list) else path
        probe, ds = comp.expr(doc, p)
        failures += ds
        if probe is not None:
            out.append((p, probe))
    return out


def _check(st, doc: Document, checks, compiler) -> list[Diagnostic]:
    """Evaluate expectations; a failed one says why, part by part
    (``rulebook.testing.why_failed``)."""
    out = []
    for path, probe in checks:
        try:
            value = probe.value(st)
        except Exception as err:  # an expectation that cannot be evaluated is a failure, not a crash
            out.append(doc.diag("E070", f"expectation could not be evaluated: {err}", path))
            continue
        if not value:
            text = _text(doc, path)
            out.append(doc.diag("E070", f"expectation failed: {text} {explain(compiler, st, text)}".rstrip(), path))
    return out


def _text(doc: Document, path):
    node = doc.data
    for k in path:
        node = node[k]
    return node


def _check_says(st, doc, want, since: int, path) -> list[Diagnostic]:
    """Each wanted line must be one the rules said (``say``) since the last decision."""
    said = [e[1] for e in st.events[since:] if e[0] == "say"]
    out = []
    for j, line in enumerate(want if isinstance(want, list) else [want]):
        if str(line) not in said:
            where = path + (j,) if isinstance(want, list) else path
            out.append(doc.diag("E070", f"expected the line {str(line)!r}; said since the last decision: {said}",
                                where))
    return out


def _check_options(game, st, doc, step, key: str, path) -> list[Diagnostic]:
    """``options``: the exact list of labels; ``present``: labels that must
    be among them; ``absent``: labels that must not."""
    player = step.get("player", (game.to_move(st) or [None])[0])
    try:
        labels = [o.label for o in game.legal(st, player)]
    except RulebookError as err:
        return [doc.diag("E070", f"no options to check: {err}", path)]
    want = step[key]
    if key == "options":
        return [] if labels == want else [doc.diag("E070", f"expected options {want}, got {labels}", path)]
    out = []
    for j, label in enumerate(want):
        if (label in labels) != (key == "present"):
            said = "is not offered" if key == "present" else "is offered, but must not be"
            out.append(doc.diag("E070", f"option {label!r} {said}; options of {player_name(st, player)}: {labels}",
                                path + (j,)))
    return out


def _check_poll(doc, poll, path) -> list[Diagnostic]:
    seats = poll if isinstance(poll, dict) else dict(enumerate(poll)) if isinstance(poll, list) else None
    if not seats or not all(type(k) is int and (v is None or isinstance(v, (str, int))) for k, v in seats.items()):
        return [doc.diag("E070", "a poll gives each seat's answer: {seat: option label, ...} or a list of labels "
                                 "in seat order (null for a seat that is not asked)", path)]
    return []


def _poll(game, st, doc, poll, path) -> tuple[Diagnostic | None, int]:
    """Answer a question put to several players (all at once, or one after
    another in seat order) with each seat's answer, in the order the game
    asks; every answer must be used, and the game must ask nobody else
    before. Returns a failure or None, and the number of answers given."""
    answers = dict(poll) if isinstance(poll, dict) else {k: v for k, v in enumerate(poll) if v is not None}
    given = 0
    while answers:
        asked = game.to_move(st)
        seat = next((p for p in asked if p in answers), None)
        if seat is None:
            waiting = ", ".join(player_name(st, p) for p in asked) or ("nobody: the game is over" if st.over
                                                                        else "nobody")
            return doc.diag("E070", f"the poll still has answers for seats {sorted(answers)}, but the game asks "
                                    f"{waiting}", path), given
        failure = _decide(game, st, doc, {"player": seat, "option": str(answers.pop(seat))}, path + (seat,))
        if failure is not None:
            return failure, given
        given += 1
    return None, given


def _chance(comp, doc, path, items, failures) -> tuple:
    """A scenario's chance outcomes as ``State.script`` entries: ``roll: N``
    (the next roll gives N), ``pick: K`` (the next random pick takes item K,
    from 0; also the place of a ``move ... at random``), ``shuffle: EXPR``
    (the next shuffle puts these components on top, in this order)."""
    out = []
    if not isinstance(items, list):
        failures.append(doc.diag("E070", "chance is a list of outcomes such as {roll: 6}, {pick: 0} or "
                                         "{shuffle: \"[c1, c2]\"}", path))
        return ()
    for j, item in enumerate(items):
        where = path + (j,)
        kind = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else None
        value = item[kind] if kind else None
        if kind in ("roll", "pick") and type(value) is int and value >= (1 if kind == "roll" else 0):
            out.append(("index", value - 1 if kind == "roll" else value, f"{kind} {value}", where))
        elif kind == "shuffle" and isinstance(value, str):
            probe, ds = comp.expr(doc, where + ("shuffle",))
            failures += ds
            if probe is None:
                continue
            t = probe.type
            kind_of = getattr(getattr(t, "arg", None), "kind", None) if t.kind == "list" else t.kind
            if kind_of not in ("comp", "any"):
                failures.append(doc.diag("E070", f"shuffle gives the components to put on top, not {t}",
                                         where + ("shuffle",)))
                continue
            out.append(("shuffle", probe.value, f"shuffle ({value})", where))
        else:
            failures.append(doc.diag("E070", "a chance outcome is {roll: N} (N from 1), {pick: K} (K from 0) or "
                                             "{shuffle: EXPR} (components, top first)", where))
    return tuple(out)


def _scripted_at(err, default):
    """Where a failure points: the scripted chance outcome it is about, if any."""
    entry = getattr(err, "entry", None)
    return entry[3] if entry and len(entry) > 3 else default


def _decide(game, st, doc, step, path):
    player = step.get("player")
    if not (type(player) is int and 0 <= player < st.n):
        return doc.diag("E070", f"player {literal(player)} is not a player of this {st.n}-player game",
                        path + ("player",) if "player" in step else path,
                        hint=f"scenario players are numbered from 0 to {st.n - 1}")
    expected = step.get("error")
    try:
        options = game.legal(st, player)
    except RulebookError as err:
        if expected == getattr(err, "code", None):
            return None
        return doc.diag("E070", f"{err}", path + ("player",))
    labels = [o.label for o in options]
    if expected == "R011":  # the player was to move after all: the step proves nothing
        return doc.diag("E070", f"expected error R011 (not your turn), but {player_name(st, player)} is to move: "
                                f"{labels}", path + ("error",))
    if step.get("time_out") is True:  # the player lets the turn's time limit run out
        try:
            game.time_out(st, player)
        except RulebookError as err:
            if expected == getattr(err, "code", None):
                return None
            return doc.diag("E070", f"{err}", path + ("time_out",))
        return _accepted(doc, expected, "the time-out", path)
    if "index" in step:
        index = step["index"]
        legal_index = type(index) is int and 0 <= index < len(options)
        if expected == "R012" and legal_index:
            return doc.diag("E070", f"expected error R012 (no such option), but index {index} is legal: "
                                    f"{labels[index]!r} of {labels}", path + ("index",))
    elif "option" in step:
        wanted = str(step["option"])
        matches = [o.index for o in options if o.label == wanted]
        if not matches and expected == "R012":
            return None  # expected: the option is not legal
        if expected == "R012":
            return doc.diag("E070", f"expected error R012 (no such option), but '{wanted}' is a legal option of "
                                    f"{player_name(st, player)}; legal: {labels}", path + ("option",))
        if not matches:
            return doc.diag("E070", f"'{wanted}' is not a legal option; legal: {labels}", path + ("option",))
        index = matches[0]
    else:
        return doc.diag("E070", "a decision step needs option: <label>, index: <n> or time_out: true", path)
    try:
        game.apply(st, player, index)
    except RulebookError as err:
        if expected == getattr(err, "code", None):
            return None
        return doc.diag(
            getattr(err, "code", "E070") if str(getattr(err, "code", "")).startswith("E") else "E070", f"{err}",
            _scripted_at(err, path),
        )
    return _accepted(doc, expected, "the decision", path)


def _accepted(doc, expected, what: str, path):
    """A step that expects an error, whose decision went through: a failure."""
    if expected is None:
        return None
    return doc.diag("E070", f"expected error {expected}, but {what} was accepted and no error happened",
                    path + ("error",))


def discover(paths) -> list[Path]:
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(x for x in p.rglob("*.yaml") if "scenarios" in x.parts)
        elif p.exists():
            out.append(p)
    return out
