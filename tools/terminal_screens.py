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

from rulebook.agents.base import decide  # noqa: E402

from rulebook.files.loading import load_game  # noqa: E402
from rulebook.terminal.capture import _Enter, _Recorder  # noqa: E402
from rulebook.terminal.play import Session, _bots  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "img"
# game, players, seed, decisions of seat 1 to make before the screen (its first option each time)
SCREENS = [("dead-mans-draw", 2, 5, 6), ("survive", 2, 5, 30), ("lifeboat", 4, 5, 3)]


def screen(game_id: str, players: int, seed: int, before: int, randomly: bool = False) -> str:
    """The screen at seat 1's decision number ``before`` (from 0), the seat
    answering its first option each time, or (``randomly``) as
    ``rulebook.terminal.capture.whole_game`` answers, so that the screen is
    that capture's screen number ``before``."""
    import random

    rnd = random.Random(seed)
    game, _ = load_game(game_id)
    st = game.new(players=players, seed=seed)
    bots = _bots("greedy", players, seed)
    session = Session(game, st, game_arg=game_id, humans=(1,), seed=seed, verbose=False, delay=0, log=None,
                      save_path=f"{game_id}-save.json", bots=bots, stdin=io.StringIO(""))
    session.console = _Recorder(file=io.StringIO(), width=80, height=24, force_terminal=True, record=True,
                              color_system="truecolor", highlight=False, markup=False, emoji=False)  # lines wrap
    made = 0
    while not st.over:
        p = game.to_move(st)[0]
        options = game.options(st, p)
        if p == 0 and len(options) > 1:
            if made == before:
                break
            made += 1
            answer = rnd.randrange(len(options)) if randomly else 0
            session.fresh[0] = 0  # as after a decision of the seat's own
        else:
            answer = decide(game, st, p, bots[p]) if p != 0 else 0
        first = len(st.events)
        game.apply(st, p, answer)
        session.flush(frozenset({first}) if len(options) == 1 else frozenset())  # as the play session does
    session.console.export_text(clear=True)  # the narration printed so far is not on the screen
    session.reader = _Enter()  # the pages of what happened before the screen go by (and are not drawn)
    session.show(0, game.options(st, 0), None)
    session.console.print("choice (number, ? for help, s to save, q to quit): ", end="")
    return session.console.export_svg(title=f"rulebook play {game_id} --human 1")


def png(svg: str, path: Path, width: int = 1000, height: int = 640) -> None:
    """``svg`` (a screen exported by rich) as a PNG, drawn by headless
    chromium (a screenshot for docs/images)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "screen.html"
        page.write_text(f"<html><body style='margin:0;background:#fff'>{svg}</body></html>", encoding="utf-8")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={path}",
                        f"--window-size={width},{height}", page.as_uri()], check=True, capture_output=True,
                       timeout=120)


if __name__ == "__main__" and sys.argv[1:2] == ["--bank"]:
    # docs/images/terminal-dmd-bank-NAME.png: Dead Man's Draw seed 7 (the game of issue 41) at seat 1's
    # 18th decision, a Cannon aimed at the other player's bank of eleven cards, answered as the 80x24
    # capture answers. "before" was drawn with rulebook/terminal of commit c1d1154 in place of this one.
    name = sys.argv[2]
    target = Path(__file__).resolve().parent.parent / "docs" / "images" / f"terminal-dmd-bank-{name}.png"
    png(screen("dead-mans-draw", 2, 7, 17, randomly=True), target, height=680)
    print(f"wrote {target}")
elif __name__ == "__main__" and sys.argv[1:2] == ["--scoreboard"]:
    # docs/images/young-svintus-scoreboard-NAME.png: the same screen of Young Svintus (4 players, seed 3,
    # seat 1's fourth decision), before or after its scoring section's show (run once with each ruleset)
    name = sys.argv[2]
    target = Path(__file__).resolve().parent.parent / "docs" / "images" / f"young-svintus-scoreboard-{name}.png"
    target.parent.mkdir(exist_ok=True)
    png(screen("young-svintus", 4, 3, 4), target, height=700)
    print(f"wrote {target}")
elif __name__ == "__main__":
    for game_id, players, seed, before in SCREENS:
        path = OUT / f"terminal-{game_id}.svg"
        path.write_text(screen(game_id, players, seed, before), encoding="utf-8")
        print(f"wrote {path}")
