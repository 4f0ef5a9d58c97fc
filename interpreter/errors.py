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
    ruleset's fault, so the message names the rule and its source line."""

    def __init__(self, code: str, message: str, where: str = "", hint: str | None = None):
        super().__init__(f"{where}: error[{code}]: {message}" if where else f"error[{code}]: {message}")
        self.code = code
        self.message = message
        self.where = where
        self.hint = hint

    def __str__(self) -> str:
        """Rendered as the compiler renders a diagnostic, hint included."""
        head = f"error[{self.code}]: {self.message}"
        if self.where:
            head = f"{self.where}: {head}"
        return head + (f"\n  = hint: {self.hint}" if self.hint else "")


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
