"""Each benchmark game against its hand-written Python baseline (and,
optionally, OpenSpiel), alternated in one run; the ratios with their spread.

    python benchmarks/baselines/run.py [--seconds 4] [--rounds 3] [--games reversi,hex] [--native]
                                       [--peers /work/venv-peers/bin/python]
    rulebook bench all [the same options]
    rulebook bench all --games path/to/ruleset.yaml --baseline path/to/handwritten.py [--players N]

For each game: random games of the ruleset (the compiled Python module;
with ``--native`` its native build too) and of the hand-written baseline in
this folder (standard library only, the same rules), taking turns for
``--rounds`` rounds, each side ``seconds / rounds`` of this process's CPU
time a round. A round's ratio is ours over the baseline, in games per
second (the same rules make the same games); the line gives the median of
the rounds and their lowest and highest. With ``--peers PYTHON``,
benchmarks/openspiel_peers.py runs under that Python in a subprocess in
the same alternation, and its ratio is in decisions per second (its rules
differ in details: docs/performance.md, "Benchmarks").

Any other ruleset is measured the same way by its path, against a
hand-written version given with ``--baseline`` (a file whose
``play(players, rng)`` plays one random game and returns (winners,
decisions)). Only ratios measured together mean anything on a shared
machine; speed is never asserted by a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# The first two baselines (Get Bit!, Dead Man's Draw) live outside the checkout, in
# shared/bench beside it (or beside the folder of worktrees); skipped when absent.
SHARED = next((p for p in (ROOT.parent / "shared" / "bench", ROOT.parent.parent / "shared" / "bench")
               if p.exists()), ROOT.parent / "shared" / "bench")
PEERS_SCRIPT = HERE.parent / "openspiel_peers.py"


@dataclass(frozen=True)
class Entry:
    """One game of the benchmark: our ruleset, its player count, and where
    its hand-written baseline is (None: only a peer to compare with)."""

    game: str
    players: int
    covers: str
    baseline: Path | None


ENTRIES = [
    Entry("reversi", 2, "a square grid with captures in eight directions", HERE / "reversi.py"),
    Entry("hex", 2, "a connection game on a hex board", HERE / "hex.py"),
    Entry("hearts", 4, "trick-taking with hidden hands", HERE / "hearts.py"),
    Entry("goofspiel", 2, "simultaneous secret choices", HERE / "goofspiel.py"),
    Entry("little-kingdoms", 2, "tile-laying in per-player areas, regions scored", HERE / "little_kingdoms.py"),
    Entry("pig", 2, "dice, a turn of many decisions", HERE / "pig.py"),
    Entry("get-bit", 4, "simultaneous cards, a line of robots", SHARED / "handcoded_getbit.py"),
    Entry("dead-mans-draw", 2, "push-your-luck cards with abilities", SHARED / "handcoded_deadmansdraw.py"),
    Entry("liars-dice", 2, "hidden dice, bids (OpenSpiel only)", None),
    Entry("tic-tac-toe", 2, "the smallest board (OpenSpiel only)", None),
]


def load_module(path: Path):
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))  # a baseline's own helpers (_harness)
    spec = importlib.util.spec_from_file_location(f"baseline_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def baseline_player(entry: Entry):
    """A function playing one game of the baseline: rng -> decisions, or None."""
    if entry.baseline is None or not entry.baseline.exists():
        return None
    module = load_module(entry.baseline)
    if hasattr(module, "play"):
        return lambda rng: module.play(entry.players, rng)[1]
    return lambda rng: module.run_one(entry.players, rng).decisions  # the shared baselines' interface


def ruleset_path(game: str) -> Path:
    """A benchmark game's ruleset, or a ruleset given by its path (a file or its folder)."""
    for folder in ("examples", "rulesets"):
        path = ROOT / folder / game / "ruleset.yaml"
        if path.exists():
            return path
    given = Path(game)
    if given.is_dir() and (given / "ruleset.yaml").exists():
        return given / "ruleset.yaml"
    if given.is_file():
        return given
    raise SystemExit(f"no ruleset '{game}'")


