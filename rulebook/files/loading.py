"""What the commands share: loading a ruleset for play (from the cache of
compiled rulesets), the player count and parameters given on the command
line, and the one-line failure every command ends with."""

from __future__ import annotations

import json
from pathlib import Path

import click

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports a process stopped by SIGINT


class Failure(click.ClickException):
    exit_code = EXIT_PROBLEMS

    def format_message(self) -> str:
        from rulebook.validator.files import escape

        return escape(self.message)  # it may quote a file: no control character reaches the terminal


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def load_game(game: str, variants=(), show_warnings: bool = False):
    from rulebook.compiler.build import load_program
    from rulebook.files.locate import locate

    try:
        path = locate(game)
    except FileNotFoundError as err:
        raise Failure(str(err)) from None
    from rulebook.compiler import native
    from rulebook.compiler.native import NativeError

    native.on_build = lambda title: click.echo(
        f"rulebook: building {title} as native code (once for these rules and variants; up to a minute)", err=True)
    try:
        compiled = load_program(path, tuple(variants))  # from the cache of compiled rulesets when it has it
    except NativeError as err:  # rulebook --native, and this machine cannot build it
        raise Failure(f"{path}: {err}") from None
    if compiled.program is None and all(d.code in ("E035", "E061") for d in compiled.report.errors):
        d = compiled.report.errors[0]
        raise Failure(f"{d.message}" + (f" ({d.hint})" if d.hint else ""))
    if compiled.program is None:
        source = source_of(path)
        for d in compiled.report.sorted():
            click.echo(d.render(source), err=True)
        raise Failure(f"{path}: {len(compiled.report.errors)} error(s); fix them first")
    from rulebook.interpreter.game import Game

    ctx = click.get_current_context(silent=True)
    if ctx is not None and (ctx.find_root().obj or {}).get("debug"):
        _write_module(compiled.program)
    return Game(compiled.program), path


def _write_module(program) -> Path:
    """With --debug: the Python the compiler wrote for this ruleset, in
    ./rulebook-debug/, for an author to read beside the ruleset."""
    folder = Path("rulebook-debug")
    folder.mkdir(exist_ok=True)
    name = "+".join([program.id or "ruleset", *program.variants])
    out = folder / f"{name}.py"
    out.write_text(program.source, encoding="utf-8")
    click.echo(f"rulebook: the compiled ruleset is in {out}", err=True)
    return out


def player_count(game, players):
    prog = game.program
    n = players or (
        prog.default_players if prog.min_players <= prog.default_players <= prog.max_players else prog.min_players
    )
    if not prog.min_players <= n <= prog.max_players:
        raise click.UsageError(
            f"{prog.title}{' with ' + ', '.join(prog.variants) if prog.variants else ''} "
            f"plays with {prog.min_players}-{prog.max_players} players, not {n}" + _variants_for(prog, n)
        )
    return n


def _variants_for(prog, n: int) -> str:
    """``; with 2 players: --variant two-players``: the variants whose player
    range allows ``n`` (the ruleset's data; chosen variants stay chosen)."""
    data = prog.data if isinstance(prog.data, dict) else {}
    found = []
    for name, spec in (data.get("variants") or {}).items():
        players = spec.get("players") if isinstance(spec, dict) else None
        if name in prog.variants or not isinstance(players, dict):
            continue
        low, high = players.get("min", prog.min_players), players.get("max", prog.max_players)
        if isinstance(low, int) and isinstance(high, int) and low <= n <= high:
            title = spec.get("title")
            clash = [v for v in prog.variants if v in (spec.get("excludes") or [])
                     or name in ((data["variants"].get(v) or {}).get("excludes") or [])]
            found.append(f"--variant {name}" + (f" ({title})" if isinstance(title, str) else "")
                         + (f" instead of {', '.join(clash)}" if clash else ""))
    return f"; with {n} players: " + " or ".join(found) if found else ""


def parse_params(pairs) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.UsageError(f"--param takes NAME=VALUE, not {pair!r}")
        k, v = pair.split("=", 1)
        try:
            out[k] = json.loads(v)
        except json.JSONDecodeError:
            out[k] = v
    return out


def source_of(path) -> str | None:
    """The file's text for the source lines under diagnostics; None when it
    cannot be read (the diagnostics then already say so, E004)."""
    from rulebook.validator.files import UnsafeFile, read_bytes
    from rulebook.validator.loader import MAX_BYTES

    try:
        return read_bytes(path, MAX_BYTES).decode("utf-8", errors="replace")
    except UnsafeFile:
        return None
