"""Static types of the rule language, as the checker infers them.

A ``Type`` is a kind (int, bool, str, none, player, comp, zone, family,
list, map, any) with an argument: the component type of a comp, zone or
family (None: any type), or the item type of a list. Types exist only at
load; the running game carries plain values, and keeps a type's tag only
where it names values for people (``type_tag``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Type:
    kind: str
    arg: Any = None

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list of {self.arg}"
        if self.kind in ("comp", "zone", "family") and self.arg:
            return f"{self.kind} of {self.arg}" if self.kind != "comp" else str(self.arg)
        return {"comp": "component", "family": "zone family"}.get(self.kind, self.kind)


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none")
PLAYER = Type("player")
ANY = Type("any")
MAP = Type("map")
ERR = Type("error")  # what failed to check: accepted anywhere, so one mistake gives one diagnostic
FRACTION = Type("fraction")  # a YAML number like 2.5: no value of the language, so it fits no type
WHOLE = "numbers in a ruleset are whole (rule text divides with //, rounding down)"


def COMP(t: str | None = None) -> Type:
    return Type("comp", t)


def ZONE(t: str | None = None) -> Type:
    return Type("zone", t)


def LIST(t: Type = ANY) -> Type:
    return Type("list", t)


def is_listy(t: Type) -> bool:
    return t.kind in ("list", "zone", "any", "error")


def elem_type(t: Type) -> Type:
    if t.kind == "list":
        return t.arg
    if t.kind == "zone":
        return COMP(t.arg)
    if t.kind == "error":
        return ERR
    return ANY


def compatible(want: Type, got: Type) -> bool:
    """Whether a value of type ``got`` may stand where ``want`` is expected."""
    if want.kind in ("any", "error") or got.kind in ("any", "error"):
        return True
    if {want.kind, got.kind} == {"int", "player"}:
        return True  # players are seat numbers
    if got.kind == "none":
        return want.kind in ("comp", "player", "none", "str", "int", "list")  # optional values
    if want.kind == got.kind:
        if want.kind in ("comp", "zone") and want.arg and got.arg:
            return want.arg == got.arg
        if want.kind == "list":
            return compatible(want.arg, got.arg)
        return True
    if want.kind == "list" and got.kind == "zone":
        return compatible(want.arg, COMP(got.arg))
    return False


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either an ``a`` or a ``b``."""
    if a == b or b.kind == "none":
        return a
    if a.kind == "none":
        return b
    if a.kind == b.kind == "comp":
        return COMP(a.arg if a.arg == b.arg else None)
    if a.kind == b.kind == "list":
        return LIST(join(a.arg, b.arg))
    return ANY


def parse_type(text, comp_types) -> Type | None:
    """A type as the format writes it (``int``, ``list of card``), or None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if text.startswith("list of "):
        inner = parse_type(text[8:], comp_types)
        return LIST(inner) if inner else None
    simple = {
        "int": INT,
        "bool": BOOL,
        "str": STR,
        "player": PLAYER,
        "any": ANY,
        "zone": Type("zone"),
        "component": COMP(None),
        "none": NONE,
        "list": LIST(ANY),
    }
    if text in simple:
        return simple[text]
    if text in comp_types:
        return COMP(text)
    return None


def literal_type(v) -> Type:
    """The type of a plain YAML value."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return FRACTION
    if isinstance(v, str):
        return STR
    if v is None:
        return NONE
    if isinstance(v, list):
        t = NONE
        for x in v:
            t = join(t, literal_type(x))
        return LIST(ANY if t == NONE else t)
    return ANY


def article(t: Type) -> str:
    """``a str``, ``an int``: a type named in a sentence."""
    text = str(t)
    return ("an " if text[:1] in "aeiou" else "a ") + text


def type_tag(t: Type) -> str:
    """How values of a type are named to people: 'comp', 'player', 'list:comp', ..."""
    if t.kind == "list":
        return "list:" + type_tag(t.arg)
    return t.kind


def tag_type(tag: str) -> Type:
    """The type a ``type_tag`` stands for (as far as naming values needs)."""
    if tag.startswith("list:"):
        return LIST(tag_type(tag[5:]))
    return {"comp": COMP(None), "player": PLAYER}.get(tag, Type(tag) if tag in ("zone", "int", "str", "bool") else ANY)
