"""``rulebook lsp``: a Language Server Protocol server for rulesets and
scenario files, built on pygls (the ``lsp`` extra).

It asks the validator, never a parser of its own: diagnostics are the
validator's (``validator.pipeline``), names and their places the checker's
record of what each name resolved to (``validator.uses``). Modules: the
server's wiring (``server``), a document and what the last check found
(``analysis``, ``positions``), and one module per feature (``diagnostics``,
``hover``, ``definitions``, ``completion``, ``symbols``). pygls is imported
only when the server starts, so the rest of the command line works without it.
"""

from __future__ import annotations

MISSING = ("rulebook lsp needs pygls, the Python framework of the Language Server Protocol: "
           "pip install 'rulebook[lsp]'")


def run() -> None:
    """Serve over standard input and output until the editor says exit."""
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise RuntimeError(MISSING) from None
    from rulebook.lsp.server import make_server

    make_server().start_io()
