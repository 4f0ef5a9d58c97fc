"""What a ruleset's rules can do, read from the checker's program (the
validator's ``Checked`` trees), not from the rule text's words.

The integrations declare a game's type from it: a ``simultaneous for``
statement makes OpenSpiel's game simultaneous-move, a ``hide`` one makes
information imperfect, and the component types of ``create`` statements
get a capped pool in the observation. Reading the checked statements means
a word in a comment, a label or a ``say`` text is not taken for a rule, and
a rule a variant removes is not counted (the check is of the ruleset with
its variants).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rulebook.validator.ir import statements


@dataclass(frozen=True)
class Features:
    """The statements of the rules that change what an integration declares."""

    simultaneous: bool = False  # a ``simultaneous for``: several players answer one question at once
    hides: bool = False  # a ``hide``: a component turned face down in play
    created: frozenset = frozenset()  # the component types ``create`` makes


def of_checked(checked) -> Features:
    """The features of a checked ruleset (``validator.ir.Checked``)."""
    ops: set = set()
    created: set = set()
    for unit in checked.units.values():
        for s in statements(unit.body):
            ops.add(s.op)
            if s.op == "create":
                created.add(s.a[0])
    return Features("simultaneous" in ops, "hide" in ops, frozenset(created))


@lru_cache(maxsize=64)
def of_ruleset(path: str, variants: tuple = ()) -> Features:
    """The features of the ruleset file at ``path`` with ``variants``
    (checked once per process: the compiled program from the cache keeps
    no checked trees)."""
    from rulebook.validator.pipeline import check_path

    result = check_path(path, tuple(variants))
    if result.checked is None:
        raise ValueError(f"{path} does not check; run `rulebook validate {path}`")
    return of_checked(result.checked)


def of_game(game) -> Features:
    """The features of a compiled game (``interpreter.game.Game``), from its ruleset file."""
    prog = game.program
    if not prog.source_file:
        raise ValueError(f"{prog.id}: the game was compiled without a ruleset file, so its rules cannot be "
                         "checked for the integrations; compile it from a file")
    return of_ruleset(prog.source_file, tuple(prog.variants or ()))
