"""The whole static pipeline, one stage after another, stopping after any
stage that found errors (as jlox's ``Lox.run`` does):

load YAML -> JSON Schema -> variants -> presentation hints -> parse rule text, resolve names and
types, compile -> phase graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from validator import graph, presentation, schema_check, variants
from validator.diagnostics import Diagnostic, Report  # noqa: F401
from validator.loader import Document, load_file, load_text


@dataclass
class Compiled:
    program: object | None
    report: Report
    doc: Document | None = None
    graph: object | None = None
    sources: dict = field(default_factory=dict)


def compile_document(doc: Document, load_diags, selected: tuple[str, ...] = (), limits=None) -> Compiled:
    """Run the stages on a loaded document with the variants ``selected``;
    the report lists each diagnostic once (see ``unique``)."""
    compiled = _compile_document(doc, load_diags, selected, limits)
    compiled.report = unique(compiled.report)
    return compiled


def _compile_document(doc: Document, load_diags, selected: tuple[str, ...] = (), limits=None) -> Compiled:
    from interpreter.compile_ruleset import RulesetCompiler

    report = Report()
    report.extend(load_diags)
    if not report.ok:
        return Compiled(None, report, doc)
    report.extend(schema_check.check(doc))
    if not report.ok:
        return Compiled(None, report, doc)
    report.extend(variants.check_declarations(doc))
    if report.ok:
        report.extend(variants.check_selection(doc, selected))
    if not report.ok:
        return Compiled(None, report, doc)
    notes: list[Diagnostic] = []
    merged = variants.apply(doc, selected, notes)
    if selected:
        for d in schema_check.check(merged):
            report.add(_in_variant(d, doc, selected))
        # a misspelt key the schema rejects (E012, with its own did-you-mean) needs no W107 as well
        taken = {(d.line, d.column) for d in report.errors}
        report.extend(n for n in notes if (n.line, n.column) not in taken)
        if not report.ok:
            return Compiled(None, report, doc)
    report.extend(presentation.check(merged))  # the names the presentation hints use
    if not report.ok:
        return Compiled(None, report, doc)
    comp = RulesetCompiler(merged, merged.data, selected, limits)
    try:
        program = comp.compile()
    except RecursionError:
        report.add(Diagnostic("E024", "rule text is nested too deeply to compile", doc.file, 1, 1))
        return Compiled(None, report, doc)
    report.extend(comp.diags)
    if not report.ok:
        return Compiled(None, report, doc)
    report.extend(_dry_run(program, merged))
    if not report.ok:
        return Compiled(None, report, doc)
    g, diags = graph.check(merged, comp.unit_ends, comp.unit_calls)
    report.extend(diags)
    program.phase_graph = g
    if not report.ok:
        return Compiled(None, report, doc, g)
    return Compiled(program, report, doc, g)


def _dry_run(program, doc: Document) -> list[Diagnostic]:
    """Make the components and zones of a game at the smallest and largest
    player count with default parameters, so that absurd numbers are found
    at load, not when somebody starts a game."""
    from interpreter.errors import RuleError
    from interpreter.game import Game

    out = []
    counts = sorted({program.min_players, program.max_players})
    for n in counts:
        try:
            Game(program).catalog_only(n)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as err:
            out.append(doc.diag("E041", f"the components cannot be made with {n} players "
                                f"({type(err).__name__}: {err})", ("components",),
                                "a component's properties can only use parameters, definitions and its own values"))
            break
        except RuleError as err:
            if err.code != "R107":
                continue  # other failures show up when the game runs, with their own codes
            kind = err.message.split("'")[1] if err.message.count("'") >= 2 else None
            path = (
                ("components", kind, "count")
                if kind and ("components", kind, "count") in doc.positions
                else (("components", kind) if kind else ("components",))
            )
            out.append(
                doc.diag(
                    "E064",
                    f"{err.message} (with {n} players)",
                    path,
                    "use fewer components; limits are listed in docs/security.md",
                )
            )
            break
    return out


def _in_variant(d: Diagnostic, doc: Document, selected) -> Diagnostic:
    """A diagnostic found only with variants applied: say which, and put a
    missing field at the patch entry that removed it."""
    from dataclasses import replace

    label = ", ".join(selected)
    if d.code == "E011":
        missing = d.message.split("'")[-2] if d.message.count("'") >= 2 else ""
        parent = tuple(p for p in d.path.replace("[", ".").replace("]", "").split(".") if p)
        for name in reversed(selected):
            key = ("variants", name, "patch") + parent + (missing,)
            if key in doc.key_positions:
                line, col = doc.key_positions[key]
                return replace(d, line=line, column=col, message=f"{d.message} (variant '{name}' removes it)")
    return replace(d, message=f"{d.message} (with variant {label})")


def compile_path(path: str | Path, selected: tuple[str, ...] = (), limits=None) -> Compiled:
    doc, diags = load_file(path)
    return compile_document(doc, diags, tuple(selected), limits)


def compile_text(text: str, file: str = "<ruleset>", selected: tuple[str, ...] = (), limits=None) -> Compiled:
    doc, diags = load_text(text, file)
    return compile_document(doc, diags, tuple(selected), limits)


def unique(report: Report) -> Report:
    """The report with each diagnostic once (the first of those that
    ``Report.sorted`` would merge), in the order found. Functions are
    expanded at each call and every variant is compiled again, so the same
    diagnostic can be found several times; what is counted must be what is
    shown, so this is the one place where repeats are dropped and every
    consumer (text, JSON, the error count) sees the same list."""
    seen = set()
    out = Report()
    for d in report.diagnostics:
        key = (d.file, d.line, d.column, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.add(d)
    return out


def validate_path(path: str | Path) -> Report:
    """Validate the base ruleset and each variant on its own, with the
    variants it requires, directly or through others; all diagnostics of
    the file in one report, each once."""
    doc, diags = load_file(path)
    result = compile_document(doc, diags, ())
    report = result.report
    if (
        result.doc is not None
        and isinstance(result.doc.data, dict)
        and report.ok
        or (result.program is None and not any(d.code.startswith("E0") and d.code < "E020" for d in report.errors))
    ):
        for name in ((doc.data or {}).get("variants") or {}) if isinstance(doc.data, dict) else ():
            spec = doc.data["variants"][name]
            if any(r not in doc.data["variants"] for r in spec.get("requires") or ()):
                continue  # reported by the base run (E035)
            combo = variants.with_requirements(doc.data["variants"], name)
            sub = compile_document(doc, [], combo)
            known = {(x.code, x.line, x.column) for x in report.diagnostics}
            for d in sub.report.diagnostics:
                if (d.code, d.line, d.column) not in known:
                    report.add(d if "variant" in d.message else _in_variant(d, doc, combo))
    return unique(report)
