"""``rulebook play``: one game at the terminal, human seats and bots.

Human seats see only their own view (``interpreter.view``) and the
narration meant for them; with several humans at one terminal (hot seat)
the screen is cleared and the terminal passed between them. Bots play the
other seats. A human decision accepts a number, ``?`` (help), ``r`` (the
table again), ``s`` (save and stop) and ``q`` (quit, after asking); bad
input is re-asked in one line, and the end of input stops the game cleanly.

When the engine gives a decision a time limit (``Game.time_limit``), only
human seats are timed: the seconds are shown, and when no valid answer
arrives in time ``Game.time_out`` applies the ruleset's penalty, which is
narrated and logged like a decision.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import click
from rich.console import Group
from rich.text import Text

from rulebook.interpreter.narrate import Line, narrate, narrate_lines
from rulebook.terminal.screen import (
    TIMEOUT,
    LineReader,
    catch_up_pages,
    decision_head,
    decision_panel,
    events_panel,
    fresh_rows,
    help_panel,
    make_console,
    name_players,
    styled_line,
    table_view,
)

# what a human decision gives besides an option index
SAVE, QUIT, EOF, TIMED_OUT, BACK = "save", "quit", "eof", "timed out", "back"
HISTORY = 200  # narrated lines kept per human seat for the "Recent events" panel
WARN_AT = 5.0  # seconds left when a timed player is warned (for limits of 10 s or more)
PROMPT = "choice (number, ? for help, s to save, q to quit)"
SPACE_PROMPT = "choice (column,row as on the map, ? for help, s to save, q to quit)"  # options drawn as spaces


def run(game_arg, variants, players, seed, humans, params, verbose, delay, log_path, save_path, resume_path,
        bots: str | None = None) -> None:
    """The ``play`` command's body (see ``rulebook.cli.play`` for the options)."""
    from rulebook.files.loading import load_game, parse_params, player_count
    from rulebook.files.logs import LogWriter
    from rulebook.files.saves import read_save

    saved = None
    if resume_path:  # checked field by field before use (rulebook.files.saves)
        saved = read_save(resume_path)
        variants = tuple(saved.data["variants"])
        humans = tuple(saved.data.get("humans") or humans)
        if bots is None:
            bots = saved.bots
    loaded, path = load_game(game_arg, variants)
    if saved is not None:
        st = saved.load(loaded)
        n, seed = st.n, saved.data.get("seed", 0)
    else:
        n = player_count(loaded, players)
        if seed is None:
            seed = int(time.time()) % 100000
        st = loaded.new(players=n, seed=seed, params=parse_params(params))
    for h in humans:
        if not 1 <= h <= n:
            raise click.UsageError(f"--human {h}: seats are 1 to {n}")
    bots = bots or "greedy"
    agents = _bots(bots, n, seed)
    if save_path is None:  # one save file per game, named after it
        save_path = f"{loaded.program.id}-save.json"
    log = None
    if log_path:
        log = LogWriter(log_path, loaded, st, seed, path)
        if saved is not None:
            _log_history(loaded, st, seed, log)
    session = Session(
        loaded,
        st,
        game_arg=game_arg,
        humans=tuple(humans),
        seed=seed,
        verbose=verbose,
        delay=delay,
        log=log,
        save_path=save_path,
        bots=agents,
        bot_specs=bots,
    )
    try:
        session.play()
    except KeyboardInterrupt:
        session.say("")
        session.say("Interrupted: the game stops here (not saved).")
        if log:
            log.close()
        sys.exit(130)


def final_scores(game, st) -> list[Text]:
    """The final scores as a small table, one column per part of the
    scoring section when it has several, best first."""
    from rulebook.display.scores import breakdown
    from rulebook.interpreter.labels import player_name

    rows = breakdown(game, st) if game.program.score else None
    if not rows:
        return []
    rows = sorted(rows, key=lambda r: r["total"] if game.program.lowest_wins else -r["total"])
    names = [name for name, _ in rows[0]["parts"]] if all(r["parts"] for r in rows) else []
    words = [n.split() for n in names]
    unit = words[0][-1] if names and all(len(w) > 1 and w[-1] == words[0][-1] for w in words) else ""
    heads = [" ".join(w[:-1]) if unit else n for w, n in zip(words, names)] + ["total"]
    who = [player_name(st, r["player"]) for r in rows]
    first = max(len(x) for x in who)
    cells = [[str(v) for _, v in r["parts"]] + [str(r["total"])] if names else [str(r["total"])] for r in rows]
    heads = heads if names else ["score"]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    out = [Text("Final scores" + (f" ({unit})" if unit else "") + ":", style="bold")]
    out.append(Text("  " + " " * first + "".join(f"  {h:>{w}}" for h, w in zip(heads, widths)), style="dim"))
    for name, row in zip(who, cells):
        out.append(Text(f"  {name:<{first}}" + "".join(f"  {c:>{w}}" for c, w in zip(row, widths))))
    return out