def entry_for(game: str, baseline: Path | None = None, players: int | None = None) -> Entry:
    """A benchmark game by its id, or any ruleset by its path, measured the same
    way: against ``baseline`` (a file whose ``play(players, rng)`` returns
    (winners, decisions)) when given, at ``players`` (default: the ruleset's)."""
    known = {e.game: e for e in ENTRIES}
    if game in known and baseline is None and players is None:
        return known[game]
    if players is None:
        from rulebook.compiler.build import compile_path

        program = compile_path(ruleset_path(game)).program
        players = known[game].players if game in known else (program.default_players or program.min_players)
    if baseline is None and game in known:
        baseline = known[game].baseline
    return Entry(game, players, "a ruleset given by its path", baseline)


def ruleset_player(game: str, players: int, native: bool = False, say=print):
    """A function playing game ``i`` of the ruleset's random games: i -> decisions."""
    from rulebook.compiler import native as native_code
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.simulate.run import game_seed, play_one

    program = compile_path(ruleset_path(game)).program
    if native:
        native_code.on_build = lambda title: say(f"(building {title} as native code: a minute or two, then cached)")
        program = native_code.as_asked(program, True)
    loaded = Game(program)
    return lambda i: play_one(loaded, players, game_seed(1, i))[1]


@dataclass
class Side:
    """One side of a comparison: its games, decisions and seconds, round by round."""

    name: str
    rounds: list[tuple[int, int, float]] = field(default_factory=list)

    def games_per_s(self, r: int) -> float:
        return self.rounds[r][0] / self.rounds[r][2]

    def decisions_per_s(self, r: int) -> float:
        return self.rounds[r][1] / self.rounds[r][2]

    def total(self, k: int) -> float:
        return sum(x[k] for x in self.rounds)

    def mean_games_per_s(self) -> float:
        return self.total(0) / self.total(2)

    def decisions_per_game(self) -> float:
        return self.total(1) / self.total(0)


def timed(play, seconds: float, start_index: int, clock=time.process_time) -> tuple[int, int, float]:
    """Games played back to back for ``seconds`` of ``clock``: (games, decisions, seconds)."""
    games = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        decisions += play(start_index + games)
        games += 1
        if clock() >= deadline:
            break
    return games, decisions, clock() - start


def peer_round(python: str, game: str, seconds: float) -> tuple[int, int, float] | None:
    """One round of the OpenSpiel peer in a subprocess (it times itself by
    its CPU time, so its start-up is not counted)."""
    out = subprocess.run([python, str(PEERS_SCRIPT), "--only", game, "--seconds", str(seconds)],
                         capture_output=True, text=True, timeout=seconds * 10 + 120)
    fields = dict(w.split("=", 1) for w in out.stdout.split() if "=" in w)
    if "games" not in fields:
        return None
    games = int(fields["games"])
    elapsed = games / float(fields["games_per_s"])
    return games, round(float(fields["decisions_per_game"]) * games), elapsed


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def compare(entry: Entry, seconds: float, rounds: int, native: bool = False, peers: str | None = None,
            say=print) -> dict:
    """The sides of one game measured in turn; returns them by name."""
    from rulebook.compiler.native import missing

    base = baseline_player(entry)
    ours = ruleset_player(entry.game, entry.players)
    plays = {"python": ours}
    if native and not missing():
        plays["native"] = ruleset_player(entry.game, entry.players, native=True, say=say)
    if base is not None:
        rng = random.Random(12345)
        plays["handwritten"] = lambda i: base(rng)
    sides = {name: Side(name) for name in plays}
    if peers and entry.game in PEER_GAMES:
        sides["openspiel"] = Side("openspiel")
    share = seconds / rounds
    index = 0
    for r in range(rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(list(sides)))
        for name in order:
            if name == "openspiel":
                got = peer_round(peers, entry.game, share)
                if got is None:
                    del sides[name]
                    continue
                sides[name].rounds.append(got)
            else:
                got = timed(plays[name], share, index)
                index += got[0] if name != "handwritten" else 0
                sides[name].rounds.append(got)
    return sides


