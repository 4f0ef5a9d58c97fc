"""Hover: what a name of the rule text (or a declaring YAML key) is, from
the checker's declarations and the ruleset's own descriptions."""

from __future__ import annotations

from rulebook.lsp.builtin_docs import builtin_docs
from rulebook.validator.uses import NameUse

VISIBILITY = {"public": "everybody sees its components", "owner": "only its owner sees them",
              "hidden": "nobody sees them", "top": "everybody sees the top one"}


def hover_markdown(use: NameUse, checker) -> str | None:
    describe = _DESCRIBE.get(use.kind)
    if describe is None or checker is None:
        return None
    text = describe(use, checker)
    return text and text.strip()


def _spec(checker, section: str, name: str) -> dict:
    table = checker.data.get(section) if isinstance(checker.data, dict) else None
    spec = table.get(name) if isinstance(table, dict) else None
    return spec if isinstance(spec, dict) else {}


def _described(spec: dict) -> str:
    text = spec.get("description")
    return f"\n\n{str(text).strip()}" if text else ""


def _code(text: str) -> str:
    return f"```rulebook\n{text}\n```"


def _zone(use, checker):
    fam = checker.families.get(use.name)
    if fam is None:
        return None
    owner = "one shared zone" if fam.per is None else f"one per {fam.per}"
    holds = f"holds {fam.of} components" if fam.of else "holds components of any type"
    order = "ordered, top first" if fam.ordered else "unordered (sorted by id)"
    return (_code(f"zone {use.name}") + f"\n\n{owner}; {holds}; visibility {fam.visibility}: "
            f"{VISIBILITY.get(fam.visibility, '')}; {order}" + _described(_spec(checker, "zones", use.name)))


def _component(use, checker):
    ct = checker.comp_types.get(use.name)
    if ct is None:
        return None
    fixed = ", ".join(f"{k}: {t}" for k, t in ct.static.items()) or "none"
    changing = ", ".join(f"{k}: {t}" for k, t in ct.dynamic.items()) or "none"
    return (_code(f"component {use.name}") + f"\n\nfixed properties: {fixed}\n\nchanging properties: {changing}"
            + _described(_spec(checker, "components", use.name)))


def _property(use, checker):
    owners = [use.target[1]] if use.target[1] else [n for n, ct in checker.comp_types.items()
                                                    if use.name in ct.static or use.name in ct.dynamic]
    parts = []
    for owner in owners:
        ct = checker.comp_types.get(owner)
        if ct is None:
            continue
        spec = _spec(checker, "components", owner)
        if use.name in ct.dynamic:
            state = (spec.get("state") or {}).get(use.name)
            initial = state.get("initial") if isinstance(state, dict) else state
            head = _code(f"{owner}.{use.name}: {ct.dynamic[use.name]}")
            parts.append(head + f"\n\nchanging; initial value `{initial}`")
            continue
        values = _values(spec, use.name)
        parts.append(_code(f"{owner}.{use.name}: {ct.static.get(use.name)}") + f"\n\nfixed; values: {values}")
    return "\n\n---\n\n".join(parts) or None


def _values(spec: dict, prop: str) -> str:
    """The values a fixed property takes, as the ruleset writes them."""
    for section in ("for_each", "props"):
        table = spec.get(section)
        if isinstance(table, dict) and prop in table:
            return f"`{table[prop]}`"
    rows = [row[prop] for row in spec.get("items") or [] if isinstance(row, dict) and prop in row]
    seen = list(dict.fromkeys(map(str, rows)))
    return ", ".join(f"`{v}`" for v in seen[:12]) + (", ..." if len(seen) > 12 else "") if seen else "?"


def _builtin(use, checker):
    doc = builtin_docs().get(use.name)
    lo, hi, _ = checker.builtins.get(use.name, (0, 0, None))
    if doc is None:
        return _code(f"{use.name}(...)") + f"\n\nbuilt-in function, {lo} to {hi} arguments"
    text = _code("\n".join(doc.signatures)) + f"\n\n{doc.summary}"
    if doc.example:
        text += "\n\nExample:\n" + _code(doc.example)
    return text


def _signature(params) -> str:
    return ", ".join(f"{n}: {t}" for n, t in params)


def _function(use, checker):
    entry = checker.functions.get(use.name)
    if entry is None:
        return None
    spec = _spec(checker, "functions", use.name)
    returns = next((t for (n, *_), t in checker.function_types.items() if n == use.name), None)
    head = f"function {use.name}({_signature(entry[0])})" + (f" -> {returns}" if returns is not None else "")
    return _code(head) + f"\n\n`{spec.get('value', '')}`" + _described(spec)


def _procedure(use, checker):
    entry = checker.procedures.get(use.name)
    if entry is None:
        return None
    returns = checker.proc_returns.get(use.name)
    head = f"procedure {use.name}({_signature(entry[1])})" + (f" -> {returns}" if returns is not None else "")
    return _code(head) + _described(_spec(checker, "procedures", use.name))


def _param(use, checker):
    spec = _spec(checker, "params", use.name)
    choices = spec.get("choices")
    text = _code(f"param {use.name}: {checker.param_types.get(use.name, '?')}")
    text += f"\n\ndefault `{spec.get('default')}`" + (f"; choices: {', '.join(map(str, choices))}" if choices else "")
    return text + _described(spec) + _variants_setting(checker, use.name)


def _variants_setting(checker, name: str) -> str:
    """The variants that set a parameter (their ``params``, or their patches')."""
    setters = []
    for vname, spec in (checker.data.get("variants") or {}).items():
        spec = spec if isinstance(spec, dict) else {}
        patch = spec.get("patch") if isinstance(spec.get("patch"), dict) else {}
        if any(isinstance(p, dict) and name in p for p in (spec.get("params"), patch.get("params"))):
            setters.append(str(vname))
    return f"\n\nset by the variants: {', '.join(setters)}" if setters else ""


def _define(use, checker):
    value = (checker.data.get("define") or {}).get(use.name)
    return _code(f"define {use.name}: {checker.param_types.get(use.name, '?')}") + f"\n\n`{value}`"


def _var(use, checker):
    spec = _spec(checker, "vars", use.name)
    return _code(f"var {use.name}: {checker.var_types.get(use.name, '?')}") + _described(spec)


def _player_var(use, checker):
    return _code(f"player var {use.name}: {checker.pvar_types.get(use.name, '?')}") + \
        _described(_spec(checker, "player_vars", use.name))


def _local(use, checker):
    return _code(f"{use.name}: {use.type or '?'}") + "\n\nlocal name"


def _value(use, checker):
    return _code(f"{use.name}: {use.type or '?'}") + "\n\nbuilt-in name"


def _declared(section: str, word: str):
    def describe(use, checker):
        spec = _spec(checker, section, use.name)
        return _code(f"{word} {use.name}") + _described(spec)
    return describe


_DESCRIBE = {
    "zone": _zone, "component": _component, "property": _property, "builtin": _builtin, "function": _function,
    "procedure": _procedure, "param": _param, "define": _define, "var": _var, "player_var": _player_var,
    "local": _local, "value": _value, "action": _declared("actions", "action"), "phase": _declared("phases", "phase"),
    "event": _declared("events", "event"), "variant": _declared("variants", "variant"),
}