def space_option(st, options, typed: str):
    """The option a typed coordinate picks: ``3,4`` (or ``3 4``, ``(3,4)``),
    as the map's column and row; None when ``typed`` is not a coordinate, a
    message when no option, or more than one, names that space."""
    import re

    m = re.fullmatch(r"\(?\s*(\d+)\s*[, ]\s*(\d+)\s*\)?", typed)
    if not m or not st.cat.boards:
        return None
    col, row = int(m.group(1)), int(m.group(2))
    from rulebook.interpreter.boards import drawn_boards

    spaces = {board.by_key.get((col, row)) for _, _, board in drawn_boards(st)} - {None}  # on every seat's board
    if not spaces:
        return f"No space at column {col}, row {row} on the map."
    from rulebook.display.targets import option_targets

    hits = [o.index for o in options if any(t == f"c{c}" for c in spaces for t in option_targets(st, o.value, None))]
    if not hits:  # an option naming the space in its words: "monster at sea (6,1)"
        written = re.compile(rf"(?<!\d){col}\s*,\s*{row}(?!\d)")
        hits = [o.index for o in options if written.search(o.label)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        return f"No option names the space at {col},{row}."
    return f"Several options name {col},{row}: type the number of one."


def space_keys(st, options) -> dict[int, str] | None:
    """Each option's space as the map writes it (``6,2``), when every
    option names one (``beach (6,2)``) and typing it picks that option
    (``space_option``); else None."""
    import re

    if not st.cat.boards or len(options) < 2:
        return None
    keys = {}
    for o in options:
        found = re.findall(r"(?<!\d)(\d+)\s*,\s*(\d+)(?!\d)", o.label)
        if not found:
            return None
        key = ",".join(found[-1])
        if space_option(st, options, key) != o.index:
            return None
        keys[o.index] = key
    return keys


def _bots(text: str, n: int, seed: int) -> dict:
    """One agent per seat from ``--bots`` (seat order, the last repeating),
    each seeded ``seed * 100 + seat`` (the seeds of the random bots before
    agents could be chosen, so random games keep their course). Wrapped by
    ``as_agent``: every kind of agent decides from its own view."""
    from rulebook.agents.base import as_agent, make_agent
    from rulebook.simulate.run import check_agents, lineup, split_agents

    try:
        specs = lineup(n, split_agents(text))
        check_agents(specs)
    except ValueError as err:
        raise click.UsageError(f"--bots: {err}") from None
    return {p: as_agent(make_agent(spec, seed * 100 + p)) for p, spec in enumerate(specs)}


def _log_history(game, st, seed, log) -> None:
    """A resumed game's log starts with the decisions made before the save
    (they are in the saved state's history), so that the log replays from
    its seed like any other. Labels come from playing them again."""
    from rulebook.interpreter.errors import RulebookError

    try:
        again = game.new(players=st.n, seed=seed, params={k: v for k, v in st.params.items()
                                                           if k in game.program.params})
    except RulebookError:
        again = None
    for entry in st.history:
        p, value = entry[0], entry[1]
        timed_out = len(entry) > 2 and entry[2] == "time_out"
        if timed_out:
            log.time_out(p)
        else:
            label = None
            if again is not None:
                try:
                    options = game.options(again, p)
                    label = options.labels[options.index_of(value)]
                except (RulebookError, ValueError):
                    again = None
            log.decision(p, value, label)
        if again is not None:
            try:
                game.time_out(again, p) if timed_out else game.apply(again, p, game.options(again, p).index_of(value))
            except RulebookError:
                again = None


def _partial(st, value) -> bool:
    """Whether an option is the first parameters of a staged action (more are asked next)."""
    pend = st.pending
    if pend is None or pend["kind"] != "action" or "flat" not in pend:
        return False
    ai, args = value
    return len(args) < len(st.prog.actions[ai].params)


class Session:
    """One game in progress at this terminal."""

    def __init__(self, game, st, *, game_arg, humans, seed, verbose, delay, log, save_path, bots, stdin=None,
                 bot_specs: str = "random"):
        self.game, self.st = game, st
        self.game_arg = game_arg
        self.humans = humans  # 1-based, as typed
        self.seats = [h - 1 for h in humans]
        self.seed, self.verbose, self.delay = seed, verbose, delay
        self.log, self.save_path, self.bots, self.bot_specs = log, save_path, bots, bot_specs
        self.console = make_console()
        self.reader = LineReader(stdin)
        # one human: the live narration is theirs; several: only what everybody may know
        self.viewer = self.seats[0] if len(self.seats) == 1 else None
        self.history: dict[int, list[Line]] = {p: [] for p in self.seats}
        self.fresh: dict[int, int] = {p: 0 for p in self.seats}
        # zone families that have held a component: the others, empty, stay off the table
        from rulebook.interpreter.ops import zone_family

        self.seen = {zone_family(st, z) for z, zone in enumerate(st.zones) if zone}
        # a staged action being answered by a human: the game before its first stage (b goes back
        # to it), and the decisions of its stages, logged once the action is whole
        self.stage_start = None
        self.stage_log: list = []
        self.dense = False  # the options on screen are drawn as the spaces of the map (type column,row)
        self.ask_head: Text | None = None  # the question, on the input line when the screen has no row for it

    # ------------------------------------------------------------ output
    @property
    def screen(self) -> bool:
        """Whether we draw on a terminal (clear it, redraw the table)."""
        return self.console.is_terminal

    def say(self, text, style: str = "") -> None:
        self.console.print(text if isinstance(text, Text) else Text(str(text), style=style))

    def flush(self, forced: frozenset = frozenset()) -> None:
        """Narrate the new events: live, to each human's recent events and to
        the log. ``forced``: the indexes of decisions that had one option."""
        st = self.st
        if not st.events:
            return
        from rulebook.display.tidy import tidy
        from rulebook.interpreter.ops import zone_family

        if self.log:
            self.log.events(narrate(st, st.events, None, self.verbose))
        self.seen |= {zone_family(st, ev.dest) for ev in st.events if ev[0] == "move" and ev.dest >= 0}
        for p in self.seats:
            lines = [ln for ln in tidy(st, narrate_lines(st, st.events, p, self.verbose, forced)) if ln.text]
            self.history[p] = (self.history[p] + lines)[-HISTORY:]
            self.fresh[p] += len(lines)
        live = [ln for ln in tidy(st, narrate_lines(st, st.events, self.viewer, self.verbose, forced)) if ln.text
                and not (ln.kind == "end" and self.seats)]  # with humans, the final table says who won
        st.events.clear()
        for line in live:
            self.console.print(styled_line(st, line))
            if self.delay:
                time.sleep(self.delay)

    # ------------------------------------------------------------ the game
    def play(self) -> None:
        from rulebook.agents.base import decide

        game, st, prog = self.game, self.st, self.game.program
        title = f"{prog.title}{' (' + ', '.join(prog.variants) + ')' if prog.variants else ''}"
        self.say(
            Text(
                f"{title}: {st.n} players, seed {self.seed}. Humans: {', '.join(map(str, self.humans)) or 'none'}.",
                style="bold",
            )
        )
        self.flush()
        while not st.over:
            p = game.to_move(st)[0]  # one decision at a time: a simultaneous one asks each in seat order
            options = game.options(st, p)
            if p in self.seats and len(options) == 1 and len(self.seats) == 1:
                # a forced answer (often 'pass' to a question everybody is asked so that
                # who is asked tells nothing) is given at once; narrated like any other.
                # Not in hot seat: skipping the hand-over there would show the table it was forced
                answer = 0
            elif p in self.seats:
                answer = self.human(p, options)
                if answer == TIMED_OUT:
                    self.say(Text("Time is up!", style="bold yellow"))
                    if self.log:
                        self.log.time_out(p)
                    game.time_out(st, p)
                    self.fresh[p] = 0
                    self.flush()
                    continue
                if answer in (SAVE, QUIT, EOF):
                    self.stop(answer)
                    return
                if answer == BACK:  # back to the first stage of a staged action
                    st = self.st = self.stage_start
                    self.stage_start, self.stage_log = None, []
                    continue
                self.fresh[p] = 0
            else:
                answer = decide(game, st, p, self.bots[p])
            value = options.plain[answer]
            partial = p in self.seats and _partial(st, value)
            if partial and self.stage_start is None:
                self.stage_start = game.clone(st)
            # the plain value: an option hidden from its chooser is still replayable
            self.stage_log.append((p, value, options[answer].label))
            first = len(st.events)  # the decision's own event comes first
            game.apply(st, p, answer)
            if not partial:
                if self.log:
                    for entry in self.stage_log:
                        self.log.decision(*entry)
                self.stage_start, self.stage_log = None, []
            self.flush(frozenset({first}) if len(options) == 1 else frozenset())
        self.finish()

    def finish(self) -> None:
        game, st = self.game, self.st
        if self.log:
            self.log.end(st)
        scores = [name_players(st, line) for line in final_scores(game, st)]
        if self.seats:  # the humans see the final table (in hot seat: what everybody may see)
            self.say("")
            if self.screen:  # the screen is redrawn: how the game ended goes under the final table
                self.console.clear()
                self.final_screen(scores)
                return
            self.console.print(table_view(st, self.viewer, self.console.width, self.seen))
        for line in scores:
            self.say(line)

    def final_screen(self, scores: list[Text]) -> None:
        """The game-over screen, within the terminal's height: the final
        table (drawn more compactly as needed), how the game ended (what
        happened since the seat's last decision; lines that do not fit are
        paged first, as during the game) and the final scores, with a row
        left for the shell's prompt."""
        st, console = self.st, self.console
        width, height = console.width, console.height
        seat = self.viewer if self.viewer is not None else self.seats[0]
        ending = [ln for ln in self.history[seat][len(self.history[seat]) - self.fresh[seat]:]
                  if ln.kind != "end" and ln.text]  # the table's status says who won
        needed = fresh_rows(st, ending, len(ending), width)
        for compact in range(5):
            table = table_view(st, self.viewer, width, self.seen, compact)
            used = self.lines_of(table) + len(scores) + 1
            if used + needed <= height:
                break
        room = height - used - 1  # the panel's title takes a row
        shown = len(ending)
        while shown and fresh_rows(st, ending, shown, width) - 1 > room:
            shown -= 1
        if shown < len(ending):
            for page in catch_up_pages(st, ending[: len(ending) - shown], width, height):
                console.print(page)
                console.print(Text("Enter: go on"), end="")
                if self.reader.read() is None:
                    break
                console.clear()
        console.print(table)
        if shown:
            panel = events_panel(st, ending[len(ending) - shown:], shown, limit=shown, width=width)
            console.print(Group(Text("How the game ended", style="bold"), *panel.renderables[1:]))
        for line in scores:
            console.print(line)

    def stop(self, why: str) -> None:
        """Leave the game: saved, abandoned, or at the end of the input."""
        if self.log:
            self.log.close()
        if why == SAVE:
            data = self.game.save(self.st)
            data.update(seed=self.seed, humans=list(self.humans), bots=self.bot_specs)
            Path(self.save_path).write_text(json.dumps(data))
            self.saved_to = self.save_path
            self.say(
                f"Saved to {self.save_path}; resume with: rulebook play {self.game_arg} --resume {self.save_path}",
                style="bold green",
            )
        elif why == QUIT:
            self.say("Game abandoned.", style="bold")
        else:
            self.say("")
            self.say("End of input: the game stops here (not saved).", style="bold")

    # ------------------------------------------------------------ a human decision
    def human(self, p: int, options) -> int | str:
        """Ask seat ``p`` for an option: its index, or SAVE, QUIT, EOF, TIMED_OUT."""
        from rulebook.interpreter.labels import player_name

        st, game = self.st, self.game
        if len(self.seats) > 1:
            if self.screen:
                self.console.clear()
            self.console.print(name_players(st, Text(
                f"Pass the terminal to {player_name(st, p)}, then press Enter", style="bold")), end="")
            self.console.print(": " if not self.screen else " ", end="")
            if self.reader.read() is None:
                return EOF
            if self.screen:
                self.console.clear()
        limit = game.time_limit(st, p) if hasattr(game, "time_limit") else None
        if not limit or limit <= 0 or not self.reader.can_time_out:
            limit = None  # a stream without a descriptor (a test runner) cannot be timed
        deadline = time.monotonic() + limit if limit else None
        self.show(p, options, limit)
        labels = {}
        for o in options:
            labels.setdefault(o.label.strip().lower(), []).append(o.index)
        while True:
            answer = self.ask(SPACE_PROMPT if self.dense else PROMPT, deadline, self.ask_head)
            if answer is TIMEOUT:
                return TIMED_OUT
            if answer is None:
                return EOF
            a = answer.strip().lower()
            if a.isdigit() and 1 <= int(a) <= len(options):
                return int(a) - 1
            space = space_option(st, options, a)
            if space is not None:
                if isinstance(space, str):
                    self.say(space, style="yellow")
                    continue
                return space
            if a in ("?", "h", "help"):
                self.console.print(help_panel(game, st, p, options, self.save_path, self.game_arg))
                continue
            if a in ("b", "back") and self.stage_start is not None:
                return BACK
            if a in ("r", "redraw"):
                self.show(p, options, limit, whole=True)
                continue
            if a in ("l", "log"):
                panel = events_panel(st, self.history[p], HISTORY, limit=HISTORY,
                                     width=self.console.width if self.screen else 0)
                self.console.print(panel if panel is not None else Text("Nothing has happened yet."))
                continue
            if a in ("s", "save"):
                if self.may_save(deadline):
                    return SAVE
                continue
            if a in ("q", "quit", "exit"):
                sure = self.ask("Quit without saving? y quits, s saves and quits, Enter goes back", deadline)
                if sure is TIMEOUT:
                    return TIMED_OUT
                if sure is None or sure.strip().lower() in ("y", "yes", "q"):
                    return QUIT if sure is not None else EOF
                if sure.strip().lower() in ("s", "save") and self.may_save(deadline):
                    return SAVE
                continue
            if a in labels and len(labels[a]) == 1:  # an option typed by its label (the keys come first)
                return labels[a][0]
            self.say(
                ("Please type a space as column,row, e.g. 3,4." if self.dense
                 else f"Please type a number from 1 to {len(options)}.") + ("" if not a else f" ({answer.strip()!r}"
                                                                      " is not an option; ? for help)"),
                style="yellow",
            )

    def layout(self, p: int, options, limit: float | None, whole: bool = False):
        """The table and the decision for seat ``p``'s screen, and the rows
        they use (None off a terminal or for ``whole``). On a terminal they
        fit the screen's height: the table is drawn more compactly as
        needed (the viewer's own zones always whole), the least compact
        that leaves room for everything narrated since the seat's last
        decision, else the most compact; the recent events get the rows
        left. ``whole``: the whole table, however long (the ``r`` key)."""
        st, console = self.st, self.console
        width = console.width
        height = console.height if self.screen and not whole else None
        spaces = space_keys(st, options) if height is not None else None
        tries = [(compact, False) for compact in (0, 1, 2, 3)]
        if spaces:  # many spaces of the map to choose from: their coordinates, grouped, as a last resort
            tries += [(compact, True) for compact in (0, 1, 2, 3)]
        tries.append((4, bool(spaces)))
        head = decision_head(st, p, self.game.prompt(st, p))
        self.ask_head = None
        if len(head) + 3 + len(SPACE_PROMPT if spaces else PROMPT) + 2 <= width:
            tries += [(5, bool(spaces)), (6, bool(spaces))]  # the question on the input line; no own zones
        needed = fresh_rows(st, self.history.get(p, []), self.fresh.get(p, 0), width) if height else 0
        drawn = []
        for compact, dense in tries:
            decision = decision_panel(st, p, self.game.prompt(st, p), options, limit, width, rule=compact < 3,
                                      spaces=spaces if dense else None, head=compact < 5)
            table = table_view(st, p, width, self.seen, 5 if compact >= 6 else min(compact, 4))
            self.ask_head = name_players(st, head + Text(" · ")) if compact >= 5 else None
            if height is None:
                return table, decision, None, False
            used = self.lines_of(table) + self.lines_of(decision) + 1  # and the prompt's line
            drawn.append((table, decision, used, dense, self.ask_head))
            if used + max(needed, 0 if not needed else 3) <= height:
                break
        # everything since the last decision under the table; else some of it; else the table alone
        choice = next((d for d in drawn if d[2] + max(needed, 0 if not needed else 3) <= height), None) \
            or next((d for d in drawn if d[2] + 3 <= height), None) \
            or next((d for d in drawn if d[2] <= height), drawn[-1])
        table, decision, used, dense, self.ask_head = choice
        return table, decision, used, dense

    def show(self, p: int, options, limit: float | None, whole: bool = False) -> None:
        """The play screen of seat ``p``: table, recent events, decision
        (see ``layout``). What happened since the seat's last decision and
        does not fit under the table is shown first, a screenful at a time
        (Enter goes on), so it is never dropped."""
        st, console = self.st, self.console
        table, decision, used, self.dense = self.layout(p, options, limit, whole)
        height, width = console.height, console.width
        if used is not None and p in self.fresh:
            self.catch_up(p, height - used)
        if self.screen:
            console.clear()
        console.print(table)
        # the recent events panel repeats the narration only where it is not on screen
        # already: after a clear, or in hot seat (the live lines were the spectator's)
        if self.screen or len(self.seats) > 1:
            if used is not None:
                panel = events_panel(st, self.history[p], self.fresh[p], limit=height - used, exact=True, width=width) \
                    if height - used >= 2 else None
            else:
                panel = events_panel(st, self.history[p], self.fresh[p], width=width if self.screen else 0)
            if panel is not None:
                console.print(panel)
        console.print(decision)

    def catch_up(self, p: int, room: int) -> None:
        """Page the lines narrated to ``p`` since its last decision that do
        not fit the ``room`` rows under its table; the screen then shows
        the rest."""
        st, console = self.st, self.console
        history, fresh = self.history[p], self.fresh[p]
        if fresh_rows(st, history, fresh, console.width) <= room:
            return
        lines = [ln for ln in history[len(history) - fresh:] if ln.text]
        tail = 0  # how many of the last lines the screen's panel shows
        while tail < len(lines) and fresh_rows(st, lines, tail + 1, console.width) + 1 <= room:
            tail += 1
        for page in catch_up_pages(st, lines[: len(lines) - tail], console.width, console.height):
            console.clear()
            console.print(page)
            console.print(Text("Enter: go on"), end="")
            if self.reader.read() is None:
                break

    def lines_of(self, renderable) -> int:
        """How many lines ``renderable`` takes on this console."""
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def may_save(self, deadline) -> bool:
        """Whether saving may write the save file: it holds no save, a save
        of this very game (an earlier point of it), or the player says yes."""
        path = Path(self.save_path)
        if not path.exists() or getattr(self, "saved_to", None) == self.save_path or self.same_game(path):
            return True
        sure = self.ask(f"{self.save_path} holds the save of another game; overwrite it? (y overwrites, "
                        "Enter goes back; --save FILE names another file)", deadline)
        return isinstance(sure, str) and sure.strip().lower() in ("y", "yes")

    def same_game(self, path: Path) -> bool:
        """``path`` is a save of this game: same ruleset, variants, seed and
        players, and the decisions it holds are the first of this game's."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return False
        if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
            return False
        prog, st = self.game.program, self.st
        history = data["state"].get("history")
        return (data.get("ruleset") == prog.id and data.get("variants") == list(prog.variants)
                and data.get("players") == st.n and data.get("seed") == self.seed
                and isinstance(history, list) and history == json.loads(json.dumps(st.history))[: len(history)])

    def ask(self, prompt: str, deadline: float | None, head: Text | None = None) -> str | None | object:
        """One line of input after ``prompt`` (and ``head``, the question,
        when the screen had no row for it), with the seconds left shown;
        warns once shortly before a deadline."""
        warned = deadline is None or deadline - time.monotonic() <= 2 * WARN_AT
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return TIMEOUT
            shown = (head or Text()) + Text(prompt)
            if left is not None:
                shown.append(f" [{math.ceil(left)} s left]", style="bold yellow")
            self.console.print(shown + Text(": "), end="")
            wait = left if warned or left is None else left - WARN_AT
            answer = self.reader.read(wait)
            if answer is TIMEOUT and not warned and deadline - time.monotonic() > 0:
                warned = True
                self.say("")
                self.say(f"{WARN_AT:g} seconds left!", style="bold yellow")
                continue
            if answer is TIMEOUT:
                self.say("")
            elif answer is not None and not self.reader.isatty():
                self.say(answer)  # typed input is echoed by a terminal; piped input is not
            return answer

