"""What a run of ``rulebook simulate`` reports: the summary table, a plot,
and a replayable log per failed game; one row per game (JSON Lines or CSV)
is ``rulebook.simulate.rows``.

Win rates count a shared win as ``1/k`` for each of its ``k`` winners, over
the games that finished (a game that failed has no result to count). Their
95 % intervals are Wilson score intervals: unlike the normal approximation
they stay inside [0, 1] and behave with few games or rates near 0 or 1,
which is where comparing agents usually starts.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rulebook.simulate.games import AGENT, CAP, RULE, WORKER, Result
from rulebook.simulate.rows import FIELDS, write_results  # noqa: F401 - importable from here too, as before

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be
    fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _count(wins: float) -> str:
    """A win count: whole, or with one decimal when shared wins made it a fraction."""
    return str(int(wins)) if wins == int(wins) else f"{wins:.1f}"


def percentile(sorted_values: Sequence[int], q: float) -> int:
    """The nearest-rank percentile (a value that occurred, not an average)."""
    k = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[k - 1]


@dataclass
class Rate:
    label: str
    wins: float
    trials: int
    seats: int = 1

    @property
    def rate(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.trials)


def seat_names(game, players: int) -> list[str]:
    """What the ruleset calls each seat (``players.name``), where that is
    the same in every game: Black and White, Red and Blue. Where the names
    come from the game (a character dealt in setup), they differ between
    seeds, and a seat's number is all that holds over a run: P1, P2."""
    from rulebook.interpreter.labels import player_name

    fallback = [f"P{p + 1}" for p in range(players)]
    if game is None or game.program.player_label is None:
        return fallback
    try:
        a, b = (game.new(players=players, seed=s, record=False) for s in (1, 2))
        names = [player_name(a, p) for p in range(players)]
        if names != [player_name(b, p) for p in range(players)] or len(set(names)) < players:
            return fallback
    except Exception:  # noqa: BLE001 - a name that cannot be computed is no name: the games report the error
        return fallback
    return names


def seat_rates(players: int, results: list[Result], names: list[str] | None = None) -> list[Rate]:
    ok = [r for r in results if r.error is None]
    wins = [0.0] * players
    for r in ok:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    agents = _agents(players, results)
    names = names or [f"P{p + 1}" for p in range(players)]
    return [Rate(f"{names[p]} {agents[p]}", wins[p], len(ok)) for p in range(players)]


def agent_rates(players: int, results: list[Result]) -> list[Rate]:
    """Per agent spec, over seat-games: with ``k`` seats of one agent and
    ``g`` finished games there are ``k * g`` trials. (Seats of one game are
    not independent, so with ``k`` > 1 the interval is a little optimistic.)"""
    ok = [r for r in results if r.error is None]
    by_seat = seat_rates(players, results)
    agents = _agents(players, results)
    out: dict[str, Rate] = {}
    for p, spec in enumerate(agents):
        rate = out.setdefault(spec, Rate(spec, 0.0, 0, 0))
        rate.wins += by_seat[p].wins
        rate.trials += len(ok)
        rate.seats += 1
    return list(out.values())


