"""Simulated games for every variant combination and player count of a ruleset.

    python tools/variant_matrix.py RULESET --games 1000
    python tools/variant_matrix.py RULESET --games 200 --players 2-6 --jobs 2 --out SIMULATIONS.md
    python tools/variant_matrix.py RULESET --agents greedy --time-outs 0.1 --games 1000
    python tools/variant_matrix.py RULESET --list                 # the combinations, without playing

Enumerates every combination of the ruleset's variants that its
``excludes`` and ``requires`` allow (the check ``rulebook play --variant``
makes), and for each one every player count the combination allows (or
those of ``--players`` among them). Each cell plays ``--games`` games
between agents (``--agents``, default uniformly random bots; ``--time-outs``
as for ``rulebook simulate``) exactly as ``rulebook simulate`` does (the
same per-game seeds from ``--seed``, the same agents, see
``rulebook.simulate.run``), so any game of the table can be replayed on its own
with ``rulebook simulate``.

The table: variants, players, games, errors (games stopped by a run-time
error), and, with ``--cap-message TEXT``, how games ended: a ruleset that
cuts long games off with a hard cap usually says so (``say``); every game
whose narration contains TEXT at least once counts as reaching the cap, the
others as ending by the rules, and ``cap hits`` counts the messages (a
match of several deals can be cut more than once). Then the mean and
largest number of decisions per game and the seconds the cell took.

``--out FILE.md`` writes the table as Markdown after every cell, so an
interrupted run leaves the cells it finished; ``--resume FILE.md`` starts
again from such a table, keeping its cells that have ``--games`` games; it refuses a table made with
other agents, seed, parameters, time-out rate or another version of the ruleset file (the table's
header holds the file's sha256). Nothing in here knows any particular game.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import itertools
import shlex
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MAX_COMBINATIONS = 4096


def combinations(path: Path, ignore=(), only_with=()) -> list[tuple[str, ...]]:
    """Every selection of variants the ruleset allows (and that holds every
    variant of only_with), smallest first, in the order the ruleset declares them."""
    from rulebook.validator.loader import load_file
    from rulebook.validator.variants import check_selection

    doc, diags = load_file(path)
    if diags:
        raise SystemExit(f"{path}: cannot load ({diags[0].message})")
    declared = doc.data.get("variants") or {}
    for name in list(ignore) + list(only_with):
        if name not in declared:
            raise SystemExit(f"unknown variant '{name}' (variants: {', '.join(declared) or 'none'})")
    names = [n for n in declared if n not in ignore]
    if 2 ** len(names) > MAX_COMBINATIONS:
        raise SystemExit(f"{len(names)} variants give {2 ** len(names)} combinations; leave some out with --ignore")
    out = []
    for size in range(len(names) + 1):
        for combo in itertools.combinations(names, size):
            if all(v in combo for v in only_with) and not check_selection(doc, combo):
                out.append(combo)
    return out


def parse_players(text: str | None) -> set[int] | None:
    if not text:
        return None
    out = set()
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            out.update(range(int(lo), int(hi) + 1))
        elif part:
            out.add(int(part))
    return out


def parse_params(pairs) -> dict:
    """NAME=VALUE pairs read as the command line reads them."""
    import click

    from rulebook.files.loading import parse_params as command_line_params

    try:
        return command_line_params(pairs or ())
    except click.UsageError as err:
        raise SystemExit(err.message) from None


_games: dict = {}


def _game(path: str, combo: tuple[str, ...]):
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    key = (path, combo)
    if key not in _games:
        compiled = compile_path(path, combo)
        if compiled.program is None:
            first = compiled.report.errors[0] if compiled.report.errors else None
            raise SystemExit(f"{path} with {combo or 'no variants'} does not compile: {first and first.message}")
        _games[key] = Game(compiled.program)
    return _games[key]


def play_chunk(task: dict) -> dict:
    """Games start .. start+count-1 of one cell; the same seeds and agents as run_many."""
    from rulebook.interpreter.errors import RulebookError

    from rulebook.simulate.run import GameStopped, game_seed, lineup, play_state

    game = _game(task["path"], tuple(task["combo"]))
    cap = task["cap_message"]
    specs = lineup(task["players"], task["agents"])
    out = {"games": 0, "errors": 0, "capped": 0, "cap_hits": 0, "time_outs": 0, "decisions": [],
           "first_error": None}
    for i in range(task["start"], task["start"] + task["count"]):
        seed = game_seed(task["seed"], i)
        out["games"] += 1
        st = None
        try:
            st = game.new(players=task["players"], seed=seed, params=task["params"], record=bool(cap))
            decisions = play_state(game, st, seed, specs, time_outs=task["time_outs"])
        except (RulebookError, GameStopped, RecursionError, MemoryError) as err:
            out["errors"] += 1
            if out["first_error"] is None:
                out["first_error"] = f"game {i} (seed {seed}): {err}"
            continue
        out["decisions"].append(decisions)
        out["time_outs"] += sum(1 for h in st.history if len(h) > 2)
        if cap:
            hits = sum(1 for e in st.events if e[0] == "say" and cap in e[1])
            out["cap_hits"] += hits
            out["capped"] += hits > 0
    return out


def cells(path: Path, combos, wanted: set[int] | None) -> list[tuple[tuple[str, ...], int]]:
    out = []
    for combo in combos:
        prog = _game(str(path), combo).program
        for n in range(prog.min_players, prog.max_players + 1):
            if wanted is None or n in wanted:
                out.append((combo, n))
    return out


def columns(cap: str | None, time_outs: bool) -> list[str]:
    cols = ["variants", "players", "games", "errors"]
    if cap:
        cols += ["ended by the rules", "reached the cap", "cap hits"]
    if time_outs:
        cols.append("time-outs")
    return cols + ["mean decisions", "max decisions", "seconds (summed over processes)"]


def read_rows(path: str, cols: list[str], games: int) -> dict[tuple, str]:
    """The rows of an earlier table (``--resume``) with at least ``games``
    games, by (variants, players), as their Markdown lines. The table must
    have the columns this run writes."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    head = "| " + " | ".join(cols) + " |"
    if head not in lines:
        raise SystemExit(f"{path}: no table with the columns of this run ({head})")
    out = {}
    for line in lines[lines.index(head) + 2:]:
        if not line.startswith("| "):
            break
        cells = [x.strip() for x in line.strip("|").split("|")]
        combo = () if cells[0] == "(base)" else tuple(x.strip() for x in cells[0].split(","))
        if int(cells[2]) >= games:
            out[(combo, int(cells[1]))] = line
    return out


