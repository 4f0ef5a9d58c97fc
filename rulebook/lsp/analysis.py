"""One open document and what its last check found.

A ruleset is checked by the validator's pipeline (``check_text``), a
scenario file by running it (``rulebook.scenario.run_file``) on the text in
the editor. The diagnostics always come from the text just checked; the
names (for hover, definitions and completion) come from the last check that
reached the name checker, so that a half-typed line does not take them away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.validator.diagnostics import Diagnostic

RULESET_HEAD = re.compile(r"^rulebook:", re.M)


@dataclass
class Analysis:
    path: str
    text: str
    kind: str  # ruleset | scenario | other
    diagnostics: list[Diagnostic] = field(default_factory=list)
    doc: object | None = None  # validator.loader.Document of the last check that reached the names
    checker: object | None = None  # validator.checker.RulesetChecker of that check
    names: list = field(default_factory=list)  # rulebook.lsp.names.all_names of that check
    # rule text path -> the ScopeAt of its statements, from the last check in which that text parsed
    scopes: dict = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)  # the text now in the editor

    @property
    def index(self):
        return self.checker.index if self.checker is not None else None


def kind_of(path: str, text: str) -> str:
    if RULESET_HEAD.search(text[:4000]):
        return "ruleset"
    p = Path(path)
    if p.suffix in (".yaml", ".yml") and "scenarios" in p.parts:
        return "scenario"
    return "other"


def analyse(path: str, text: str, previous: Analysis | None = None) -> Analysis:
    """Check ``text`` (the editor's copy of ``path``); never raises: a
    failure of the checker itself is one diagnostic, not a crash."""
    kind = kind_of(path, text)
    out = Analysis(path, text, kind, lines=text.splitlines())
    if previous is not None and previous.kind == kind:
        out.doc, out.checker, out.names, out.scopes = previous.doc, previous.checker, previous.names, previous.scopes
    try:
        if kind == "ruleset":
            _check_ruleset(out)
        elif kind == "scenario":
            _check_scenario(out)
    except Exception as err:  # noqa: BLE001 - an editor's server must answer whatever the text
        out.diagnostics = [Diagnostic("E004", f"rulebook could not check this file: {type(err).__name__}: {err}",
                                      path, 1, 1)]
    return out


def _check_ruleset(out: Analysis) -> None:
    from rulebook.lsp.names import all_names
    from rulebook.validator.pipeline import check_text

    result = check_text(out.text, out.path)
    out.diagnostics = result.report.sorted()
    if result.checker is not None:
        out.doc, out.checker = result.merged or result.doc, result.checker
        out.names = all_names(out.doc, out.checker.index)
        fresh: dict = {}
        for scope in out.checker.index.scopes:
            fresh.setdefault(scope.path, []).append(scope)
        out.scopes = {**out.scopes, **fresh}  # a text that does not parse now keeps its scopes from before


def _check_scenario(out: Analysis) -> None:
    from rulebook.testing import scenarios as scenario

    scenario.forget_programs()  # the ruleset may have changed since the last run
    outcome = scenario.run_file(out.path, out.text)
    mine = [d for d in outcome.failures if d.file == out.path]
    others = [Diagnostic(d.code, f"{d.file}:{d.line}:{d.column}: {d.message}", out.path, 1, 1, d.hint)
              for d in outcome.failures if d.file != out.path]
    out.diagnostics = mine + others