def _agents(players: int, results: list[Result]) -> list[str]:
    for r in results:
        if r.agents:
            return list(r.agents)
    return ["random"] * players


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def summary(game, players: int, results: list[Result], seconds: float | None = None, where: str = "",
            cut_off_says: str | None = None) -> str:
    prog = game.program
    ok = [r for r in results if r.error is None]
    names = seat_names(game, players)
    lines = [
        f"{prog.title}{' (' + ', '.join(prog.variants) + ')' if prog.variants else ''}: "
        f"{len(results)} games, {players} players, agents: {', '.join(_agents(players, results))}"
    ]
    if ok:
        lines.append(f"wins by seat ({len(ok)} finished games; a shared win counts 1/k for each of its k winners)")
        lines += _table(["seat", "wins", "rate", "95% interval"], [
            [r.label, _count(r.wins), _pct(r.rate), f"{_pct(r.interval[0])} - {_pct(r.interval[1])}"]
            for r in seat_rates(players, results, names)])
        if len(set(_agents(players, results))) > 1:
            lines.append(f"wins by agent (over seat-games; an even share is {_pct(1 / players).strip()})")
            lines += _table(["agent", "seats", "seat-games", "wins", "rate", "95% interval"], [
                [r.label, str(r.seats), str(r.trials), _count(r.wins), _pct(r.rate),
                 f"{_pct(r.interval[0])} - {_pct(r.interval[1])}"]
                for r in agent_rates(players, results)])
        lines += _score_lines(players, ok, names)
        none = sum(1 for r in ok if not r.winners)
        shared = sum(1 for r in ok if len(r.winners) > 1)
        lines.append(f"games without a winner: {none}; games with a shared win: {shared}")
        lengths = sorted(r.decisions for r in ok)
        lines.append(
            f"decisions per game: mean {statistics.mean(lengths):.1f}, min {lengths[0]}, "
            f"median {statistics.median(lengths):g}, p90 {percentile(lengths, 0.9)}, max {lengths[-1]}"
        )
        turns = [r.turns for r in ok if r.turns is not None]
        if turns:
            lines.append(f"turns per game: mean {statistics.mean(turns):.1f}, min {min(turns)}, max {max(turns)}")
    cut = [r for r in ok if r.cut_off]
    if cut:
        lines.append(f"cut off by the rules (the narration said '{cut_off_says}'): {len(cut)} of {len(ok)} "
                     "finished games; their winners are counted above as the rules name them")
    timed = sum(r.timed for r in results)
    if timed:
        outs = sum(r.time_outs for r in results)
        lines.append(f"time-outs (--time-outs): {outs} of {timed} timed decisions ({outs / timed:.1%})")
    narrated = sum(1 for r in results if r.narrated)
    lines.append(f"narration and option labels evaluated in {narrated} of {len(results)} games (--check-narration)")
    errors = [r for r in results if r.error]
    kinds = {k: sum(1 for r in errors if r.kind == k) for k in (RULE, CAP, AGENT, WORKER)}
    lines.append(
        f"errors: {len(errors)}"
        + (f" (ruleset {kinds[RULE]}, decision cap {kinds[CAP]}, agent {kinds[AGENT]}"
           + (f", worker process lost {kinds[WORKER]}" if kinds[WORKER] else "") + ")" if errors else "")
    )
    for r in errors[:5]:
        lines.append(f"  game {r.index} (seed {r.seed}): {r.error}")
    if len(errors) > 5:
        lines.append(f"  ... and {len(errors) - 5} more")
    if seconds is not None:
        rate = len(results) / seconds if seconds > 0 else float("inf")
        lines.append(f"time: {seconds:.2f} s, {rate:.1f} games/s" + (f" ({where})" if where else ""))
    return "\n".join(lines)


def _score_lines(players: int, ok: list[Result], names: list[str]) -> list[str]:
    """Final scores by seat and the winners' scores, when the ruleset has
    ``scoring`` (a match's points, a game's final tally)."""
    scored = [r for r in ok if r.scores and len(r.scores) == players
              and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in r.scores)]
    if not scored or len({x for r in scored for x in r.scores}) == 1:  # nothing scored: nothing to say
        return []
    agents = _agents(players, ok)
    lines = [f"final scores by seat ({len(scored)} games)"]
    lines += _table(["seat", "mean", "min", "median", "max"], [
        [f"{names[p]} {agents[p]}", f"{statistics.mean(col):.1f}", f"{min(col):g}", f"{statistics.median(col):g}",
         f"{max(col):g}"]
        for p, col in enumerate([r.scores[p] for r in scored] for p in range(players))])
    best = [max(r.scores[w] for w in r.winners) for r in scored if r.winners]
    if best:
        lines.append(f"winning score: mean {statistics.mean(best):.1f}, min {min(best):g}, "
                     f"median {statistics.median(best):g}, max {max(best):g}")
    return lines


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    fmt = lambda row: "  " + "  ".join(  # noqa: E731
        (x.ljust(w) if i == 0 else x.rjust(w)) for i, (x, w) in enumerate(zip(row, widths))).rstrip()
    return [fmt(header)] + [fmt(row) for row in rows]


# ------------------------------------------------------------ plot


def plot(path: str | Path, game, players: int, results: list[Result]) -> None:
    """Win rates by seat and by agent with their intervals, and a histogram
    of game lengths. matplotlib is imported here only (the ``plot`` extra),
    through its object API so that no global pyplot state or GUI backend is
    involved."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4), layout="constrained")
    rates_ax, agents_ax, hist_ax = fig.subplots(1, 3, width_ratios=[max(2, players), 2, 3])
    for ax, rates, title in ((rates_ax, seat_rates(players, results, seat_names(game, players)), "win rate by seat"),
                             (agents_ax, agent_rates(players, results), "win rate by agent")):
        xs = range(len(rates))
        ys = [r.rate for r in rates]
        err = [[r.rate - r.interval[0] for r in rates], [r.interval[1] - r.rate for r in rates]]
        ax.bar(xs, ys, yerr=err, capsize=4, color="#4c72b0")
        ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(list(xs), [r.label for r in rates], rotation=30, ha="right")
        ax.set_ylim(0, 1)
        ax.set_title(title + " (95% Wilson)")
    lengths = [r.decisions for r in results if r.error is None]
    if lengths:
        low, high = min(lengths), max(lengths)
        bins = [x - 0.5 for x in range(low, high + 2)] if high - low < 60 else 40  # whole decisions
        hist_ax.hist(lengths, bins=bins, color="#55a868")
    hist_ax.set_title("game length")
    hist_ax.set_xlabel("decisions")
    hist_ax.set_ylabel("games")
    fig.suptitle(f"{game.program.title}: {len(results)} games")
    FigureCanvasAgg(fig).print_figure(str(path), dpi=100)


# ------------------------------------------------------------ failed games


def save_failures(directory: str | Path, game, ruleset_path: str, players: int, params: dict, run_seed: int,
                  results: list[Result]) -> dict[int, tuple[str, bool]]:
    """Write each failed game as a log ``rulebook replay`` reads: the header
    of ``rulebook.logs.LogWriter``, the run's details, every decision with
    its label, and the error. The decisions are played again here to label
    them, which also checks that the failure reproduces. Returns, by game
    index, the log's path and whether the failure reproduced."""
    out: dict[int, tuple[str, bool]] = {}
    failed = [r for r in results if r.error and r.kind != WORKER]  # a lost worker left no decisions to replay
    if not failed:
        return out
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for r in failed:
        path = log_path(directory, game, r)
        out[r.index] = (str(path), write_failure(path, game, ruleset_path, players, params, run_seed, r))
    return out


