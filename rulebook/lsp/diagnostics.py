"""The validator's diagnostics as LSP diagnostics, and their quick fixes.

Each keeps its code, its place (the validator's line, column and length;
a name's diagnostic covers the whole name) and its hint, as related
information at the same place. A hint "did you mean 'x'?" becomes a code
action that replaces the word with ``x``.
"""

from __future__ import annotations

import re

from lsprotocol import types as T

from rulebook.lsp.positions import lsp_range, word_at

SUGGESTION = re.compile(r"did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?")
SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}


def _length(d, lines: list[str]) -> int:
    """The validator's length; a name's whole word where it gave one
    character (an unknown name, E03x, or one with a did-you-mean)."""
    if d.length > 1 or not (d.code.startswith("E03") or SUGGESTION.search(d.hint or "")):
        return d.length
    word = word_at(lines, d.line, d.column)
    return len(word[1]) if word and word[0] == d.column else d.length


def to_lsp(d, uri: str, lines: list[str]) -> T.Diagnostic:
    where = lsp_range(lines, d.line, d.column, _length(d, lines))
    related = None
    if d.hint:
        related = [T.DiagnosticRelatedInformation(location=T.Location(uri=uri, range=where), message=f"hint: {d.hint}")]
    suggestion = SUGGESTION.search(d.hint or "")
    return T.Diagnostic(
        range=where,
        message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
        code=d.code,
        source="rulebook",
        related_information=related,
        data={"replacement": suggestion.group(1)} if suggestion else None,
    )


def quick_fixes(uri: str, diagnostics: list[T.Diagnostic]) -> list[T.CodeAction]:
    """A code action per did-you-mean: replace the diagnostic's word."""
    out = []
    for d in diagnostics:
        data = d.data if isinstance(d.data, dict) else {}
        word = data.get("replacement")
        if not isinstance(word, str) or d.source != "rulebook":
            continue
        out.append(T.CodeAction(
            title=f"Replace with '{word}'",
            kind=T.CodeActionKind.QuickFix,
            diagnostics=[d],
            is_preferred=True,
            edit=T.WorkspaceEdit(changes={uri: [T.TextEdit(range=d.range, new_text=word)]}),
        ))
    return out
