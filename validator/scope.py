"""Checking scopes: which names are local to a unit of rule text, in which
slot each lives and what type it has.

A unit (a hook, an action, a procedure, a condition checked on its own)
numbers its locals from 0; slot 0 is always ``player``. The compiler turns
slots into Python locals, or into a frame's list where the unit can stop at
a decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook.validator.types import PLAYER, Type


@dataclass
class Locals:
    """The slot counter of one unit."""

    name: str
    nlocals: int = 1
    names: dict = field(default_factory=lambda: {0: "player"})  # slot -> the rule's name, for readable code


@dataclass
class Scope:
    unit: Locals
    names: dict[str, tuple[int, Type]] = field(default_factory=dict)
    event: str | None = None  # the event a trigger handles
    event_slot: int = -1
    kind: str = "effect"  # effect | condition | setup | generate
    reserved: list = field(default_factory=list)  # names starting with '_' that rule text tried to bind

    def __post_init__(self):
        self.names.setdefault("player", (0, PLAYER))

    def declare(self, name: str, type_: Type) -> int:
        if name in self.names:
            slot, _ = self.names[name]
            self.names[name] = (slot, type_)
            return slot
        return self.fresh(name, type_)

    def fresh(self, name: str, type_: Type) -> int:
        if name.startswith("_"):
            self.reserved.append(name)
        slot = self.unit.nlocals
        self.unit.nlocals += 1
        self.names[name] = (slot, type_)
        self.unit.names[slot] = name
        return slot

    def temp(self) -> int:
        slot = self.unit.nlocals
        self.unit.nlocals += 1
        return slot

    def lookup(self, name: str):
        return self.names.get(name)
