"""Hash the games a ruleset file gives, to show that an edit of the file
keeps the games (run it on both files and compare the lines).

For every variant combination (as ``tools/variant_matrix.py`` enumerates
them) and every player count from 2 to 6 allowed, GAMES greedy games with a
time-out rate of 0.1 (as the matrix plays them) and GAMES random games are
played from the matrix's seeds. The hash covers the history (every answer),
every option list of the random games, the winners and the ``say`` lines.

    python tools/same_games.py RULESET [GAMES] [--native]

With ``--native`` the rulesets run as native code (compiler/native.py):
the hashes must be the same as without. With ``--no-say`` the ``say``
lines are left out of the hash: an edit of a ruleset's texts alone keeps
those hashes (compare both files run with it).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulebook.compiler.build import compile_path  # noqa: E402
from rulebook.compiler.native import as_asked  # noqa: E402
from rulebook.interpreter.game import Game  # noqa: E402
from variant_matrix import combinations  # noqa: E402

from rulebook.simulate.run import game_seed, lineup, play_state  # noqa: E402

SAY = True  # --no-say: the say lines are not hashed


def hash_cell(h, game: Game, players: int, games: int) -> None:
    """Add one cell's games to the hash ``h``."""
    for i in range(games):
        seed = game_seed(0, i)
        st = game.new(players=players, seed=seed, record=True)
        play_state(game, st, seed, lineup(players, ["greedy"]), time_outs=0.1)
        said = [e for e in st.events if e[0] == "say"] if SAY else []
        h.update(json.dumps([st.winners, st.history, said], default=str).encode())
        st = game.new(players=players, seed=seed, record=True)
        rnd, offered = random.Random(seed), []
        while not st.over:
            for p in game.to_move(st):
                options = game.options(st, p).plain
                offered.append(options)
                game.apply(st, p, rnd.randrange(len(options)))
        h.update(json.dumps([st.winners, st.history, offered], default=str).encode())


def main(argv: list[str]) -> int:
    global SAY
    native = "--native" in argv
    SAY = "--no-say" not in argv
    argv = [a for a in argv if a not in ("--native", "--no-say")]
    ruleset, games = argv[0], int(argv[1]) if len(argv) > 1 else 3
    total = hashlib.sha256()
    for combo in combinations(Path(ruleset)):
        program = as_asked(compile_path(ruleset, combo).program, native)
        game = Game(program)
        h = hashlib.sha256()
        for n in range(max(2, program.min_players), min(6, program.max_players) + 1):
            hash_cell(h, game, n, games)
        print("+".join(combo) or "(base)", h.hexdigest()[:12], flush=True)
        total.update(h.digest())
    print("ALL", total.hexdigest()[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
