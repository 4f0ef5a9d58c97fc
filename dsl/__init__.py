"""The Rulebook rule language: grammar (``rules.lark``), typed AST
(``dsl.ast``), parser (``dsl.parser``) and the text of a tree
(``dsl.printer``).

Everything written inside rule text (conditions, expressions, effect blocks)
is parsed here, once, at load time. Nothing in this package knows any game.
The package imports nothing itself: loading a compiled ruleset from the
cache needs no parser.
"""
