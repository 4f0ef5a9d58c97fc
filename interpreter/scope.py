"""Compile-time scopes: which names are local to a code block, in which
frame slot they live and what type they have."""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.program import PLAYER, Code, Type


@dataclass
class Scope:
    code: Code
    names: dict[str, tuple[int, Type]] = field(default_factory=dict)
    event: str | None = None  # the event a trigger handles
    event_slot: int = -1
    kind: str = "effect"  # effect | condition | setup | generate

    def __post_init__(self):
        self.names.setdefault("player", (0, PLAYER))

    reserved: list = field(default_factory=list)  # names starting with '_' that rule text tried to bind

    def declare(self, name: str, type_: Type) -> int:
        if name in self.names:
            slot, _ = self.names[name]
            self.names[name] = (slot, type_)
            return slot
        return self.fresh(name, type_)

    def fresh(self, name: str, type_: Type) -> int:
        if name.startswith("_"):
            self.reserved.append(name)
        slot = self.code.nlocals
        self.code.nlocals += 1
        self.names[name] = (slot, type_)
        return slot

    def temp(self) -> int:
        slot = self.code.nlocals
        self.code.nlocals += 1
        return slot

    def lookup(self, name: str):
        return self.names.get(name)
