"""The terminal seat: the play screen drawn with rich, and line input.

The parts live in their own modules: ``text`` (styles and game text),
``table`` (the table one seat sees), ``panels`` (recent events, the
decision, help) and ``reader`` (line input). This module keeps the names
the rest of the program imports.
"""

from __future__ import annotations

from rulebook.terminal.panels import (  # noqa: F401
    KEYS,
    catch_up_pages,
    decision_head,
    decision_panel,
    events_panel,
    fresh_rows,
    help_panel,
    option_lines,
    space_lines,
)
from rulebook.terminal.reader import TIMEOUT, LineReader, Timeout  # noqa: F401
from rulebook.terminal.table import render_view, scores_text, shown_var, table_view, unset  # noqa: F401
from rulebook.terminal.text import (  # noqa: F401
    LINE_STYLES,
    SEAT_STYLES,
    WRAP_CONSOLE,
    items_text,
    make_console,
    name_players,
    seat_style,
    styled_line,
    value_text,
)

_WRAP_CONSOLE = WRAP_CONSOLE  # the name tests measure with
