"""The whole static pipeline, one stage after another, stopping after any
stage that found errors (as jlox's ``Lox.run`` does):

load YAML -> JSON Schema -> variants -> parse rule text, resolve names and
types, compile -> phase graph.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from validator import graph, schema_check, variants
from validator.diagnostics import Diagnostic, Report
from validator.loader import Document, load_file, load_text


@dataclass
class Compiled:
    program: object | None
    report: Report
    doc: Document | None = None
    graph: object | None = None
    sources: dict = field(default_factory=dict)


def compile_document(doc: Document, load_diags, selected: tuple[str, ...] = (), limits=None) -> Compiled:
    from interpreter.compile_ruleset import RulesetCompiler
    report = Report()
    report.extend(load_diags)
    if not report.ok:
        return Compiled(None, report, doc)
    report.extend(schema_check.check(doc))
    if not report.ok:
        return Compiled(None, report, doc)
    report.extend(variants.check_selection(doc, selected))
    if report.ok:
        report.extend(variants.check_params(doc, selected))
    if not report.ok:
        return Compiled(None, report, doc)
    merged = variants.apply(doc, selected)
    if selected:
        for d in schema_check.check(merged):
            report.add(d)
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
    g, diags = graph.check(merged, comp.unit_ends, comp.unit_calls)
    report.extend(diags)
    program.phase_graph = g
    if not report.ok:
        return Compiled(None, report, doc, g)
    return Compiled(program, report, doc, g)


def compile_path(path: str | Path, selected: tuple[str, ...] = (), limits=None) -> Compiled:
    doc, diags = load_file(path)
    return compile_document(doc, diags, tuple(selected), limits)


def compile_text(text: str, file: str = "<ruleset>", selected: tuple[str, ...] = (), limits=None) -> Compiled:
    doc, diags = load_text(text, file)
    return compile_document(doc, diags, tuple(selected), limits)


def validate_path(path: str | Path) -> Report:
    """Validate the base ruleset and each variant on its own; all
    diagnostics of the file in one report."""
    doc, diags = load_file(path)
    result = compile_document(doc, diags, ())
    report = result.report
    if result.doc is not None and isinstance(result.doc.data, dict) and report.ok or (
            result.program is None and not any(d.code.startswith("E0") and d.code < "E020" for d in report.errors)):
        for name in ((doc.data or {}).get("variants") or {}) if isinstance(doc.data, dict) else ():
            spec = doc.data["variants"][name]
            combo = tuple(spec.get("requires") or ()) + (name,)
            sub = compile_document(doc, [], combo)
            for d in sub.report.diagnostics:
                if d not in report.diagnostics:
                    report.add(d)
    return report
