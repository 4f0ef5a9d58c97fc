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

from rulebook.files import shapes
from rulebook.files.locate import named_ruleset
from rulebook.interpreter.errors import RulebookError
from rulebook.interpreter.game import Game
from rulebook.interpreter.labels import literal, player_name
from rulebook.testing.why_failed import explain
from rulebook.validator.diagnostics import Diagnostic
from rulebook.validator.loader import Document, load_file, load_text


@dataclass(frozen=True)
class ScenarioFailure(Diagnostic):
    """A failure that compares a value with what the scenario expects: both
    kept as fields, so that reports for CI (``rulebook test --format json``,
    ``--junit-xml``) show them without reading the message."""

    expected: str | None = None
    actual: str | None = None


def _differs(doc: Document, message: str, path, expected, actual) -> ScenarioFailure:
    d = doc.diag("E070", message, path)
    return ScenarioFailure(d.code, d.message, d.file, d.line, d.column, d.hint, d.path, d.length,
                           str(expected), str(actual))


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


def read_scenario(path: Path, text: str | None = None) -> tuple[Document, list[Diagnostic]]:
    """A scenario file read like any YAML file nobody vouches for (a regular
    file, the loader's size, nesting, alias and text limits: see
    ``validator.files`` and ``validator.loader``), then checked against its
    JSON Schema, ``validator/scenario.schema.json`` (fields, types, limits:
    ``files.shapes``), each problem an E070 at its field. ``text``: the
    file's text as an editor holds it, not yet saved."""
    doc, diags = load_file(path) if text is None else load_text(text, str(path))
    if diags:
        return doc, diags
    if not isinstance(doc.data, dict):
        return doc, [doc.diag("E070", "a scenario is a mapping of fields", ())]
    return doc, [doc.diag("E070", p.message, p.path, hint=p.hint, key=p.key) for p in shapes.problems("scenario",
                                                                                                        doc.data)]


_programs: dict = {}


def _program(ruleset: Path, variants: tuple):
    from rulebook.compiler.build import compile_path

    key = (str(ruleset), variants)
    if key not in _programs:
        _programs[key] = compile_path(ruleset, variants)
    return _programs[key]


def forget_programs() -> None:
    """Compile rulesets again on the next run (a long-lived process, such as
    the language server, sees them change)."""
    _programs.clear()


def run_file(path: str | Path, text: str | None = None) -> Outcome:
    """Run one scenario file (``text``: its unsaved text in an editor);
    never raises: every problem is a failure."""
    try:
        return _run_file(Path(path), text)
    except Exception as err:  # noqa: BLE001 - a scenario file must never crash the runner
        return Outcome(str(path), Path(path).stem, False,
                       [Diagnostic("E070", f"the scenario could not run: {type(err).__name__}: {err}",
                                   str(path), 1, 1)])


def _run_file(path: Path, text: str | None = None) -> Outcome:
    """Read the file and check its shape, set the scenario up (its ruleset,
    its own rule text compiled), run its steps, compare the end."""
    doc, diags = read_scenario(path, text)
    name = str(doc.data.get("name", path.stem)) if isinstance(doc.data, dict) else path.stem
    if diags:
        return Outcome(str(path), name, False, diags)
    plan = _set_up(path, doc)
    if isinstance(plan, list):
        return Outcome(str(path), name, False, plan)
    failures, decisions = _play(plan, doc)
    return Outcome(str(path), name, not failures, failures, decisions)


@dataclass
class Plan:
    """A scenario ready to run: its ruleset's program, and the scenario's
    own rule text compiled for it (unit ids of blocks, probes of
    expectations, chance scripts), by step index."""

    prog: object
    comp: object  # the program's compiler of scenario text (``snippets_of``)
    steps: list
    after: tuple = ()  # the scenario's setup block, run after the ruleset's
    start_script: tuple = ()  # the scenario's chance outcomes for the first chance events
    final: list = field(default_factory=list)  # the expectations checked after the last step
    checks: dict = field(default_factory=dict)  # step -> its expectations
    blocks: dict = field(default_factory=dict)  # step -> its run block
    scripts: dict = field(default_factory=dict)  # step -> its chance outcomes


def _set_up(path: Path, doc: Document) -> Plan | list[Diagnostic]:
    """The scenario's ruleset compiled and its rule text compiled against
    it; or the failures that stop it before a game starts."""
    data = doc.data
    variants = data.get("variants") or []
    variants = [variants] if isinstance(variants, str) else variants
    try:
        ruleset = find_ruleset(path, data.get("ruleset"))
    except FileNotFoundError as err:
        return [doc.diag("E004", str(err), ("ruleset",),
                         hint="name a ruleset by its id (rulebook list shows them) or by a path inside the "
                              "scenario's folder")]
    compiled = _program(ruleset, tuple(variants))
    if compiled.program is None:
        return compiled.report.errors or [doc.diag("E070", f"cannot load ruleset {ruleset}", ("ruleset",))]
    plan = Plan(compiled.program, snippets_of(compiled.program), data.get("steps") or [])
    failures = _compile_texts(plan, doc)
    return failures or plan


