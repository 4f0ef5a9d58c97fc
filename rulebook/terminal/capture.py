"""Every screen of a whole game, as a terminal of a given size shows it.

The play session (``rulebook.terminal.play.Session``) is run with a console
that records what it writes, on a terminal of fixed width and height; a
human seat is answered by a seeded random choice, the other seats by bots.
Each time the human is asked, the screen drawn since the last clear is kept,
so tests and tools can check that every screen of every game fits and says
what it must (the header, the map, what happened since the seat's last
decision). Why not a real terminal for all of them: a whole game is
hundreds of screens, and a real terminal (``tests/interfaces/test_tmux_play.py``) is
too slow to wait on for each; one real game there checks this agrees.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field

from rich.console import Console


@dataclass
class Screen:
    """One screen at a decision of the human seat: its lines as the
    terminal shows them, the lines narrated to the seat since its previous
    decision, and the options it was asked to choose from."""

    lines: list[str]
    fresh: list[str]
    options: list[str]
    pages: list[list[str]] = field(default_factory=list)  # the catch-up pages shown before it
    # lines the program wrote longer than the terminal is wide: the terminal breaks them anywhere,
    # mid-word and without indent, so a screen that fits has none
    too_wide: list[str] = field(default_factory=list)

    def shows(self, text: str) -> bool:
        """Whether ``text`` is readable on this screen or its pages, a line
        wrapped over rows counting as one."""
        rows = [row for page in self.pages + [self.lines] for row in page]
        return " ".join(text.split()) in " ".join(" ".join(rows).split())


@dataclass
class Capture:
    screens: list[Screen] = field(default_factory=list)
    ending: list[str] = field(default_factory=list)  # what the terminal shows after the game ends
    ending_too_wide: list[str] = field(default_factory=list)


class _Recorder(Console):
    """A console that keeps what was on the terminal at each clear."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.cleared: list[str] = []

    def clear(self, home: bool = True) -> None:
        self.cleared.append(self.export_text(clear=True))


class _Enter:
    """Input that presses Enter whenever asked (the catch-up pages)."""

    can_time_out = False

    def read(self, timeout=None) -> str:
        return ""

    def isatty(self) -> bool:
        return False


def too_wide(text: str, width: int) -> list[str]:
    """The lines of ``text`` longer than ``width``, which a terminal would break for us."""
    return [line.rstrip() for line in text.split("\n") if len(line.rstrip()) > width]


def terminal_rows(text: str, width: int) -> list[str]:
    """``text`` as the rows a terminal of ``width`` columns shows: a
    longer line goes on in the next row, as a terminal wraps it."""
    rows = []
    for line in text.split("\n"):
        line = line.rstrip()
        while len(line) > width:
            rows.append(line[:width])
            line = line[width:]
        rows.append(line)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def whole_game(game, players: int, seed: int, human: int = 0, width: int = 80, height: int = 24,
               bots: str = "greedy", limit: int = 400, pick=None) -> Capture:
    """Play one game with seat ``human`` answered at random (seeded; or by
    ``pick(options)``, an option's index) and bots at the other seats, as
    ``rulebook play GAME --human 1 --seed SEED`` plays it, keeping each of
    the human's screens."""
    from rulebook.terminal.play import PROMPT, SPACE_PROMPT, Session, _bots

    st = game.new(players=players, seed=seed)
    agents = _bots(bots, players, seed)
    session = Session(game, st, game_arg=game.program.id, humans=(human + 1,), seed=seed, verbose=False, delay=0,
                      log=None, save_path="capture-save.json", bots=agents, stdin=io.StringIO(""))
    session.console = _Recorder(file=io.StringIO(), width=width, height=height, force_terminal=True, record=True,
                                color_system=None, highlight=False, markup=False, emoji=False, soft_wrap=True)
    session.reader = _Enter()
    rnd = random.Random(seed)
    capture = Capture()
    from rulebook.agents.base import decide

    session.say(f"{game.program.title}: {players} players")
    session.flush()
    while not st.over and len(capture.screens) < limit:
        p = game.to_move(st)[0]
        options = game.options(st, p)
        if p == human and len(options) > 1:
            fresh = [ln.text for ln in session.history[p][len(session.history[p]) - session.fresh[p]:]] \
                if session.fresh[p] else []
            answer = rnd.randrange(len(options)) if pick is None else pick(options)
            session.console.export_text(clear=True)  # what came before was cleared by the screen
            session.console.cleared = []
            session.show(p, options, None)
            session.console.print((session.ask_head or "") + (SPACE_PROMPT if session.dense else PROMPT) + ": ",
                                  end="")
            pages = [terminal_rows(text, width) for text in session.console.cleared[1:]]
            text = session.console.export_text(clear=True)
            wide = [line for page in session.console.cleared[1:] + [text] for line in too_wide(page, width)]
            capture.screens.append(Screen(terminal_rows(text, width), fresh, [o.label for o in options], pages,
                                          wide))
            session.fresh[p] = 0
        else:
            answer = 0 if p == human else decide(game, st, p, agents[p])
        first = len(st.events)
        game.apply(st, p, answer)
        session.flush(frozenset({first}) if len(options) == 1 else frozenset())  # as Session.play does
    session.finish()
    text = session.console.export_text(clear=True)
    capture.ending, capture.ending_too_wide = terminal_rows(text, width), too_wide(text, width)
    return capture
