"""Which question a table may answer itself: any interface with human
seats (the browser table, and the property check that tries the rule on
every ruleset) asks this one function."""

from __future__ import annotations


def answered_by_table(game, st, humans) -> int | None:
    """A human seat whose question the table answers itself (its only
    option), or None. Only when one human is seated: with several, whether
    a seat's question is forced may hang on what only that seat sees (an
    optional play of its cards above 3), and answering it at once would
    show every other seat, in who is still to decide, that it has none. So
    with several humans each is asked as usual, as the terminal's hot seat
    does; ``rulebook check`` tries the rule on every ruleset it checks
    (``properties.check_forced_answers``)."""
    if len(humans) != 1:
        return None
    for p in game.to_move(st):
        if p in humans and len(game.options(st, p)) == 1:
            return p
    return None
