"""Check how a ruleset's components are made (``for_each``, ``items``,
``props``, ``count``, ``copies``), their changing properties' starting
values, and their texts (label, back, status)."""

from __future__ import annotations

from rulebook.validator.check_expr import CheckError, Cx
from rulebook.validator.check_texts import template_parts
from rulebook.validator.ir import ROW_COPIES, ComponentRules, Template
from rulebook.validator.types import ANY, COMP, INT, Type, compatible, literal_type


def _place(doc, path: tuple, key: bool = False) -> str:
    """``file:line:col`` of the value at ``path`` (or of its key), for run-time errors."""
    return "{}:{}:{}".format(doc.file, *doc.where(path, key=key))


def check_components(ck):
    for name, spec in (ck.data.get("components") or {}).items():
        ct = ck.comp_types[name]
        base = ("components", name)
        scope = ck.scratch(f"components {name}")
        loops = []
        for var in spec.get("for_each") or {}:
            x, t = ck.check_expr_at(base + ("for_each", var), scope)
            if x is not None and t.kind not in ("list", "any", "zone"):
                ck.report(
                    "E041",
                    f"for_each needs a list of values for '{var}', e.g. range(1, 8)",
                    base + ("for_each", var),
                )
                x = None
            et = t.arg if t.kind == "list" else ANY
            ct.static[var] = et
            loops.append((var, scope.fresh(var, et), x))
        items = spec.get("items") or []
        item_keys = []
        for i, row in enumerate(items):
            check_row_copies(ck, name, row, base + ("items", i))
            for key in row if isinstance(row, dict) else {}:
                if key != ROW_COPIES and key not in [k for k, _ in item_keys]:
                    item_keys.append((key, scope.fresh(key, ct.static.get(key, ANY))))
        props = []
        for pname in spec.get("props") or {}:
            x, t = ck.check_expr_at(base + ("props", pname), scope)
            ct.static[pname] = t
            props.append((pname, scope.fresh(pname, t), x))
        copies = None
        if "copies" in spec:
            copies, _ = ck.check_expr_at(base + ("copies",), scope, INT, "copies")
        for fname in ("count", "copies"):
            if isinstance(spec.get(fname), int) and not isinstance(spec[fname], bool) and spec[fname] < 0:
                ck.report("E014", f"'{name}': {fname} {spec[fname]} is negative", base + (fname,),
                          hint="a number of components is 0 or more")
        if "count" in spec and (spec.get("for_each") or spec.get("items")):
            ck.report("E014", f"'{name}': count has no effect next to "
                      f"{'for_each' if spec.get('for_each') else 'items'}", base + ("count",), key=True,
                      hint="'copies' makes several of each")
        count = ck.check_expr_at(base + ("count",), scope, INT, "count")[0] if "count" in spec else None
        rules = ComponentRules(name, loops, items, item_keys, props, copies, count, scope.unit.nlocals, {},
                               where=_place(ck.doc, base, key=True),
                               slot_names=scope.unit.names,
                               count_where=_place(ck.doc, base + ("count",)),
                               copies_where=_place(ck.doc, base + ("copies",)))
        rules.initial = check_initial(ck, name, spec, ct, base)
        if "label" in spec:
            rules.label = template(ck, base + ("label",), {"self": COMP(name)})
        if "back_label" in spec:
            # read as text said to everybody: a property the back does not show reads "[hidden]"
            rules.back_label = template(ck, base + ("back_label",), {"self": COMP(name)}, public=True)
        if "status" in spec:
            rules.status = template(ck, base + ("status",), {"self": COMP(name)})
        ck.out.components[name] = rules


def check_row_copies(ck, name: str, row, path: tuple) -> None:
    """An item's own ``copies``: how many components this row makes, so
    that a family whose kinds come in different numbers needs no filler
    components. A literal, checked here at its value: a whole number, 0 or more."""
    if not isinstance(row, dict) or ROW_COPIES not in row:
        return
    n = row[ROW_COPIES]
    if isinstance(n, bool) or not isinstance(n, int):
        ck.report("E014", f"'{name}': an item's copies must be a whole number, not {n!r}", path + (ROW_COPIES,),
                  hint="write how many of this item there are, e.g. copies: 3")
    elif n < 0:
        ck.report("E014", f"'{name}': an item's copies {n} is negative", path + (ROW_COPIES,),
                  hint="a number of components is 0 or more")


def check_initial(ck, name, spec, ct, base) -> dict:
    """Initial values of the changing properties: they may read the fixed ones by name."""
    iscope = ck.scratch(f"components {name} state")
    slots = {k: iscope.fresh(k, t) for k, t in ct.static.items()}
    initial = {}
    for key, init in (spec.get("state") or {}).items():
        path = base + ("state", key) + (("initial",) if isinstance(init, dict) else ())
        if isinstance(init, dict) and "initial" not in init:
            initial[key] = ("value", None)
            continue
        value = init.get("initial") if isinstance(init, dict) else init
        if not isinstance(value, str):  # a number, true/false, null or a list: the value itself
            t = literal_type(value)
            if ct.dynamic[key].kind == "any" and t.kind != "none":
                ct.dynamic[key] = t
            elif t.kind != "none" and not compatible(ct.dynamic[key], t):
                ck.report("E041", f"initial value is {t}, but '{key}' is declared {ct.dynamic[key]}", path)
            initial[key] = ("value", value)
            continue
        x, t = ck.check_expr_at(path, iscope)
        if x is None:
            continue
        if ct.dynamic[key].kind == "any":
            ct.dynamic[key] = t if t.kind != "none" else ANY
        initial[key] = ("expr", x)
    return {"props": initial, "slots": slots, "nlocals": iscope.unit.nlocals, "names": iscope.unit.names}


def template(ck, path, names: dict[str, Type], public: bool = False) -> Template | None:
    """A text template from the YAML value at ``path``; the names given
    (e.g. ``self``) are bound to its render function's arguments."""
    text = ck.text_of(path)
    scope = ck.scratch("template")
    slots = tuple(scope.fresh(n, t) for n, t in names.items())
    cx = Cx(ck, scope, tuple(path), ck.doc.spans.get(tuple(path)))
    try:
        pieces = template_parts(ck, str(text), cx, 1, 1, "this text", public,
                                itself="self" if "self" in names else None)
    except CheckError:
        return None
    return Template(pieces, public, slots, scope.unit.nlocals, scope.unit.names)


def check_rows(ck):
    """Every row of a type's ``items`` has each fixed property the rules
    read of that type: a row without one would stop the game when read."""
    for name, spec in (ck.data.get("components") or {}).items():
        items = spec.get("items") or [] if isinstance(spec, dict) else []
        made = set(spec.get("for_each") or {}) | set(spec.get("props") or {})
        read = sorted({prop for kind, prop in ck.read_props if kind in (name, None) and prop not in made})
        for i, row in enumerate(items):
            if not isinstance(row, dict):
                continue
            for prop in read:
                if prop not in row and prop in ck.comp_types[name].static:
                    ck.report("E032", f"row {i + 1} of '{name}' has no '{prop}', which the rules read",
                              ("components", name, "items", i),
                              hint=f"give every row '{prop}' (none where it does not apply)")
