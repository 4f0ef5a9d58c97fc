"""Completion inside rule text: after ``x.`` the properties of what ``x``
is; elsewhere the locals in scope at the cursor (loop variables, ``let``
bindings, parameters), zones, variables, parameters, component types, the
ruleset's functions and procedures, and the built-ins as snippets.

The locals and types come from the checker's record of the last check that
reached it (``validator.uses``): while a line is half typed, the text does
not parse, and the scope at that place is still known from before."""

from __future__ import annotations

import re

from lsprotocol import types as T

from rulebook.lsp.builtin_docs import builtin_docs
from rulebook.lsp.names import rule_text_at
from rulebook.validator.check_expr import BUILTIN_NAMES

AFTER_DOT = re.compile(r"(?:([A-Za-z_][A-Za-z0-9_]*)|[)\]])\.([A-Za-z0-9_]*)$")
K = T.CompletionItemKind


def locals_at(analysis, path: tuple, line: int, column: int) -> dict[str, str]:
    """name -> type of the locals in scope at (line, column) of the rule text at ``path``."""
    before = [s for s in analysis.scopes.get(path, ()) if (s.line, s.column) <= (line, column)]
    names = {"player": "player"}
    names.update(max(before, key=lambda s: (s.line, s.column)).names if before else ())
    for use in analysis.names:
        if use.binds and use.kind == "local" and (use.path == path or use.path[:2] == path[:2]) \
                and use.line < line:
            names.setdefault(use.name, use.type)
    return names


def complete(analysis, line: int, column: int) -> list[T.CompletionItem]:
    checker, doc = analysis.checker, analysis.doc
    if checker is None or doc is None:
        return []
    path = rule_text_at(doc, line)
    if path is None:
        return []
    before = analysis.lines[line - 1][:column - 1] if 1 <= line <= len(analysis.lines) else ""
    scope = locals_at(analysis, path, line, column)
    dot = AFTER_DOT.search(before)
    if dot:
        return _members(checker, scope.get(dot.group(1) or "", ""))
    return _names(checker, scope)


def _members(checker, type_text: str) -> list[T.CompletionItem]:
    """The properties of a value of type ``type_text`` (any component type's,
    and the player variables, when the type is not known)."""
    items = []
    types = [checker.comp_types[type_text]] if type_text in checker.comp_types else []
    if type_text == "player":
        return [T.CompletionItem(label=n, kind=K.Field, detail=str(t)) for n, t in checker.pvar_types.items()]
    if not types:
        types = list(checker.comp_types.values())
        items += [T.CompletionItem(label=n, kind=K.Field, detail=f"player var: {t}")
                  for n, t in checker.pvar_types.items()]
    seen = set()
    for ct in types:
        for table, what in ((ct.static, "fixed"), (ct.dynamic, "changing")):
            for name, t in table.items():
                if name not in seen:
                    seen.add(name)
                    detail = f"{ct.name}.{name}: {t} ({what})"
                    items.append(T.CompletionItem(label=name, kind=K.Property, detail=detail))
    items += [T.CompletionItem(label=n, kind=K.Property, detail=d) for n, d in
              (("owner", "player"), ("type", "str"), ("id", "int")) if n not in seen]
    return items


def _snippet(name: str, params: list[str]) -> str:
    return f"{name}(" + ", ".join(f"${{{i}:{p}}}" for i, p in enumerate(params, 1)) + ")$0"


def _names(checker, scope: dict[str, str]) -> list[T.CompletionItem]:
    items = [T.CompletionItem(label=n, kind=K.Variable, detail=f"local: {t}") for n, t in scope.items()]
    items += [T.CompletionItem(label=n, kind=K.Module, detail=f"zone of {f.of or 'components'}")
              for n, f in checker.families.items()]
    items += [T.CompletionItem(label=n, kind=K.Variable, detail=f"var: {t}") for n, t in checker.var_types.items()]
    items += [T.CompletionItem(label=n, kind=K.Constant, detail=f"param: {t}") for n, t in checker.param_types.items()]
    items += [T.CompletionItem(label=n, kind=K.Class, detail="component type") for n in checker.comp_types]
    items += [T.CompletionItem(label=n, kind=K.Keyword, detail="built-in name") for n in sorted(BUILTIN_NAMES)
              if n not in scope]
    docs = builtin_docs()
    for name in sorted(checker.builtins):
        doc = docs.get(name)
        sig = doc.signatures[0] if doc else f"{name}()"
        params = [p.strip() for p in sig[len(name) + 1:-1].split(",") if p.strip()]
        items.append(T.CompletionItem(label=name, kind=K.Function, detail=sig,
                                      documentation=doc.summary if doc else None,
                                      insert_text=_snippet(name, params),
                                      insert_text_format=T.InsertTextFormat.Snippet))
    for name, (params, *_) in checker.functions.items():
        items.append(T.CompletionItem(label=name, kind=K.Function, detail="function",
                                      insert_text=_snippet(name, [p for p, _ in params]),
                                      insert_text_format=T.InsertTextFormat.Snippet))
    for name, (_, params) in checker.procedures.items():
        items.append(T.CompletionItem(label=name, kind=K.Method, detail="procedure",
                                      insert_text=_snippet(name, [p for p, _ in params]),
                                      insert_text_format=T.InsertTextFormat.Snippet))
    return items
