"""Diagnostics: errors and warnings as values with a place.

A diagnostic has a file, a line and a column (1-based), a stable code from
``CODES``, a message and, where known, a hint. ``render`` prints it the way a
compiler does: ``file:line:col: error[E031]: message``, the source line, a
caret under the column and the hint.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass, field

from rulebook.validator.files import escape

# code -> (severity, short title). Codes are stable: tests and tools rely on them.
# Retired codes, never emitted and not to be given another meaning: E033 "unknown phase" (no
# construct names a phase but 'start' and a transition's 'next', which are E053 and E050) and
# E060 "variant cannot be applied" (a JSON Merge Patch always applies; what is wrong in the
# patched ruleset gets the ordinary codes).
CODES: dict[str, tuple[str, str]] = {
    "E001": ("error", "YAML syntax error"),
    "E002": ("error", "duplicate key"),
    "E003": ("error", "document too large or too deeply nested"),
    "E004": ("error", "file cannot be read"),
    "E005": ("error", "YAML tag not allowed"),
    "E006": ("error", "yes, no, on or off read as true or false"),
    "E007": ("error", "control character in a text"),
    "E010": ("error", "wrong type of value"),
    "E011": ("error", "missing required field"),
    "E012": ("error", "unknown field"),
    "E013": ("error", "value not allowed"),
    "E014": ("error", "invalid value"),
    "E020": ("error", "unexpected token in rule text"),
    "E021": ("error", "unexpected character in rule text"),
    "E022": ("error", "rule text ends too early"),
    "E023": ("error", "invalid text template"),
    "E024": ("error", "rule text too long or too deeply nested"),
    "E030": ("error", "unknown name"),
    "E031": ("error", "unknown zone"),
    "E032": ("error", "unknown property or variable"),
    "E034": ("error", "unknown action"),
    "E035": ("error", "unknown variant"),
    "E036": ("error", "unknown parameter"),
    "E037": ("error", "unknown function or procedure"),
    "E038": ("error", "unknown event"),
    "E039": ("error", "unknown component type"),
    "E040": ("error", "wrong number of arguments"),
    "E041": ("error", "wrong type"),
    "E042": ("error", "cannot assign to this"),
    "E043": ("error", "name already defined"),
    "E044": ("error", "statement not allowed here"),
    "E045": ("error", "zone needs an index"),
    "E046": ("error", "bad keyword argument"),
    "E047": ("error", "no value when no guard holds"),
    "E050": ("error", "transition to an unknown phase"),
    "E051": ("error", "phase unreachable from the start"),
    "E052": ("error", "no end reachable from phase"),
    "E053": ("error", "no start phase"),
    "E054": ("error", "phase has no way out"),
    "E061": ("error", "variants exclude each other"),
    "E062": ("error", "player count not supported"),
    "E063": ("error", "parameter value has the wrong type"),
    "E064": ("error", "too many components or zones"),
    "E070": ("error", "scenario file invalid"),
    "W101": ("warning", "zone never used"),
    "W102": ("warning", "action never offered"),
    "W103": ("warning", "trigger event never emitted"),
    "W104": ("warning", "procedure never called"),
    "W105": ("warning", "parameter never used"),
    "W106": ("warning", "braces in a plain string"),
    "W107": ("warning", "variant patch entry changes nothing"),
    "W108": ("warning", "draw from an empty zone that declares no when_empty"),
    "W109": ("warning", "rule calls a helper marked for_tests"),
}


SHOWN = 1000  # characters of a source line shown under a diagnostic (a window around a longer one)


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    file: str = "<ruleset>"
    line: int = 1
    column: int = 1
    hint: str | None = None
    path: str = ""  # where in the document, e.g. "phases.bite.on_begin"
    length: int = 1

    @property
    def severity(self) -> str:
        return CODES.get(self.code, ("error", ""))[0]

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["severity"] = self.severity
        return d

    def render(self, source: str | None = None) -> str:
        head = f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}]: {self.message}"
        lines = [head]
        if source is not None:
            src_lines = source.splitlines()
            if 1 <= self.line <= len(src_lines):
                text = src_lines[self.line - 1].replace("\t", " ")
                column = max(self.column - 1, 0)
                if len(text) > SHOWN:  # a window around the column: a line may be megabytes long
                    start = max(0, min(column - SHOWN // 3, len(text) - SHOWN))
                    text = ("..." if start else "") + text[start:start + SHOWN] + "..."
                    column += (3 if start else 0) - start
                gutter = f"{self.line:>4} | "
                lines.append(gutter + text)
                lines.append(" " * (len(gutter) + column) + "^" * max(1, min(self.length, 60)))
        if self.hint:
            lines.append(f"  = hint: {self.hint}")
        return escape("\n".join(lines))  # a file's own bytes never reach the terminal as commands


@dataclass
class Report:
    """All diagnostics of one run, in source order."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, d: Diagnostic) -> None:
        self.diagnostics.append(d)

    def extend(self, ds) -> None:
        self.diagnostics.extend(ds)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors

    def sorted(self) -> list[Diagnostic]:
        seen = set()
        out = []
        for d in sorted(self.diagnostics, key=lambda d: (d.file, d.line, d.column, d.code)):
            key = (d.file, d.line, d.column, d.code, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out

    def to_json(self) -> str:
        return json.dumps([d.as_dict() for d in self.sorted()], indent=2)


def did_you_mean(name: str, known) -> str | None:
    """The nearest known name as a hint, the way compilers suggest one."""
    match = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else None
