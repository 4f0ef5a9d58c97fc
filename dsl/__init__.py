"""The Rulebook rule language: grammar, typed AST and parser.

Everything written inside rule text (conditions, expressions, effect blocks)
is parsed here, once, at load time. Nothing in this package knows any game.
"""

from dsl.parser import ParseError, parse_block, parse_expression

__all__ = ["ParseError", "parse_block", "parse_expression"]