def log_path(directory: Path, game, r: Result) -> Path:
    """Where the log of game ``r`` goes in ``directory``."""
    return directory / f"{game.program.id}-game{r.index}-seed{r.seed}.jsonl"


def write_failure(path: Path, game, ruleset_path: str, players: int, params: dict, run_seed: int,
                  r: Result) -> bool:
    """Write failed game ``r``'s log (see ``save_failures``); whether the
    failure reproduced. The game is played again with its narration, as
    ``rulebook replay`` plays it, so a failing ``say`` fails here too."""
    from rulebook.files.logs import LOG_FORMAT, LogWriter, header_path
    from rulebook.interpreter.errors import RulebookError

    prog = game.program
    extra = {"simulate": {"game": r.index, "run_seed": run_seed, "agents": list(r.agents)}}
    end = {"error": r.error, "kind": r.kind, "decisions": len(r.history or [])}
    try:
        st = game.new(players=players, seed=r.seed, params=params)
    except RulebookError as err:  # the setup itself failed: a header is the whole log
        header = {"rulebook_log": LOG_FORMAT, "ruleset": prog.id, "path": header_path(path, ruleset_path),
                  "version": prog.version, "digest": prog.digest, "variants": list(prog.variants),
                  "players": players, "seed": r.seed, "params": dict(params)}
        path.write_text("\n".join(json.dumps(x, default=str) for x in (header, extra, end)) + "\n", encoding="utf-8")
        return str(err) == r.error
    log = LogWriter(path, game, st, r.seed, str(ruleset_path))
    again = None
    try:
        log.write(extra)
        for entry in r.history or []:
            try:
                _write_step(log, game, st, entry)
            except RulebookError as err:
                again = str(err)
                break
        if again is None and st.over and prog.score:  # the game ended; its score failed
            try:
                game.scores(st)
            except RulebookError as err:
                again = str(err)
        log.write(end)
    finally:
        log.close()
    if r.kind == RULE and not r.error.startswith("while seat "):
        return again == r.error
    return again is None and not st.over


def save_logs(directory: str | Path, game, ruleset_path: str, players: int, params: dict, run_seed: int,
              results: list[Result]) -> int:
    """Write every game of a run (``--logs``) as a log ``rulebook replay``
    reads: failed games as ``save_failures`` writes them, finished ones
    with their decisions, labels and winners. Returns how many were written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for r in results:
        save_log(log_path(directory, game, r), game, ruleset_path, players, params, run_seed, r)
    return len(results)


def save_log(path: Path, game, ruleset_path: str, players: int, params: dict, run_seed: int, r: Result) -> None:
    """Write one game of a run as a log (see ``save_logs``)."""
    from rulebook.files.logs import LogWriter

    if r.error:
        write_failure(path, game, ruleset_path, players, params, run_seed, r)
        return
    st = game.new(players=players, seed=r.seed, params=params, record=False)
    log = LogWriter(path, game, st, r.seed, str(ruleset_path))
    try:
        log.write({"simulate": {"game": r.index, "run_seed": run_seed, "agents": list(r.agents)}})
        for entry in r.history or []:
            _write_step(log, game, st, entry)
        log.end(st)
    finally:
        log.close()


def _write_step(log, game, st, entry) -> None:
    """Write one history entry (a decision, or ``[player, None, "time_out"]``)
    to the log, with its label, and play it again in ``st``."""
    player, value = entry[0], entry[1]
    if len(entry) > 2 and entry[2] == "time_out":
        log.time_out(player)
        game.time_out(st, player)
        return
    option = game.options(st, player).by_value(value)
    log.decision(player, value, option.label)
    game.apply(st, player, option)
