"""Draw the play screens shown in docs/play.md (docs/img/terminal-GAME.svg).

Each is the screen ``rulebook play GAME --human 1`` draws on an 80x24
terminal at a decision of seat 1, made by the real play session with a
recording console, exported by rich as SVG. Run it after changing the play
screen:

    python tools/terminal_screens.py
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rulebook.agents.base import decide  # noqa: E402

from rulebook.files.loading import load_game  # noqa: E402
from rulebook.terminal.play import Session, _bots  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "img"
# game, players, seed, decisions of seat 1 to make before the screen (its first option each time)
SCREENS = [("dead-mans-draw", 2, 5, 6), ("survive", 2, 5, 30), ("lifeboat", 4, 5, 3)]


def screen(game_id: str, players: int, seed: int, before: int) -> str:
    game, _ = load_game(game_id)
    st = game.new(players=players, seed=seed)
    bots = _bots("greedy", players, seed)
    session = Session(game, st, game_arg=game_id, humans=(1,), seed=seed, verbose=False, delay=0, log=None,
                      save_path=f"{game_id}-save.json", bots=bots, stdin=io.StringIO(""))
    session.console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, record=True,
                              color_system="truecolor", highlight=False, markup=False, emoji=False)  # lines wrap
    made = 0
    while not st.over:
        p = game.to_move(st)[0]
        options = game.legal(st, p)
        if p == 0 and len(options) > 1:
            if made == before:
                break
            made += 1
            answer = 0
        else:
            answer = decide(game, st, p, bots[p]) if p != 0 else 0
        game.apply(st, p, answer)
        session.flush()
    session.console.export_text(clear=True)  # the narration printed so far is not on the screen
    session.show(0, game.legal(st, 0), None)
    session.console.print("choice (number, ? for help, s to save, q to quit): ", end="")
    return session.console.export_svg(title=f"rulebook play {game_id} --human 1")


if __name__ == "__main__":
    for game_id, players, seed, before in SCREENS:
        path = OUT / f"terminal-{game_id}.svg"
        path.write_text(screen(game_id, players, seed, before), encoding="utf-8")
        print(f"wrote {path}")
