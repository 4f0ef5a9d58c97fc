"""Every name of a ruleset with its place: what the checker recorded in rule
text (``validator.uses``), the declarations (the YAML keys that define
zones, components, actions, ...) and the YAML values that name one (an
action in a phase's ``actions:``, a phase in ``next:`` or ``start:``).
Hover, definitions, references and symbols all read this one list."""

from __future__ import annotations

from rulebook.lsp.positions import word_at
from rulebook.validator.ir import ROW_COPIES
from rulebook.validator.uses import NameUse

# section -> what its keys declare
SECTIONS = {
    "zones": "zone", "components": "component", "define": "define", "vars": "var", "player_vars": "player_var",
    "params": "param", "functions": "function", "procedures": "procedure", "actions": "action",
    "phases": "phase", "events": "event", "variants": "variant",
}
PROPERTY_SECTIONS = ("for_each", "state", "props")


def declarations(doc) -> list[NameUse]:
    """A NameUse (``binds``) at the key of each declared name."""
    out = []
    for path, (line, col) in doc.key_positions.items():
        if len(path) == 2 and path[0] in SECTIONS and isinstance(path[1], str):
            kind = SECTIONS[path[0]]
            out.append(NameUse(kind, path[1], line, col, path, (kind, path[1]), binds=True))
        elif path[0] == "components" and _is_property_key(path):
            out.append(NameUse("property", path[-1], line, col, path, ("property", path[1], path[-1]), binds=True))
    return out


def _is_property_key(path: tuple) -> bool:
    if len(path) == 4 and path[2] in PROPERTY_SECTIONS:
        return isinstance(path[3], str)
    # an item's own 'copies' is how many of it there are, not a property
    return (len(path) == 5 and path[2] == "items" and isinstance(path[3], int) and isinstance(path[4], str)
            and path[4] != ROW_COPIES)


def yaml_references(doc) -> list[NameUse]:
    """The YAML values that name an action or a phase."""
    data = doc.data if isinstance(doc.data, dict) else {}
    refs: list[tuple[tuple, str]] = []
    if isinstance(data.get("start"), str):
        refs.append((("start",), "phase"))
    for name, spec in (data.get("phases") or {}).items() if isinstance(data.get("phases"), dict) else ():
        if not isinstance(spec, dict):
            continue
        base = ("phases", name)
        turn = spec.get("turn")
        if isinstance(turn, dict) and isinstance(turn.get("actions"), list):
            refs += [(base + ("turn", "actions", i), "action") for i in range(len(turn["actions"]))]
        if isinstance(spec.get("actions"), list):
            refs += [(base + ("actions", i), "action") for i in range(len(spec["actions"]))]
        nxt = spec.get("next")
        if isinstance(nxt, str):
            refs.append((base + ("next",), "phase"))
        elif isinstance(nxt, list):
            for i, entry in enumerate(nxt):
                if isinstance(entry, str):
                    refs.append((base + ("next", i), "phase"))
                elif isinstance(entry, dict) and isinstance(entry.get("to"), str):
                    refs.append((base + ("next", i, "to"), "phase"))
    out = []
    for path, kind in refs:
        value = _value(data, path)
        if not isinstance(value, str) or path not in doc.positions:
            continue
        span = doc.spans.get(path)
        line, col = span.to_file(1, 1) if span is not None else doc.positions[path]
        out.append(NameUse(kind, value, line, col, path, (kind, value)))
    return out


def _value(data, path):
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def all_names(doc, index) -> list[NameUse]:
    """Declarations, YAML references and the rule text's uses, each place
    once (a function's body is checked once per kind of call site)."""
    seen, out = set(), []
    for use in declarations(doc) + yaml_references(doc) + (list(index.uses) if index is not None else []):
        key = (use.line, use.column, use.target)
        if key not in seen:
            seen.add(key)
            out.append(use)
    return out


def name_at(names: list[NameUse], line: int, column: int) -> NameUse | None:
    for use in names:
        if use.line == line and use.column <= column <= use.column + use.length:
            return use
    return None


def definition(names: list[NameUse], target: tuple) -> NameUse | None:
    """Where ``target`` is declared: its YAML key, or the binding of a local.
    A property read from a value of unknown type (``("property", "", p)``)
    goes to the first component type that has it."""
    for use in names:
        if use.binds and (use.target == target or target[0] == "property" and not target[1]
                          and use.target[0] == "property" and use.target[2] == target[2]):
            return use
    return None


def same_thing(a: tuple, b: tuple) -> bool:
    """Whether two targets name the same thing (a property of unknown owner
    is the same property of each type that has it)."""
    if a == b:
        return True
    return a[0] == b[0] == "property" and a[2] == b[2] and (not a[1] or not b[1])


def rule_text_at(doc, line: int) -> tuple | None:
    """The document path of the rule text that covers ``line``, if any."""
    best = None
    for path, span in doc.spans.items():
        text = _value(doc.data, path)
        if not isinstance(text, str):
            continue
        first = span.chars[0][0] if span.chars else span.line
        last = span.chars[-1][0] if span.chars else span.line + max(text.count("\n") - 1, 0)
        if span.block:
            last = span.line + max(len(text.rstrip("\n").split("\n")) - 1, 0)
        if first <= line <= last + (1 if span.block else 0):
            best = path
    return best


CALLED = ("function", "procedure")
NAMED = ("zone", "define", "var", "param", "component")


def find_at(analysis, line: int, column: int) -> NameUse | None:
    """The name at (line, column): as the checker resolved it, or, in rule
    text the checker could not resolve (a statement with a mistake is given
    up at its first one), the declared name written there."""
    use = name_at(analysis.names, line, column)
    if use is not None or analysis.doc is None or rule_text_at(analysis.doc, line) is None:
        return use
    found = word_at(analysis.lines, line, column)
    if found is None:
        return None
    start, word = found
    called = analysis.lines[line - 1][start - 1 + len(word):].lstrip().startswith("(")
    if called and analysis.checker is not None and word in analysis.checker.builtins:
        return NameUse("builtin", word, line, start, (), ("builtin", word))
    kinds = CALLED if called else NAMED
    for decl in analysis.names:
        if decl.binds and decl.name == word and decl.kind in kinds:
            return NameUse(decl.kind, word, line, start, (), decl.target)
    return None
