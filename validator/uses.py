"""Where each name of the rule text is used, as the checker resolved it.

The checker resolves every name once (``validator.check_expr``,
``validator.check_stmt``); it records here what it found, at the name's own
place in the file, so that tools reading a ruleset (the language server's
hover, go to definition, find references and completion) ask the checker
instead of parsing the rule text a second time. Recording changes nothing
the checker decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class NameUse:
    """One name in rule text. ``target`` says what it names, the same tuple
    for every use of the same thing: ``("zone", name)``, ``("property",
    component type or "", property)``, ``("local", unit, slot)``, ...
    ``binds``: this occurrence declares the name (a ``let``, a ``for``, a
    ``choose``, a function's parameter ``x => ...``)."""

    kind: str  # zone, component, property, player_var, var, param, function, procedure, builtin, local, value
    name: str
    line: int
    column: int
    path: tuple  # where in the document the rule text is
    target: tuple
    type: str = ""
    binds: bool = False

    @property
    def length(self) -> int:
        return len(self.name)


@dataclass(frozen=True)
class ScopeAt:
    """The local names in scope where a statement starts, with their types:
    what completion offers at a place of a rule text."""

    path: tuple
    line: int
    column: int
    names: tuple  # (name, type as text)


@dataclass
class UseIndex:
    uses: list[NameUse] = field(default_factory=list)
    scopes: list[ScopeAt] = field(default_factory=list)

    def add(self, use: NameUse) -> None:
        self.uses.append(use)


def name_column(lines: list[str], line: int, column: int, name: str) -> int:
    """The column of ``name`` as a whole word on ``line`` at or after
    ``column`` (a statement's place is where it starts: ``let x = ...``
    names ``x`` a few columns on); ``column`` itself when it is not there."""
    if not 1 <= line <= len(lines):
        return column
    found = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])").search(lines[line - 1], column - 1)
    return found.start() + 1 if found else column
