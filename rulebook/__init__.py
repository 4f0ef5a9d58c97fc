"""Rulebook: board and card games written as data.

``rulebook.load(path_or_id, variants)`` compiles a ruleset and returns a
``Game`` (see ``interpreter.game``); the ``rulebook`` command is ``rulebook.cli.main``.
"""

from __future__ import annotations

__version__ = "0.1.0"


def load(game: str, variants=()):
    from rulebook.compiler.build import compile_path
    from rulebook.files.locate import locate
    from rulebook.interpreter.game import Game

    compiled = compile_path(locate(game), tuple(variants))
    if compiled.program is None:
        raise ValueError("\n".join(d.render() for d in compiled.report.errors))
    return Game(compiled.program)
