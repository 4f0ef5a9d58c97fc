"""``rulebook validate --format sarif``: the diagnostics as a SARIF 2.1.0
log, the format CI code scanning reads (one run, one rule per code, one
result per diagnostic with its file, line, column and length)."""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from rulebook.validator.diagnostics import CODES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning"}


def _uri(file: str) -> str:
    """A file as SARIF names it: relative to the current folder when it is below it."""
    path = Path(file)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return path.as_posix()


def _rule(code: str) -> dict:
    severity, title = CODES.get(code, ("error", code))
    return {"id": code, "name": code, "shortDescription": {"text": title},
            "defaultConfiguration": {"level": LEVEL.get(severity, "error")}}


def _result(d, rule_index: int) -> dict:
    text = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    region = {"startLine": max(d.line, 1), "startColumn": max(d.column, 1),
              "endColumn": max(d.column, 1) + max(d.length, 1)}
    return {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": LEVEL.get(d.severity, "error"),
        "message": {"text": text},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(d.file)}, "region": region}}],
    }


def sarif_log(diagnostics: list) -> dict:
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    try:
        own = version("rulebook")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        own = "0"
    driver = {"name": "rulebook", "version": own,
              "rules": [_rule(code) for code in codes]}
    return {"$schema": SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "results": [_result(d, index[d.code]) for d in diagnostics]}]}


def to_sarif(diagnostics: list) -> str:
    return json.dumps(sarif_log(diagnostics), indent=2)
