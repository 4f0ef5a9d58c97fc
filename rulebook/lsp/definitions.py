"""Go to definition and find references: every name with the same target
(``rulebook.lsp.names``), from rule text and from YAML keys and values."""

from __future__ import annotations

from lsprotocol import types as T

from rulebook.lsp.names import definition, find_at, same_thing
from rulebook.lsp.positions import lsp_range


def definition_of(analysis, uri: str, line: int, column: int) -> list[T.Location]:
    use = find_at(analysis, line, column)
    if use is None:
        return []
    target = definition(analysis.names, use.target)
    if target is None:
        return []
    return [T.Location(uri=uri, range=lsp_range(analysis.lines, target.line, target.column, target.length))]


def references_of(analysis, uri: str, line: int, column: int, include_declaration: bool) -> list[T.Location]:
    use = find_at(analysis, line, column)
    if use is None:
        return []
    found = [u for u in analysis.names if same_thing(u.target, use.target) and (include_declaration or not u.binds)]
    found.sort(key=lambda u: (u.line, u.column))
    return [T.Location(uri=uri, range=lsp_range(analysis.lines, u.line, u.column, u.length)) for u in found]
