"""The static pipeline, one stage after another, stopping after any stage
that found errors (as jlox's ``Lox.run`` does):

load YAML -> JSON Schema -> variants -> presentation hints -> parse rule
text, resolve names and types (``validator.checker``) -> phase graph.

What passes every stage is a ``Checked`` ruleset, which the compiler
(``compiler/build.py``) turns into Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulebook.validator import graph, presentation, schema_check, variants
from rulebook.validator.diagnostics import Diagnostic, Report  # noqa: F401
from rulebook.validator.loader import Document, load_file, load_text


@dataclass
class CheckResult:
    checked: object | None  # validator.ir.Checked, when every stage passed
    report: Report
    doc: Document | None = None
    graph: object | None = None
    checker: object | None = None
    merged: Document | None = None  # the document with the variants applied


def check_document(doc: Document, load_diags, selected: tuple[str, ...] = (), limits=None) -> CheckResult:
    """Run the stages on a loaded document with the variants ``selected``;
    the report lists each diagnostic once (see ``unique``)."""
    result = _check_document(doc, load_diags, selected, limits)
    result.report = unique(result.report)
    return result


def _check_document(doc: Document, load_diags, selected: tuple[str, ...] = (), limits=None) -> CheckResult:
    from rulebook.validator.checker import RulesetChecker

    report = Report()
    report.extend(load_diags)
    if not report.ok:
        return CheckResult(None, report, doc)
    report.extend(schema_check.check(doc))
    if not report.ok:
        return CheckResult(None, report, doc)
    report.extend(variants.check_declarations(doc))
    if report.ok:
        report.extend(variants.check_selection(doc, selected))
    if not report.ok:
        return CheckResult(None, report, doc)
    notes: list[Diagnostic] = []
    merged = variants.apply(doc, selected, notes)
    if selected:
        for d in schema_check.check(merged):
            report.add(_in_variant(d, doc, selected))
        # a misspelt key the schema rejects (E012, with its own did-you-mean) needs no W107 as well
        taken = {(d.line, d.column) for d in report.errors}
        report.extend(n for n in notes if (n.line, n.column) not in taken)
        if not report.ok:
            return CheckResult(None, report, doc)
    report.extend(presentation.check(merged))  # the names the presentation hints use
    if not report.ok:
        return CheckResult(None, report, doc)
    checker = RulesetChecker(merged, merged.data, selected, limits)
    try:
        checked = checker.check()
    except RecursionError:
        report.add(Diagnostic("E024", "rule text is nested too deeply to compile", doc.file, 1, 1))
        return CheckResult(None, report, doc)
    report.extend(checker.diags)
    if not report.ok:
        return CheckResult(None, report, doc, checker=checker, merged=merged)
    g, diags = graph.check(merged, checker.unit_ends, checker.unit_calls)
    report.extend(diags)
    if not report.ok:
        return CheckResult(None, report, doc, g, checker, merged)
    return CheckResult(checked, report, doc, g, checker, merged)


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


def check_path(path: str | Path, selected: tuple[str, ...] = (), limits=None) -> CheckResult:
    doc, diags = load_file(path)
    return check_document(doc, diags, tuple(selected), limits)


def check_text(text: str, file: str = "<ruleset>", selected: tuple[str, ...] = (), limits=None) -> CheckResult:
    doc, diags = load_text(text, file)
    return check_document(doc, diags, tuple(selected), limits)


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


