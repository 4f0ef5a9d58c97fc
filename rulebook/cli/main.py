"""The ``rulebook`` command.

Exit codes (docs/cli.md): 0 success; 1 the input has problems (diagnostics,
failing scenarios, a ruleset that breaks while running); 2 usage error;
3 internal error (a bug in Rulebook; ``--debug`` shows the traceback).
Every failure is one clear line on stderr; nobody sees a traceback unless
they ask for it.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import shutil
import sys
import time
from pathlib import Path

import click

from rulebook.files.loading import (  # noqa: F401 - what the commands share with play and serve
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    Failure,
    load_game,
    parse_params,
    player_count,
    plural,
    source_of,
)
from rulebook.simulate.games import DEFAULT_NARRATED, NARRATED_FIRST


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulebook")
@click.option("--debug", is_flag=True, help="Show Python tracebacks, and write each ruleset's compiled Python "
              "to ./rulebook-debug/.")
@click.option("--native", is_flag=True, help="Run rulesets as native code, built once with Cython and a C compiler "
              "(pip install 'rulebook[native]'); also RULEBOOK_NATIVE=1.")
@click.pass_context
def cli(ctx, debug, native):
    """Rulebook: board and card games written as data."""
    ctx.obj = {"debug": debug}
    if native:
        import os

        os.environ["RULEBOOK_NATIVE"] = "1"  # also for the worker processes of simulate


@cli.command("compile")
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to apply (repeatable).")
@click.option("--out", "-o", "out", type=click.Path(dir_okay=False), help="Write to FILE instead of standard output.")
def compile_cmd(game, variants, out):
    """Print the Python module the compiler writes for a ruleset (readable,
    commented with the rule each part comes from), then, on standard error,
    the functions kept in tables (computed once per argument tuple)."""
    from rulebook.validator.files import escape

    loaded, _ = load_game(game, variants)
    source = loaded.program.source
    if out:
        Path(out).write_text(source, encoding="utf-8")
    else:
        click.echo(source, nl=False)
    tabled = loaded.program.module.get("TABLED") or []
    click.echo(escape(f"tabled: {', '.join(tabled) if tabled else 'none'}"), err=True)


@cli.command("list")
def list_cmd():
    """List the rulesets Rulebook can find."""
    from rulebook.display.words import players_range
    from rulebook.files.locate import all_rulesets
    from rulebook.validator.files import escape
    from rulebook.validator.loader import load_file

    for path in all_rulesets():
        doc, _ = load_file(path)
        data = doc.data if isinstance(doc.data, dict) else {}
        players = data.get("players") or {}
        variants = ", ".join((data.get("variants") or {}).keys())
        click.echo(escape(  # a ruleset's own texts: no control character reaches the terminal
            f"{data.get('id', path.parent.name):<22} {data.get('title', ''):<34} "
            f"{players_range(players.get('min', '?'), players.get('max', '?'))}"
            + (f"   variants: {variants}" if variants else "")
        ))


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True,
              help="text: compiler-style lines; json: a list of diagnostics; sarif: a SARIF 2.1.0 log for CI code "
              "scanning.")
def validate(paths, fmt):
    """Validate ruleset files (the base game and each variant)."""
    from rulebook.compiler.build import validate_path
    from rulebook.files.locate import locate
    from rulebook.validator.diagnostics import Diagnostic

    all_diags = []
    errors = 0
    for p in paths:
        # a path that names no ruleset is one problem among the others: the rest still get checked
        try:
            path = locate(p)
        except FileNotFoundError as err:
            diags, source, label = [Diagnostic("E004", str(err), p, 1, 1)], None, p
        else:
            diags, source, label = validate_path(path).sorted(), source_of(path), path
        found = len([d for d in diags if d.is_error])  # counted from the very list that is shown
        errors += found
        if fmt != "text":
            all_diags += diags
        else:
            for d in diags:
                click.echo(d.render(source))
            status = "FAILED" if found else "ok"
            click.echo(f"{label}: {status} ({plural(found, 'error')}, {plural(len(diags) - found, 'warning')})")
    if fmt == "json":
        click.echo(json.dumps([d.as_dict() for d in all_diags], indent=2))
    elif fmt == "sarif":
        from rulebook.cli.sarif import to_sarif

        click.echo(to_sarif(all_diags))
    sys.exit(EXIT_PROBLEMS if errors else EXIT_OK)


@cli.command()
def lsp():
    """Serve the Language Server Protocol over standard input and output:
    diagnostics, hover, definitions, completion and an outline for
    rulesets in your editor (docs/editor.md; needs the lsp extra)."""
    from rulebook.lsp import run

    try:
        run()
    except RuntimeError as err:
        raise Failure(str(err)) from None


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="Explain with these variants applied.")
@click.option("--definitions", is_flag=True, help="The rules as data (definitions, zones, phases, effects) "
              "instead of the player's guide.")
def explain(game, variants, definitions):
    """A player's guide to a game (what you do, how you win), from the ruleset's texts."""
    from rulebook.cli.explain import explain as make
    from rulebook.cli.explain_guide import guide
    from rulebook.validator.loader import load_file
    from rulebook.validator.variants import apply

    loaded, path = load_game(game, variants)
    doc, _ = load_file(path)
    merged = apply(doc, tuple(variants))
    write = make if definitions else guide
    click.echo(write(loaded, merged.data, doc.data.get("variants") or {}, tuple(variants)), nl=False)


@cli.command()
@click.argument("name")
def new(name):
    """Create a ruleset folder NAME (ruleset, one scenario, a README)."""
    from rulebook.cli.scaffold import scaffold

    try:
        files = scaffold(Path(name))
    except FileExistsError as err:
        raise Failure(str(err)) from None
    for f in files:
        click.echo(f"created {f}")
    arg = shlex.quote(name)  # a name with spaces must reach the next commands as one argument
    click.echo(f"next: rulebook validate {arg} && rulebook test {arg} && rulebook check {arg}"
               f" && rulebook play {arg} --human 1")


@cli.command()
def schema():
    """Print the JSON Schema of the ruleset format (for editors)."""
    from rulebook.validator.schema_check import SCHEMA_PATH

    click.echo(SCHEMA_PATH.read_text(), nl=False)


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["dot", "mermaid", "svg", "png"]),
    default="dot",
    help="dot and mermaid are text; svg and png are pictures drawn by Graphviz's dot.",
)
@click.option("--out", "-o", "out", type=click.Path(dir_okay=False), help="Write to FILE instead of standard output.")
def graph(game, variants, fmt, out):
    """Print the phase graph as DOT or Mermaid text, or draw it as SVG or PNG."""
    from rulebook.display import graphs as g

    loaded, _ = load_game(game, variants)
    prog = loaded.program
    if fmt == "mermaid":
        data = (g.to_mermaid(prog.phase_graph) + "\n").encode("utf-8")
    else:
        dot = g.to_dot(prog.phase_graph, prog.title, prog.start_phase or None)
        if fmt == "dot":
            data = (dot + "\n").encode("utf-8")
        else:
            try:
                data = g.render(dot, fmt)
            except (g.GraphvizMissing, g.GraphvizFailed) as err:
                raise Failure(str(err)) from None
    if out:
        Path(out).write_bytes(data)
        click.echo(f"wrote {out}", err=True)
        return
    if fmt != "png":  # text (SVG is XML): echo it as text, so any text stream works
        click.echo(data.decode("utf-8"), nl=False)
        return
    if sys.stdout.isatty():
        raise click.UsageError("a PNG is binary: give --out FILE or redirect standard output")
    click.echo(data, nl=False)


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--players", "-p", type=int, help="Number of players.")
@click.option("--seed", type=int, default=None, help="Random seed (default: from the clock).")
@click.option("--human", "humans", type=int, multiple=True, help="A seat (1-based) played at this terminal.")
@click.option("--param", "params", multiple=True, help="Set a parameter: NAME=VALUE.")
@click.option("--verbose", is_flag=True, help="Narrate every move of every component.")
@click.option("--delay", type=float, default=0.0, help="Seconds to pause between narrated lines.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the game to a JSON Lines log.")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where 's' at a human decision saves the game (default: GAME-save.json, one file per game; "
    "another game's save is never overwritten without asking).",
)
@click.option("--resume", "resume_path", help="Resume a game saved with 's'.")
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]",
              help="The agents of the seats no human plays, in seat order, the last repeating: greedy (default), "
              "random, mcts[:KEY=VALUE,...], package.module:Name. With --resume: the save's bots unless given.")
def play(game, variants, players, seed, humans, params, verbose, delay, log_path, save_path, resume_path, bots):
    """Play a game: human seats at the terminal, bots for the rest."""
    from rulebook.terminal.play import run

    run(game, variants, players, seed, humans, params, verbose, delay, log_path, save_path, resume_path, bots)


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--players", "-p", type=int, help="Number of players.")
@click.option("--seed", type=int, default=None, help="Random seed (default: from the clock).")
@click.option("--human", "humans", type=int, multiple=True,
              help="A seat (1-based) played in a browser, each with its own secret link (repeatable; default: 1).")
@click.option("--param", "params", multiple=True, help="Set a parameter: NAME=VALUE.")
@click.option("--author", is_flag=True, help="Also print a link to the author's panel: the whole state, the pending "
              "decision and its rule line, the event log, time travel and the phase graph.")
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]",
              help="The agents of the seats no human plays, in seat order, the last repeating: greedy (default), "
              "random, mcts[:KEY=VALUE,...], package.module:Name.")
@click.option("--host", "host_name", default="127.0.0.1", show_default=True,
              help="Where to listen; 0.0.0.0 lets browsers on the local network join.")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="0: any free port (default: 8000, or the saved table's port with --save).")
@click.option("--bot-delay", type=click.FloatRange(0, 60), default=0.6, show_default=True,
              help="Seconds a bot waits before each move, so that people can follow.")
@click.option("--save", "save_dir", default=None, metavar="DIR",
              help="Write the table to DIR after every change; serving DIR again resumes every seat with the "
              "same links.")
@click.option("--open/--no-open", "open_page", default=None,
              help="Open the first human seat in this machine's browser (default: when there is a display).")
def serve(game, variants, players, seed, humans, params, author, bots, host_name, port, bot_delay, save_dir,
          open_page):
    """Play a game at a table in the browser: human seats by their links, bots for the rest."""
    import os

    from rulebook.web.serve import run

    if open_page is None:
        open_page = sys.stdout.isatty() and (sys.platform in ("darwin", "win32") or bool(
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")))
    run(game, variants, players, seed, humans, params, author, bots, host_name, port, bot_delay, open_page, save_dir)


@cli.command()
@click.argument("log_file")
@click.option("--game", "game", help="The ruleset (default: the one named in the log).")
@click.option("--step", "interactive", is_flag=True,
              help="Step through with the narration: Enter/n forward, b back, a step number jumps, q quit.")
@click.option("--as", "viewer", type=int, default=None,
              help="With --step, show the view of this seat (1-based); default: the view of whoever decides next.")
def replay(log_file, game, interactive, viewer):
    """Replay a game log and check that the ruleset still reproduces it."""
    from rulebook.files.logs import read, ruleset_of
    from rulebook.files.logs import replay as run_replay
    from rulebook.interpreter.labels import player_name
    from rulebook.terminal.screen import render_view
    from rulebook.validator.files import escape

    log = read(log_file)
    h = log.header
    if game is None:
        try:
            game = str(ruleset_of(log))
        except FileNotFoundError as err:
            raise Failure(str(err)) from None
    loaded, _ = load_game(game, tuple(h["variants"]))
    replayed = run_replay(loaded, log)
    states = replayed.states
    if viewer is not None and not 1 <= viewer <= states[0].n:
        raise click.UsageError(f"--as takes a seat from 1 to {states[0].n}, not {viewer}")
    if viewer is not None and not interactive:
        raise click.UsageError("--as shows that seat's view at each step: add --step")
    seat = viewer - 1 if viewer is not None else None
    if not interactive:  # the labels the ruleset gives the decisions, never the log's own
        for rec, label in zip(log.decisions, replayed.labels):
            click.echo(escape(f"{rec['step']:>4}. {player_name(states[0], rec['player'])}: {label}"))
        end = states[-1]
        result = ("winners: " + ", ".join(player_name(end, p) for p in end.winners)) if end.over else "not finished"
        click.echo(escape(f"replay reproduces the log: {len(log.decisions)} decisions, {result}"))
        return
    i = 0
    last = len(states) - 1
    while True:
        st = states[i]
        shown = seat if seat is not None else (loaded.to_move(st) or [0])[0]
        click.echo(render_view(st, shown, shutil.get_terminal_size((100, 24)).columns))
        said = _step_narration(loaded, log, i, shown)
        if said:
            click.echo("What happened:" if i else "The start:")
            for line in said:
                click.echo(escape(f"  {line}"))
        if i > 0:
            rec = log.decisions[i - 1]
            click.echo(escape(f"step {i}/{last}: {player_name(st, rec['player'])} chose {replayed.labels[i - 1]}"))
        else:
            click.echo(f"step 0/{last}: the start")
        answer = click.prompt("n/Enter forward, b back, a step number jumps there, q quit", default="n",
                              show_default=False).strip().lower()
        if answer == "q":
            return
        if answer.isdigit():
            if int(answer) > last:
                click.echo(f"there are steps 0 to {last}")
            i = min(last, int(answer))
        elif answer == "b":
            i = max(0, i - 1)
        else:
            i = min(last, i + 1)


def _step_narration(game, log, step: int, viewer) -> list[str]:
    """What ``viewer`` was told of decision ``step`` of a log and what
    followed it (step 0: the setup), played again with events recorded."""
    from rulebook.display.tidy import tidy
    from rulebook.interpreter.narrate import narrate_lines

    h = log.header
    st = game.new(players=h["players"], seed=h["seed"], params=h["params"])
    for rec in log.decisions[:step]:
        st.events.clear()
        if rec.get("time_out") is True:
            game.time_out(st, rec["player"])
        else:
            game.apply(st, rec["player"], game.options(st, rec["player"]).index_of(rec.get("value")))
    return [ln.text for ln in tidy(st, narrate_lines(st, st.events, viewer)) if ln.text]


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--players", "-p", type=int, help="Number of players.")
@click.option("-n", "games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", type=int, default=0, show_default=True, help="The run's seed; each game's derives from it.")
@click.option("--param", "params", multiple=True, help="Set a parameter: NAME=VALUE.")
@click.option("--agents", default="random", show_default=True,
              help="Agents by seat, comma-separated, the last repeating: random, greedy[:samples=N], "
              "mcts[:KEY=VALUE,...], package.module:Name.")
@click.option("--seat", "seat_specs", multiple=True, metavar="SEAT=AGENT",
              help="The agent of one seat (1-based; repeatable); overrides --agents.")
@click.option("--workers", "-j", type=click.IntRange(min=0), default=None,
              help="Processes to play in (0: one per core). Default: 1; a local Dask cluster: one per core.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Where to play: this machine, or a Dask cluster (the dask extra).")
@click.option("--scheduler", metavar="ADDRESS", help="A Dask scheduler (--backend dask); default: a local cluster.")
@click.option("--max-decisions", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="A game still going after this many decisions stops and counts as failed.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="One row per game: FILE.jsonl or FILE.csv, opened before the first game and written as each "
              "game finishes.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Win rates and game lengths as an image, e.g. FILE.png (the plot extra).")
@click.option("--failures", "failures_dir", type=click.Path(file_okay=False), default="rulebook-failures",
              show_default=True, help="Where each failed game is saved as a log for rulebook replay.")
@click.option("--logs", "logs_dir", type=click.Path(file_okay=False),
              help="Write every game as a log for rulebook replay, one file per game, in this folder.")
@click.option("--time-outs", "time_outs", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              metavar="RATE", help="Let each decision that has a turn time limit run out of time with this "
              "probability, as for a player who dawdles (agents never do on their own).")
@click.option("--cut-off-says", "cut_off_says", metavar="TEXT",
              help="Count the games whose narration says TEXT: a cut-off written in the rules (a turn cap), "
              "whose winners were not played out.")
@click.option("--check-narration", "narrate", type=click.FloatRange(0, 1), default=DEFAULT_NARRATED,
              show_default=True, metavar="RATE",
              help=f"Play the first {NARRATED_FIRST} games and this fraction of the others (chosen by their seeds: "
              "the same games for the same seed) with their narration and option labels evaluated, as rulebook "
              "play shows them, so a rule that fails only there fails here too; the other games skip them, "
              "which is faster. 1: every game; 0: none.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(game, variants, players, games, seed, params, agents, seat_specs, workers, backend, scheduler,
             max_decisions, time_outs, cut_off_says, out_path, plot_path, failures_dir, logs_dir, quiet, narrate):
    """Play many games between agents and summarise them (docs/simulation.md)."""
    import os

    from rulebook.files.locate import locate_id
    from rulebook.interpreter.errors import RuleError
    from rulebook.simulate import report as sim_report
    from rulebook.simulate.backends import Interrupted, dask_available
    from rulebook.simulate.outputs import GameOutputs, open_rows
    from rulebook.simulate.rows import RowsLost
    from rulebook.simulate.run import check_agents, lineup, run_many, split_agents

    if out_path and Path(out_path).suffix.lower() not in (".jsonl", ".csv"):
        raise click.UsageError(f"--out {out_path}: the file name must end in .jsonl or .csv")
    if plot_path:
        try:
            import matplotlib  # noqa: F401 - only to know now, not after the run, that --plot will work
        except ImportError:
            raise click.UsageError("--plot needs matplotlib: pip install 'rulebook[plot]'") from None
    if backend == "dask" and not dask_available():
        raise click.UsageError("--backend dask needs dask.distributed: pip install 'rulebook[dask]'")
    if scheduler and backend != "dask":
        raise click.UsageError("--scheduler goes with --backend dask")
    loaded, path = load_game(game, variants)
    n = player_count(loaded, players)
    seats = {}
    for item in seat_specs:
        seat, eq, spec = item.partition("=")
        if not eq or not seat.strip().isdigit() or not spec.strip():
            raise click.UsageError(f"--seat takes SEAT=AGENT, not {item!r}")
        seats[int(seat) - 1] = spec.strip()
    try:
        specs = lineup(n, split_agents(agents), seats)
        check_agents(specs)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    values = parse_params(params)
    try:  # a wrong parameter is one error now, not one per game
        loaded.new(players=n, seed=seed, params=values, record=False)
    except RuleError as err:
        if err.code in ("E036", "E063"):
            raise
    try:
        rows = open_rows(out_path)
    except OSError as err:
        raise Failure(f"--out {out_path}: {err.strerror or err}; no game was played") from None
    outputs = GameOutputs(loaded, str(Path(path).resolve()), n, values, seed, failures_dir, logs_dir, rows)
    start = time.perf_counter()
    try:
        results = run_many(loaded, n, games, seed, values, progress=not quiet, specs=specs, workers=workers,
                           backend=backend, scheduler=scheduler, max_decisions=max_decisions,
                           keep_history=bool(logs_dir), time_outs=time_outs, cut_off_says=cut_off_says,
                           notice=lambda text: click.echo(f"\nrulebook: {text}", err=True), narrate=narrate,
                           sink=outputs)
    except Interrupted as stop:
        _interrupted(stop, out_path, rows)
    except RowsLost as lost:
        raise Failure(str(lost)) from None
    finally:
        if rows is not None:
            rows.close()
    seconds = time.perf_counter() - start
    if backend == "dask":
        where = f"Dask at {scheduler}" if scheduler else "a local Dask cluster"
    else:
        where = "1 process" if workers in (None, 1) else f"{min(workers or os.cpu_count() or 1, games)} processes"
    click.echo(sim_report.summary(loaded, n, results, seconds, where, cut_off_says))
    saved = outputs.saved
    by_id = locate_id(loaded.program.id)  # where replay looks; else the command names the ruleset
    again = "" if by_id and by_id.resolve() == Path(path).resolve() else f" --game {shlex.quote(str(path))}"
    for index, (log, reproduced) in list(saved.items())[:5]:
        click.echo(f"game {index} saved; replay it with: rulebook replay {shlex.quote(str(log))}{again}"
                   + ("" if reproduced else " (note: playing it again here did not fail the same way)"))
    if len(saved) > 5:
        click.echo(f"... and {len(saved) - 5} more failed games in {failures_dir}")
    if logs_dir:
        click.echo(f"{outputs.logged} game logs written to {logs_dir}; replay one with: rulebook replay FILE{again}")
    if out_path:
        click.echo(f"results written to {out_path}")
    if plot_path:
        sim_report.plot(plot_path, loaded, n, results)
        click.echo(f"plot written to {plot_path}")
    if any(r.error for r in results):
        sys.exit(EXIT_PROBLEMS)


def _interrupted(stop, out_path, rows) -> None:
    """Ctrl-C during ``simulate``: say how many games finished (``--out``
    has their rows already) and exit with 130 as ``play`` does."""
    click.echo("", err=True)
    click.echo(f"Interrupted: {len(stop.results)} of {stop.total} games finished.", err=True)
    if rows is not None:
        click.echo(f"the {plural(rows.rows, 'finished game')} written to {out_path}", err=True)
    sys.exit(EXIT_INTERRUPTED)


@cli.command()
@click.argument("paths", nargs=-1)
@click.option("--verbose", is_flag=True, help="Also list the scenarios that pass.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: every scenario's result, and each failure's file, line, expected and actual values.")
@click.option("--junit-xml", "junit_path", type=click.Path(dir_okay=False),
              help="Also write the results to FILE as JUnit XML, for CI systems.")
def test(paths, verbose, fmt, junit_path):
    """Run scenario files (default: every ruleset's scenarios)."""
    from rulebook.files.locate import all_rulesets
    from rulebook.testing.scenarios import discover, run_file
    from rulebook.validator.files import escape

    if not paths:
        paths = [str(p.parent) for p in all_rulesets()]
    files = discover([_scenarios_of(p) for p in paths])
    if not files:
        raise Failure("no scenario files found")
    failed = 0
    outcomes = []
    for f in files:
        outcome = run_file(f)
        outcomes.append(outcome)
        if fmt == "json":
            failed += not outcome.passed
        elif outcome.passed:
            if verbose:
                click.echo(escape(f"ok    {f}  ({outcome.name})"))
        else:
            failed += 1
            click.echo(escape(f"FAIL  {f}  ({outcome.name})"))  # a file's name, or its name field
            source = source_of(f)
            for d in outcome.failures:
                click.echo("      " + d.render(source if d.file == str(f) else None).replace("\n", "\n      "))
    if junit_path:
        from rulebook.testing.reports import to_junit_xml

        Path(junit_path).write_text(to_junit_xml(outcomes), encoding="utf-8")
    if fmt == "json":
        from rulebook.testing.reports import to_json

        click.echo(to_json(outcomes))
    else:
        click.echo(f"{len(files) - failed} passed, {failed} failed")
    sys.exit(EXIT_PROBLEMS if failed else EXIT_OK)


def _scenarios_of(path: str) -> str:
    """Where ``rulebook test PATH`` looks: a scenario file or a folder as
    given; a ruleset file or a game id means the scenarios beside that
    ruleset (``rulebook new`` prints the ruleset's path for validate and
    check, so users give it to test too)."""
    import re

    from rulebook.files.locate import locate

    p = Path(path)
    if p.is_dir():
        return path
    if p.is_file():
        from rulebook.validator.files import UnsafeFile, read_head

        try:
            head = read_head(p, 4000)
        except UnsafeFile as err:
            raise Failure(f"{path}: {err}") from None
        is_ruleset = re.search(r"^rulebook:", head, re.M) is not None
        return str(p.parent / "scenarios") if is_ruleset else path
    try:
        return str(locate(path).parent / "scenarios")
    except FileNotFoundError as err:
        raise Failure(str(err)) from None


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to check (repeatable).")
@click.option("--players", "-p", "player_counts", type=int, multiple=True,
              help="A player count (repeatable; default: the smallest and the largest).")
@click.option("--games", "-n", type=int, default=20, show_default=True, help="Random games per player count.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The run's seed; each game's derives from it, and a failure names its game's seed.")
@click.option("--max-decisions", type=int, default=5000, show_default=True,
              help="Stop a game that has not ended after this many decisions.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE", help="Set a parameter (repeatable).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="Write the failures, with every decision leading to each, as JSON.")
def check(game, variants, player_counts, games, seed, max_decisions, params, out_path):
    """Check a ruleset's games for what scenarios cannot show: components
    in one place each, somebody always able to decide, clones and saves that
    play on like the original, views that hide what their player cannot see,
    and questions whose asking tells no secret (random games; docs/cli.md)."""
    from rulebook.testing.random_games import CHECKS, empty_draw_warnings, failures_json, run_checks

    loaded, path = load_game(game, variants)
    prog = loaded.program
    counts = list(dict.fromkeys(player_counts or (prog.min_players, prog.max_players)))
    for n in counts:
        player_count(loaded, n)
    report = run_checks(loaded, counts, games, seed, max_decisions, parse_params(params))
    title = prog.title + (f" ({', '.join(prog.variants)})" if prog.variants else "")
    for f in report.failures:
        click.echo(f"FAIL  {f.check}: game {f.index} of {f.players} players (seed {f.seed}), "
                   f"after {plural(len(f.moves), 'decision')}: {f.message}")
        shown = f.moves if len(f.moves) <= 20 or out_path else f.moves[-20:]
        click.echo(f"      replay: game.new(players={f.players}, seed={f.seed}), then apply (player, option) "
                   + ("each decision in " + out_path if out_path and len(f.moves) > 20 else str(shown))
                   + (" (the last 20; --out FILE writes them all)" if len(shown) < len(f.moves) else ""))
    for d in empty_draw_warnings(report):
        click.echo(d.render(source_of(Path(d.file)) if Path(d.file) == Path(path) else None))
    if out_path:
        Path(out_path).write_text(failures_json(report), encoding="utf-8")
    checked = ", ".join(f"{name} {report.applied[name]}" for name in CHECKS)
    click.echo(f"{title}: {plural(report.games, 'game')}, {plural(report.decisions, 'decision')}; "
               f"checks made: {checked}; {plural(len(report.failures), 'failure')}"
               + (f"; {report.unfinished} not ended after {max_decisions} decisions" if report.unfinished else ""))
    sys.exit(EXIT_PROBLEMS if report.failures else EXIT_OK)


@cli.command()
@click.argument("game")
@click.option("--variant", "-v", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's default).")
@click.option("--seconds", type=float, default=5.0, show_default=True, help="How long to play random games.")
@click.option("--seed", type=int, default=1, show_default=True, help="The run's seed; each game's derives from it.")
@click.option("--native", is_flag=True, help="Measure the ruleset's native build (built once, then cached); with "
              "'all', the native builds beside the Python modules.")
@click.option("--rounds", type=int, default=3, show_default=True, help="'all': alternations of the sides.")
@click.option("--games", "only", help="'all': comma-separated game ids (default: every benchmark game).")
@click.option("--peers", metavar="PYTHON", help="'all': a Python with open_spiel, for the OpenSpiel peers.")
@click.option("--baseline", type=click.Path(exists=True, dir_okay=False),
              help="'all': a hand-written version to measure the --games rulesets against (play(players, rng)).")
def bench(game, variants, players, seconds, seed, native, rounds, only, peers, baseline):
    """Play random games for a while; print games and decisions per second.

    GAME 'all' compares every benchmark game with its hand-written Python
    baseline, alternated in one run (benchmarks/baselines/run.py), and
    prints each ratio; GAME 'suite' runs the benchmark suite
    (benchmarks/suite.py): state sizes, clone speed, load and start-up times."""
    from rulebook.simulate.run import bench as run_bench

    if game in ("all", "suite"):
        module = _checkout_script("baselines/run.py" if game == "all" else "suite.py")
        if game == "suite":
            click.echo(module.render(module.run(list(module.GAMES), seconds)))
            return
        known = [e.game for e in module.ENTRIES]
        games = [g for g in (only or "").split(",") if g] or known
        unknown = sorted(g for g in games if g not in known and not Path(g).exists())
        if unknown:
            raise click.UsageError(f"--games: {', '.join(unknown)} is neither a benchmark game ({', '.join(known)}) "
                                   "nor a ruleset's path")
        module.run(games, seconds, rounds, native, peers, say=click.echo,
                   baseline=Path(baseline) if baseline else None, players=players)
        return
    loaded, _ = load_game(game, variants)
    n = player_count(loaded, players)
    impl = "rulebook"
    if native:
        from rulebook.compiler.native import NativeError, as_asked
        from rulebook.interpreter.game import Game

        try:
            loaded = Game(as_asked(loaded.program, True))
        except NativeError as err:
            raise Failure(str(err)) from None
        impl = "rulebook-native"
    r = run_bench(loaded, n, seconds, seed)
    click.echo(
        f"impl={impl} game={loaded.program.id} players={n} games={r['games']} "
        f"games_per_s={r['games_per_s']:.1f} decisions_per_s={r['decisions_per_s']:.0f} "
        f"decisions_per_game={r['decisions_per_game']:.1f}"
    )


def _checkout_script(name: str):
    """A script of benchmarks/ (in a source checkout only), loaded as a module."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / name
    if not script.exists():
        raise click.UsageError(f"the benchmarks are in a source checkout: benchmarks/{name}")
    spec = importlib.util.spec_from_file_location("rulebook_bench_" + script.stem, script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    """Entry point: run the CLI and turn every failure into one line."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="rulebook", standalone_mode=False)
    except click.exceptions.Abort as err:
        click.echo("Aborted.", err=True)
        sys.exit(EXIT_INTERRUPTED if isinstance(err.__cause__, KeyboardInterrupt) else EXIT_PROBLEMS)
    except click.UsageError as err:
        err.show()
        sys.exit(EXIT_USAGE)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except SystemExit:
        raise
    except Exception as err:  # noqa: BLE001 - the one place that turns any failure into a message
        from rulebook.interpreter.errors import RulebookError

        if debug:
            raise
        from rulebook.validator.files import escape

        if isinstance(err, (RulebookError, OSError)):  # a message may quote a file: no control character
            click.echo(f"rulebook: {escape(str(err))}", err=True)
            sys.exit(EXIT_PROBLEMS)
        click.echo(f"rulebook: internal error: {type(err).__name__}: {err} (run with --debug for details)", err=True)
        sys.exit(EXIT_INTERNAL)
    sys.exit(EXIT_OK)


if __name__ == "__main__":  # pragma: no cover
    main()