def _compile_texts(plan: Plan, doc: Document) -> list[Diagnostic]:
    """Compile the scenario's blocks, expectations and chance outcomes into
    ``plan``; the failures of those that do not compile."""
    comp, data, failures = plan.comp, doc.data, []
    if "setup" in data:
        uid, ds = comp.block(doc, ("setup",))
        failures += ds
        plan.after = () if uid is None else (uid,)
    for i, step in enumerate(plan.steps):
        if "expect" in step:
            plan.checks[i] = _expectations(comp, doc, ("steps", i, "expect"), step["expect"], failures)
        if "run" in step:
            plan.blocks[i], ds = comp.block(doc, ("steps", i, "run"))
            failures += ds
    for i, step in enumerate(plan.steps):
        if "poll" in step:
            failures += _check_poll(doc, step["poll"], ("steps", i, "poll"))
        if "chance" in step:
            plan.scripts[i] = _chance(comp, doc, ("steps", i, "chance"), step["chance"], failures)
    if "chance" in data:
        plan.start_script = _chance(comp, doc, ("chance",), data["chance"], failures)
    if "expect" in data:
        plan.final = _expectations(comp, doc, ("expect",), data["expect"], failures)
    return failures


def _play(plan: Plan, doc: Document) -> tuple[list[Diagnostic], int]:
    """Start the game, run the steps, compare the end with what the
    scenario expects; the failures and the number of decisions made. A
    game that stops with the error the scenario expects passes."""
    data, game = doc.data, Game(plan.prog)
    expected_error = data.get("error")
    failures: list[Diagnostic] = []
    decisions = 0
    try:
        st = game.new(players=data.get("players"), seed=int(data.get("seed", 0)), params=data.get("params"),
                      after_setup=plan.after, chance=plan.start_script)
        decisions = _run_steps(game, st, plan, doc, failures)
        failures += _compare(st, plan, doc)
    except RulebookError as err:
        code = getattr(err, "code", "R000")
        if expected_error and code == expected_error:
            return failures, decisions
        failures.append(doc.diag(code if code.startswith(("E", "W")) else "E070", f"the game stopped with {err}",
                                 _scripted_at(err, ("steps",))))
        return failures, decisions
    if expected_error:
        failures.append(_differs(doc, f"expected error {expected_error}, but none happened", ("error",),
                                 expected_error, "no error"))
    return failures, decisions


def _run_steps(game, st, plan: Plan, doc: Document, failures: list) -> int:
    """Each step in order (its chance, run, checks, then its decision or
    poll), up to the first decision or block that fails; the number of
    decisions made. A scripted chance outcome still unused when every step
    ran is one the rules never drew: a failure."""
    decisions = 0
    said_from = 0  # the narration since the last decision is what a 'says' step reads
    for i, step in enumerate(plan.steps):
        if "chance" in step:
            st.script = st.script + plan.scripts[i]
        if "run" in step:
            failure = _run_block(st, doc, plan.blocks[i], ("steps", i, "run"))
            if failure is not None:
                failures.append(failure)
                return decisions
            game.reask(st)  # the options of the changed state
        if "expect" in step:
            failures += _check(st, doc, plan.checks[i], plan.comp)
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
                return decisions
    for entry in st.script:
        failures.append(doc.diag("E070", f"the scripted {entry[2]} was never used: the rules drew no more "
                                         "chance events of the scenario", entry[3]))
    return decisions


def _compare(st, plan: Plan, doc: Document) -> list[Diagnostic]:
    """The end of the game against the scenario's ``expect``, ``winners``
    and ``over``."""
    data = doc.data
    failures = _check(st, doc, plan.final, plan.comp)
    if "winners" in data and sorted(st.winners) != sorted(data["winners"] or []):
        got = st.winners if st.over else "none (the game is not over)"
        failures.append(_differs(doc, f"expected winners {data['winners']}, got {got}", ("winners",),
                                 data["winners"], got))
    if "over" in data and bool(st.over) != bool(data["over"]):
        failures.append(_differs(doc, f"expected the game {'to be' if data['over'] else 'not to be'} over",
                                 ("over",), f"over: {bool(data['over'])}", f"over: {bool(st.over)}"))
    return failures


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
            why = explain(compiler, st, text)
            out.append(_differs(doc, f"expectation failed: {text} {why}".rstrip(), path, f"{text} is true",
                                f"it is {value!r}" + (f" {why}" if why else "")))
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
        labels = game.options(st, player).labels
    except RulebookError as err:
        return [doc.diag("E070", f"no options to check: {err}", path)]
    want = step[key]
    if key == "options":
        return [] if labels == want else [_differs(doc, f"expected options {want}, got {labels}", path, want, labels)]
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
        options = game.options(st, player)
        labels = options.labels
    except RulebookError as err:
        if expected == getattr(err, "code", None):
            return None
        return doc.diag("E070", f"{err}", path + ("player",))
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
            return _differs(doc, f"'{wanted}' is not a legal option; legal: {labels}", path + ("option",),
                            f"a legal option {wanted!r}", f"legal: {labels}")
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