PEER_GAMES = {"liars-dice", "hearts", "reversi", "hex", "goofspiel", "pig", "tic-tac-toe"}


def render(entry: Entry, sides: dict) -> list[str]:
    """One line per measured side of ours: its rate and its ratios."""
    lines = []
    base, peer = sides.get("handwritten"), sides.get("openspiel")
    for name in ("python", "native"):
        ours = sides.get(name)
        if ours is None:
            continue
        n = len(ours.rounds)
        parts = [f"game={entry.game} players={entry.players} impl={name}",
                 f"games_per_s={ours.mean_games_per_s():.1f} decisions_per_game={ours.decisions_per_game():.1f}"]
        if base is not None:
            ratios = [ours.games_per_s(r) / base.games_per_s(r) for r in range(n)]
            parts.append(f"vs_handwritten={spread(ratios)} handwritten_games_per_s={base.mean_games_per_s():.1f} "
                         f"handwritten_decisions_per_game={base.decisions_per_game():.1f}")
        if peer is not None:
            ratios = [ours.decisions_per_s(r) / peer.decisions_per_s(r) for r in range(min(n, len(peer.rounds)))]
            parts.append(f"vs_openspiel_decisions={spread(ratios)} "
                         f"openspiel_decisions_per_game={peer.decisions_per_game():.1f}")
        lines.append(" ".join(parts))
    return lines


def run(games: list[str], seconds: float, rounds: int, native: bool = False, peers: str | None = None,
        say=print, baseline: Path | None = None, players: int | None = None) -> list[str]:
    """Every asked game compared in turn; says each game's lines as they come and returns them all."""
    from rulebook.compiler.native import missing

    out = []
    if native and missing():
        say(f"(no native build: {missing()})")
    for game in games:
        entry = entry_for(game, baseline, players)
        if (entry.baseline is None or not entry.baseline.exists()) and not (peers and entry.game in PEER_GAMES):
            say(f"game={entry.game} skipped: no hand-written baseline" + ("" if entry.game in PEER_GAMES else
                " (--baseline FILE gives one)") + ("; --peers PYTHON compares it with OpenSpiel"
                                                   if entry.game in PEER_GAMES and not peers else ""))
            continue
        for line in render(entry, compare(entry, seconds, rounds, native, peers, say)):
            say(line)
            out.append(line)
    return out


def parity(entry: Entry, games: int) -> tuple[float, float | None]:
    """Mean decisions per game over ``games`` games of the ruleset and of its
    baseline: the same rules give the same figure, up to chance."""
    ours = ruleset_player(entry.game, entry.players)
    base = baseline_player(entry)
    rng = random.Random(54321)
    mine = sum(ours(i) for i in range(games)) / games
    theirs = sum(base(rng) for _ in range(games)) / games if base is not None else None
    return mine, theirs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="CPU seconds per side and game, over all rounds")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of the sides")
    ap.add_argument("--games", default=",".join(e.game for e in ENTRIES), help="comma-separated game ids")
    ap.add_argument("--native", action="store_true", help="also the rulesets' native builds")
    ap.add_argument("--peers", metavar="PYTHON", help="a Python with open_spiel, to run the OpenSpiel peers")
    ap.add_argument("--baseline", type=Path,
                    help="a hand-written version to measure --games against (play(players, rng))")
    ap.add_argument("--players", type=int, help="the player count (default: the game's own)")
    ap.add_argument("--parity", type=int, metavar="N", help="instead: mean decisions per game over N games of each")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.parity:
        for game in [g for g in args.games.split(",") if g]:
            entry = entry_for(game, args.baseline, args.players)
            if entry.baseline is None:
                continue
            mine, theirs = parity(entry, args.parity)
            shown = "absent" if theirs is None else f"{theirs:.1f}"
            print(f"game={game} games={args.parity} ruleset_decisions_per_game={mine:.1f} "
                  f"handwritten_decisions_per_game={shown}")
        return 0
    run([g for g in args.games.split(",") if g], args.seconds, args.rounds, args.native, args.peers,
        baseline=args.baseline, players=args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
