"""Typed failures of the game interface and of running rules.

An illegal option, a player who is not to move and a finished game are
different errors (as in python-chess and boardgame.io), so that callers can
tell a bug in an agent from a bug in a ruleset.
"""

from __future__ import annotations


class RulebookError(Exception):
    """Base of every error this package raises on purpose."""

    code = "R000"


class GameOverError(RulebookError):
    code = "R010"


class NotYourTurnError(RulebookError):
    code = "R011"


class IllegalOptionError(RulebookError):
    code = "R012"


class RuleError(RulebookError):
    """A ruleset did something impossible while running: it is the
    ruleset's fault, so the error names the rule's place. The place is
    data (``file``, ``line``, ``column``; ``path``: the keys of the ruleset
    value it is about, when known; ``decision``: how many decisions the
    game had made when the rules failed, set by the run loop), as lark's ``UnexpectedInput`` keeps it, and
    becomes text only in ``__str__``, so that no caller parses a message."""

    def __init__(self, code: str, message: str, where: str | tuple = "", hint: str | None = None,
                 path: tuple = (), decision: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.path = tuple(path)
        self.decision = decision
        self.file, self.line, self.column = "", 0, 0
        self.where = where

    @property
    def where(self) -> str:
        """The place as ``file:line:col`` (empty: not known), as diagnostics write it."""
        if not self.file and not self.line:
            return ""
        return f"{self.file}:{self.line}:{self.column}" if self.line else self.file

    @where.setter
    def where(self, place: str | tuple) -> None:
        """A place given as ``file:line:col`` text (the line map's) or as a
        ``(file, line, column)`` tuple."""
        if isinstance(place, tuple):
            self.file, self.line, self.column = place
            return
        head, _, col = place.rpartition(":")
        file, _, line = head.rpartition(":")
        if file and line.isdigit() and col.isdigit():
            self.file, self.line, self.column = file, int(line), int(col)
        else:
            self.file, self.line, self.column = place, 0, 0

    def __str__(self) -> str:
        """Rendered as the compiler renders a diagnostic, hint included."""
        head = f"error[{self.code}]: {self.message}"
        if self.where:
            head = f"{self.where}: {head}"
        return head + (f"\n  = hint: {self.hint}" if self.hint else "")

    def __reduce__(self):
        """Pickled (a worker process of many games sends it back) with its fields."""
        return (_rule_error, (self.code, self.message, (self.file, self.line, self.column), self.hint, self.path,
                              self.decision))


def _rule_error(*fields) -> RuleError:
    return RuleError(*fields)


class SaveFileError(RulebookError):
    """A saved game or scenario file that cannot be used as it is.
    ``path``: the keys of the value inside the file it is about (``("state",
    "history", 4)``: the fifth decision), so that the reader of the file
    places the error there without reading the message."""

    code = "R020"

    def __init__(self, message: str, code: str = "R020", path: tuple = ()):
        super().__init__(message)
        self.message, self.code, self.path = message, code, tuple(path)


# A scenario's scripted chance outcome (interpreter.ops) that the rules cannot use
SCRIPT = "R030"

# Runtime error codes (stable)
STEP_LIMIT = "R100"
NO_OPTIONS = "R101"
PHASE_LOOP = "R102"
NO_TRANSITION = "R103"
BAD_VALUE = "R104"
RECURSION = "R105"
EMPTY_ZONE = "R106"
TOO_MANY = "R107"
