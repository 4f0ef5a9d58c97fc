"""The outline: phases, actions, procedures, functions, components (with
their properties) and zones, each at its YAML key."""

from __future__ import annotations

from lsprotocol import types as T

from rulebook.lsp.names import declarations
from rulebook.lsp.positions import lsp_range

K = T.SymbolKind
SHOWN = {"phase": ("phases", K.Event), "action": ("actions", K.Method), "procedure": ("procedures", K.Function),
         "function": ("functions", K.Function), "component": ("components", K.Class), "zone": ("zones", K.Array)}


def _extent(lines: list[str], line: int, column: int) -> tuple[int, int]:
    """(last line, its length) of the YAML value under the key at (line, column):
    the lines after it indented more deeply, or blank."""
    last = line
    for i in range(line, len(lines)):
        text = lines[i]
        if text.strip() and len(text) - len(text.lstrip()) < column:
            break
        if text.strip():
            last = i + 1
    return last, len(lines[last - 1]) if lines else 0


def _symbol(use, lines, kind, children=None) -> T.DocumentSymbol:
    name_range = lsp_range(lines, use.line, use.column, use.length)
    last, width = _extent(lines, use.line, use.column)
    whole = T.Range(start=name_range.start, end=T.Position(line=last - 1, character=max(width, 0)))
    if whole.end.line == name_range.end.line and whole.end.character < name_range.end.character:
        whole = name_range
    return T.DocumentSymbol(name=use.name, kind=kind, range=whole, selection_range=name_range, children=children)


def outline(doc, lines: list[str]) -> list[T.DocumentSymbol]:
    decls = declarations(doc)
    props: dict[str, list] = {}
    for use in decls:
        if use.kind == "property":
            props.setdefault(use.target[1], []).append(use)
    out = []
    for kind, (section, symbol_kind) in SHOWN.items():
        mine = sorted((u for u in decls if u.kind == kind and u.path[0] == section), key=lambda u: u.line)
        if not mine or ("section", section) not in _section_keys(doc):
            continue
        children = []
        for use in mine:
            fields = [_symbol(p, lines, K.Property) for p in props.get(use.name, [])] if kind == "component" else None
            children.append(_symbol(use, lines, symbol_kind, fields))
        line, col = doc.key_positions[(section,)]
        head = T.DocumentSymbol(name=section, kind=K.Namespace, range=T.Range(
            start=lsp_range(lines, line, col, 0).start, end=children[-1].range.end),
            selection_range=lsp_range(lines, line, col, len(section)), children=children)
        out.append(head)
    return out


def _section_keys(doc) -> set:
    return {("section", p[0]) for p in doc.key_positions if len(p) == 1}
