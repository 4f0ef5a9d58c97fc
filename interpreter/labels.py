"""Human-readable names for values: components, players, zones, options."""

from __future__ import annotations

from rulebook.interpreter.rows import per_row
from rulebook.interpreter.zones import can_see, zone_family, zone_key
from rulebook.validator.values import literal  # noqa: F401 - one copy, named here for the runtime and generated code


class HiddenInText(Exception):
    """Raised while rendering text said to everybody when a piece of it
    reads what a face-down component hides; the piece reads "[hidden]"."""


HIDDEN = "[hidden]"


def player_name(st, p) -> str:
    if p is None:
        return "nobody"
    label = st.prog.player_label
    if label is not None:
        return label(st, p)
    return f"P{p + 1}"


_naming: set[int] = set()  # components whose label is being rendered now


def comp_name(st, c: int) -> str:
    cat = st.cat
    ctype = st.prog.comp_types.get(st.static[c].get("type") if c >= cat.n else cat.types[c])
    if ctype is not None and ctype.fixed_names and c < cat.n:
        # a name made of fixed properties depends on the component's row alone (a determinized
        # sample deals the rows anew: the row, not the number, is the key)
        return per_row(cat.names, st.static[c], lambda: _comp_name(st, c, ctype))
    return _comp_name(st, c, ctype)


def comp_names(st, values: list, t) -> list[str]:
    """The label of each of ``values``, options of type ``t`` (components;
    None is "pass"): as ``describe`` names them, the names kept per fixed row
    read in the loop without a call per component (a search labels the
    others' options at every step of its walk)."""
    cat, static, names = st.cat, st.static, st.cat.names
    out = []
    for v in values:
        if v is None or v.__class__ is bool:
            out.append("pass" if v is None else describe(st, v, t))
            continue
        if v.__class__ is int and v < cat.n:
            row = static[v]
            hit = names.get(id(row))
            if hit is not None and hit[0] is row:
                out.append(hit[1])
                continue
        out.append(comp_name(st, v))
    return out


def _comp_name(st, c: int, ctype) -> str:
    if ctype is not None and ctype.label is not None and c not in _naming:
        _naming.add(c)  # a label naming its own component (through a list, a function) falls back below once
        try:
            return ctype.label(st, c)
        except Exception:  # a label must never break play; fall back below
            pass
        finally:
            _naming.discard(c)
    props = st.static[c]
    shown = " ".join(str(v) for k, v in props.items() if k != "type")
    return f"{st.cat.types[c] if c < st.cat.n else props.get('type')} {shown}".strip()


def zone_name(st, z: int) -> str:
    if z < 0:
        return "out of the game"
    fam = st.prog.families[zone_family(st, z)]
    if fam.per is None:
        return fam.name
    key = zone_key(st, z)
    if fam.per == "player":
        return f"{fam.name} of {player_name(st, key)}"
    return f"{fam.name} of {comp_name(st, key)}"


def describe_fields(st, value: dict, types: dict, public: bool = False) -> str:
    """An event's fields in words, each by its declared type (so a face-down
    component is named by its back in text said to everybody)."""
    return ", ".join(f"{k} {describe(st, v, types.get(k), public)}" for k, v in value.items())


def describe(st, value, t=None, public: bool = False) -> str:
    """A value in words. ``public``: the text is for everybody, so a
    face-down component is named by its back, as views name it."""
    kind = getattr(t, "kind", None)
    if public and kind == "comp" and isinstance(value, int) and value < len(st.face) and not st.face[value]:
        return back_name(st, value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if kind == "player":
        return player_name(st, value)
    if kind == "comp":
        return comp_name(st, value)
    if kind == "zone":  # a zone reads as its contents, as players see them on the table
        return (
            "[" + ", ".join(comp_name(st, c) if st.face[c] else "a face-down component" for c in st.zones[value]) + "]"
        )
    if isinstance(value, dict):  # an event's fields
        return ", ".join(f"{k} {describe(st, v, None, public)}" for k, v in value.items())
    if isinstance(value, list):
        inner = getattr(t, "arg", None) if kind == "list" else None
        return "[" + ", ".join(describe(st, v, inner, public) for v in value) + "]"
    return str(value)


def back_name(st, c: int) -> str:
    """How a face-down component is named to someone who cannot see it:
    its type's ``back_label``, else its type and public properties."""
    if isinstance(c, list):  # an action whose arguments include face-down components
        ai, args = c
        act = st.prog.actions[ai]
        shown = [
            back_name(st, v)
            if getattr(t, "kind", None) == "comp" and isinstance(v, int) and not _sees(st, v)
            else describe(st, v, t)
            for v, t in zip(args, act.param_types)
        ]
        return act.name + " " + ", ".join(shown)
    t = st.cat.types[c] if c < st.cat.n else st.static[c].get("type")
    ct = st.prog.comp_types[t]
    if ct.back_label is not None:
        if ct.fixed_names and c < st.cat.n:  # as comp_name: by the component's row
            return per_row(st.cat.backs, st.static[c], lambda: ct.back_label(st, c))
        return ct.back_label(st, c)
    shown = [f"{p} {st.static[c].get(p, (st.props[c] or {}).get(p))}" for p in ct.public]
    return f"a face-down {t}" + (f" ({', '.join(shown)})" if shown else "")


def _sees(st, c: int) -> bool:
    return can_see(st, c, st.pending["players"][0] if st.pending else None)


def chosen_words(st, act, args) -> str:
    """The first parameters of a staged action as chosen so far, each named
    by its label (``param_labels``, else its name) and its value by its
    name (a component by its label, not its id): ``space hunting grounds``."""
    words = act.param_labels or act.params
    return ", ".join(f"{w} {describe(st, v, t)}" for w, v, t in zip(words, args, act.param_types))