def row_line(r: dict, cap: str | None, time_outs: bool = False) -> str:
    if "line" in r:  # a row kept from an earlier table (--resume)
        return r["line"]
    ds = r["decisions"]
    vals = [", ".join(r["combo"]) or "(base)", str(r["players"]), str(r["games"]), str(r["errors"])]
    if cap:
        ok = r["games"] - r["errors"]
        vals += [str(ok - r["capped"]), str(r["capped"]), str(r["cap_hits"])]
    if time_outs:
        vals.append(str(r["time_outs"]))
    vals += [f"{statistics.mean(ds):.0f}" if ds else "-", str(max(ds)) if ds else "-", f"{r['seconds']:.1f}"]
    return "| " + " | ".join(vals) + " |"


def render(rows, header: list[str], cap: str | None, done: int, total: int, time_outs: bool = False) -> str:
    lines = list(header)
    if done < total:
        lines += [f"**Partial**: {done} of {total} cells finished.", ""]
    cols = columns(cap, time_outs)
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "|".join("---" for _ in cols) + "|")
    lines += [row_line(r, cap, time_outs) for r in rows if "line" in r or r["left"] == 0]
    errors = [r for r in rows if r.get("first_error")]
    if errors:
        lines += ["", "First error of each cell with errors:", ""]
        for r in errors:
            lines.append(f"- {', '.join(r['combo']) or '(base)'}, {r['players']} players: {r['first_error']}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", help="a ruleset file, folder or id (as for rulebook simulate)")
    ap.add_argument("--games", "-n", type=int, default=100, help="games per cell")
    ap.add_argument("--players", help="player counts, e.g. 2-6 or 2,4 (default: every count a combination allows)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="processes")
    ap.add_argument("--seed", type=int, default=0, help="the run's seed, as for rulebook simulate")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="parameter values")
    ap.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="VARIANT",
        help="leave a variant out of the combinations (repeatable)",
    )
    ap.add_argument(
        "--only-with",
        action="append",
        default=[],
        metavar="VARIANT",
        help="only the combinations that hold this variant (repeatable)",
    )
    ap.add_argument(
        "--cap-message", metavar="TEXT", help="text of the ruleset's narration that marks a game cut off by a hard cap"
    )
    ap.add_argument("--agents", default="random",
                    help="agents by seat, as for rulebook simulate (default: random)")
    ap.add_argument("--time-outs", type=float, default=0.0, metavar="RATE",
                    help="the rate at which timed decisions run out of time, as for rulebook simulate")
    ap.add_argument("--resume", metavar="FILE.md",
                    help="keep the cells of an earlier table of this run that have at least --games games, "
                    "and play only the others")
    ap.add_argument("--out", metavar="FILE.md", help="write the table as Markdown (after every cell)")
    ap.add_argument("--list", action="store_true", help="list the cells and stop")
    args = ap.parse_args(argv)

    from rulebook.files.locate import locate

    try:
        path = locate(args.ruleset)
    except FileNotFoundError as err:
        print(err, file=sys.stderr)
        return 2
    params = parse_params(args.param)
    todo = cells(path, combinations(path, args.ignore, args.only_with), parse_players(args.players))
    if args.list:
        for combo, n in todo:
            print(f"{', '.join(combo) or '(base)'}: {n} players")
        print(f"{len(todo)} cells")
        return 0

    command = "python tools/variant_matrix.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    # the ruleset file's fingerprint: a table made with other rules is not this run's (the
    # engine is not covered: a change of the engine that changes games must say so itself)
    fingerprint = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
    signature = (f"agents {args.agents}, run seed {args.seed}" + (f", parameters {params}" if params else "")
                 + (f", time-out rate {args.time_outs}" if args.time_outs else "")
                 + f", ruleset file sha256 {fingerprint}")
    header = [
        f"# Variant matrix: {_game(str(path), ()).program.title}",
        "",
        f"{datetime.date.today().isoformat()}, `{command}`",
        "",
        f"{len(todo)} cells (variant combination x player count), {args.games} games each, {signature}.",
        "",
    ]
    from rulebook.simulate.run import check_agents, lineup, split_agents

    agents = split_agents(args.agents)
    try:
        check_agents(lineup(max(n for _, n in todo), agents) if todo else agents)
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    if not 0.0 <= args.time_outs <= 1.0:
        print(f"--time-outs {args.time_outs}: a rate is between 0 and 1", file=sys.stderr)
        return 2
    kept = {}
    if args.resume:
        if f"games each, {signature}." not in Path(args.resume).read_text(encoding="utf-8"):
            raise SystemExit(f"{args.resume} was not made with {signature}: its games are not this run's")
        kept = read_rows(args.resume, columns(args.cap_message, bool(args.time_outs)), args.games)
    if kept:
        header.insert(-1, f"{sum(1 for c in todo if c in kept)} cells kept from {args.resume} (--resume).")
    chunk = max(1, min(args.games, -(-args.games // max(1, args.jobs * 2))))
    tasks = []
    for k, (combo, n) in enumerate(todo):
        if (combo, n) in kept:
            continue
        for start in range(0, args.games, chunk):
            tasks.append(
                (
                    k,
                    {
                        "path": str(path),
                        "combo": list(combo),
                        "players": n,
                        "start": start,
                        "count": min(chunk, args.games - start),
                        "seed": args.seed,
                        "params": params,
                        "cap_message": args.cap_message,
                        "agents": agents,
                        "time_outs": args.time_outs,
                    },
                )
            )
    rows = [
        {
            "combo": combo,
            "players": n,
            "games": 0,
            "errors": 0,
            "capped": 0,
            "cap_hits": 0,
            "time_outs": 0,
            "decisions": [],
            "first_error": None,
            "seconds": 0.0,
            "left": 0,
        }
        for combo, n in todo
    ]
    for k, _ in tasks:
        rows[k]["left"] += 1
    for k, cell in enumerate(todo):
        if cell in kept:
            rows[k]["line"] = kept[cell]
    done = len([c for c in todo if c in kept])
    timed = bool(args.time_outs)
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        results = pool.map(_timed, [t for _, t in tasks]) if pool else map(_timed, [t for _, t in tasks])
        for (k, _), (res, seconds) in zip(tasks, results):
            row = rows[k]
            for key in ("games", "errors", "capped", "cap_hits", "time_outs"):
                row[key] += res[key]
            row["decisions"] += res["decisions"]
            row["first_error"] = row["first_error"] or res["first_error"]
            row["seconds"] += seconds
            row["left"] -= 1
            if row["left"] == 0:
                done += 1
                print(row_line(row, args.cap_message, timed), flush=True)
                if args.out:
                    Path(args.out).write_text(render(rows, header, args.cap_message, done, len(rows), timed))
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    text = render(rows, header, args.cap_message, done, len(rows), timed)
    if args.out:
        Path(args.out).write_text(text)
    print()
    print(text)
    return 1 if any(r["errors"] for r in rows) else 0


def _timed(task: dict):
    start = time.perf_counter()
    res = play_chunk(task)
    return res, time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
