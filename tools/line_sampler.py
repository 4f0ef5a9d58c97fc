"""Which lines of a ruleset's generated module random games spend their time in.

    python tools/line_sampler.py RULESET PLAYERS [SECONDS] [--native]

Plays random games through the engine's playout loop (as ``rulebook
simulate`` does) while a thread samples, every 0.2 ms, the main thread's
innermost frame and the innermost line of the generated module on its
stack. Unlike ``cProfile``, the sampled code runs at its own speed, so
small functions are not made to look dear; the samples land where Python
checks for thread switches (calls and backward jumps), which is close
enough to rank the hot lines. Prints the functions and the generated
lines (``rulebook compile RULESET`` shows them in place) by share of the
samples.
"""

from __future__ import annotations

import collections
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulebook.compiler.build import compile_path  # noqa: E402
from rulebook.compiler.native import as_asked  # noqa: E402
from rulebook.interpreter.game import Game  # noqa: E402

from rulebook.simulate.run import game_seed, play_one  # noqa: E402


def main(argv: list[str]) -> int:
    native = "--native" in argv
    argv = [a for a in argv if a != "--native"]
    if len(argv) < 2:
        print(__doc__)
        return 2
    ruleset, players = argv[0], int(argv[1])
    seconds = float(argv[2]) if len(argv) > 2 else 5.0
    path = Path(ruleset)
    if not path.exists():
        path = Path(__file__).resolve().parent.parent / "rulesets" / ruleset / "ruleset.yaml"
    program = as_asked(compile_path(path).program, native)
    source = program.source.splitlines()
    game = Game(program)
    main_thread = threading.get_ident()
    funcs: collections.Counter = collections.Counter()
    lines: collections.Counter = collections.Counter()
    total = 0
    running = True

    def sample() -> None:
        nonlocal total
        while running:
            time.sleep(0.0002)
            frame = sys._current_frames().get(main_thread)
            if frame is None:
                continue
            total += 1
            funcs[(Path(frame.f_code.co_filename).name, frame.f_code.co_name)] += 1
            while frame is not None and not frame.f_code.co_filename.startswith("<rulebook"):
                frame = frame.f_back
            if frame is not None and frame.f_lineno:
                lines[frame.f_lineno] += 1

    sys.setswitchinterval(0.0001)
    sampler = threading.Thread(target=sample)
    sampler.start()
    games, end = 0, time.time() + seconds
    while time.time() < end:
        play_one(game, players, game_seed(1, games))
        games += 1
    running = False
    sampler.join()
    print(f"{total} samples over {games} games")
    for (file, name), n in funcs.most_common(20):
        print(f"{n / total:6.1%}  {file}:{name}")
    print("generated lines:")
    for number, n in lines.most_common(25):
        print(f"{n / total:6.1%}  {number}: {source[number - 1].strip()[:140]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
