"""Positions between Rulebook and the Language Server Protocol.

Rulebook counts lines and columns from 1, in characters; LSP counts from 0,
and its columns in UTF-16 code units (a character outside the Basic
Multilingual Plane is two). A name is a run of letters, digits and '_'.
"""

from __future__ import annotations

import re

from lsprotocol import types as T

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def to_lsp(lines: list[str], line: int, column: int) -> T.Position:
    """The LSP position of Rulebook's (line, column)."""
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    return T.Position(line=max(line - 1, 0), character=_units(text[:max(column - 1, 0)]))


def from_lsp(lines: list[str], position: T.Position) -> tuple[int, int]:
    """Rulebook's (line, column) of an LSP position."""
    line = position.line + 1
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    units = 0
    for i, ch in enumerate(text):
        if units >= position.character:
            return line, i + 1
        units += _units(ch)
    return line, len(text) + 1


def lsp_range(lines: list[str], line: int, column: int, length: int) -> T.Range:
    return T.Range(start=to_lsp(lines, line, column), end=to_lsp(lines, line, column + max(length, 0)))


def word_at(lines: list[str], line: int, column: int) -> tuple[int, str] | None:
    """(first column, word) of the name at or just before (line, column)."""
    if not 1 <= line <= len(lines):
        return None
    for m in WORD.finditer(lines[line - 1]):
        if m.start() + 1 <= column <= m.end() + 1:
            return m.start() + 1, m.group(0)
    return None
