"""A real ``rulebook play`` session in a real terminal (tmux), with a human
seat scripted by keystrokes: the screen, help, a whole game, save and resume.

tmux gives the program a terminal, so this exercises what CliRunner cannot:
the screen cleared and redrawn at each decision, colour (``capture-pane``
returns the text without it) and input typed at a terminal. Each test runs
its own tmux server (``-L``) so that nothing else running is touched, and
waits for the screen by polling with a deadline, never by fixed sleeps.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0  # seconds to wait for a screen: generous, for a loaded machine; polled every 50 ms
PROMPT = "choice (number, ? for help, s to save, q to quit):"


class Pane:
    """One tmux server with one window (120x40 unless told) running a command."""

    def __init__(self, name: str, command: list[str], cwd: Path, size: tuple[int, int] = (120, 40)):
        self.socket = f"rulebook-test-{os.getpid()}-{name}"
        shell = f"{shlex.join(command)}; printf \"[exit %s]\" $?; sleep 600"  # no newline: a full screen stays put
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMUX")}
        self.tmux("new-session", "-d", "-x", str(size[0]), "-y", str(size[1]), "-c", str(cwd), shell, env=env)

    def tmux(self, *args: str, env=None) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=env,
                              timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def rows(self) -> list[str]:
        """The screen's rows, a line the terminal wrapped joined again
        (``-J``), so that a line longer than the terminal shows as one."""
        rows = [row.rstrip() for row in self.tmux("capture-pane", "-p", "-J").split("\n")]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    def wait_for(self, test, what: str) -> str:
        """The screen, once ``test(screen)`` holds; fails after DEADLINE."""
        end = time.monotonic() + DEADLINE
        while True:
            text = self.screen()
            if test(text):
                return text
            if time.monotonic() > end:
                pytest.fail(f"timed out waiting for {what}; the screen:\n{text}")
            time.sleep(0.05)

    def wait_text(self, needle: str) -> str:
        return self.wait_for(lambda s: needle in s, repr(needle))

    def type(self, keys: str) -> None:
        self.tmux("send-keys", "-l", keys)
        self.tmux("send-keys", "Enter")

    def close(self) -> None:
        """Stop this test's server and remove its socket file (tmux leaves it behind)."""
        path = subprocess.run(["tmux", "-L", self.socket, "display-message", "-p", "#{socket_path}"],
                              capture_output=True, text=True, timeout=30).stdout.strip()
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)
        if path.endswith(self.socket):
            Path(path).unlink(missing_ok=True)


def rulebook(*args: str) -> list[str]:
    return [sys.executable, "-m", "rulebook.cli", *args]


@pytest.fixture
def pane(tmp_path):
    panes = []

    def start(name: str, *args: str, size: tuple[int, int] = (120, 40)) -> Pane:
        p = Pane(name, rulebook(*args), tmp_path, size)
        panes.append(p)
        return p

    yield start
    for p in panes:
        p.close()


def at_prompt(screen: str) -> bool:
    """Waiting for an answer: the prompt is the last thing on the screen."""
    lines = [line for line in screen.splitlines() if line.strip()]
    return bool(lines) and lines[-1].startswith(PROMPT)


def turn_of(screen: str) -> int:
    found = re.findall(r"phase play · turn (\d+)", screen)
    return int(found[-1]) if found else -1


def play_to_the_end(p: Pane) -> str:
    """Pick the first option at each decision until the game is over."""
    for _ in range(10):  # X makes at most five moves
        screen = p.wait_for(lambda s: at_prompt(s) or "[exit " in s, "a decision or the end")
        if "[exit " in screen:
            return screen
        turn = turn_of(screen)
        p.type("1")
        p.wait_for(lambda s, t=turn: "[exit " in s or (at_prompt(s) and turn_of(s) > t), "the next decision")
    pytest.fail("the game did not end")


def test_a_whole_game_with_help_in_a_terminal(pane):
    p = pane("game", "play", "tic-tac-toe", "--human", "1", "--seed", "3")
    screen = p.wait_for(at_prompt, "the first decision")
    assert "Tic-tac-toe · phase play · turn 1" in screen
    assert "square map" in screen and "X (you)" in screen and "supply[X]    5  X ×5" in screen
    assert "X: play: your move" in screen and "9. bottom right" in screen
    p.type("?")
    screen = p.wait_text("Type the number of an option")
    assert "X, the rules ask you: play: your move" in screen and "Keys:" in screen
    p.type("seven")
    p.wait_text("Please type a number from 1 to 9. ('seven' is not an option; ? for help)")
    screen = play_to_the_end(p)
    assert "Game over. Winner: X." in screen  # seed 3: X wins along the top row
    assert "X (you)  winner" in screen and "[exit 0]" in screen
    assert "Traceback" not in screen


def test_save_with_s_and_resume_in_a_terminal(pane, tmp_path):
    p = pane("save", "play", "tic-tac-toe", "--human", "1", "--seed", "3", "--save", "saved.json")
    p.wait_for(at_prompt, "the first decision")
    p.type("5")
    p.wait_for(lambda s: at_prompt(s) and turn_of(s) == 3, "the second decision")
    p.type("s")
    screen = p.wait_text("[exit 0]")
    assert "Saved to saved.json; resume with: rulebook play tic-tac-toe --resume saved.json" in screen
    assert (tmp_path / "saved.json").exists()

    r = pane("resume", "play", "tic-tac-toe", "--resume", "saved.json")
    screen = r.wait_for(at_prompt, "the resumed decision")
    assert turn_of(screen) == 3 and "middle  .      X      ." in screen  # the middle mark played before the save
    screen = play_to_the_end(r)
    assert "Game over." in screen and "[exit 0]" in screen


def test_hot_seat_hides_each_screen_until_enter(pane):
    p = pane("hotseat", "play", "tic-tac-toe", "--human", "1", "--human", "2", "--seed", "3")
    screen = p.wait_text("Pass the terminal to X, then press Enter")
    assert "X (you)" not in screen  # nothing of X's view before Enter
    p.type("")
    p.wait_for(lambda s: at_prompt(s) and "X (you)" in s, "X's decision")
    p.type("5")
    screen = p.wait_text("Pass the terminal to O, then press Enter")
    assert "X (you)" not in screen and "Your decision" not in screen  # X's screen was cleared
    p.type("")
    screen = p.wait_for(lambda s: at_prompt(s) and "O (you)" in s, "O's decision")
    assert "X: middle centre." in screen  # O's recent events
    p.type("q")
    p.wait_text("Quit without saving?")
    p.type("y")
    assert "Game abandoned." in p.wait_text("[exit 0]")


def test_a_whole_game_at_80x24_in_a_real_terminal_is_the_recorded_one(pane):
    """Issue 41: a whole Dead Man's Draw (seed 7, the game of the issue) at
    a real 80x24 terminal, seat 1 answering 1 at every prompt, paging
    through what happened with Enter. Each screen is the very screen the
    recording terminal of ``rulebook.terminal.capture`` drew for the same
    answers (so its checks of every seed game's every screen,
    tests/interfaces/test_terminal_screens.py, hold at a real terminal):
    no line longer than the terminal, the header with whose turn and the
    scores at the top, the prompt at the bottom, the lines narrated since
    the seat's last decision on it or on the pages before it, the banks
    drawn whole in stacks; and the game-over screen says how it ended."""
    from rulebook.files.loading import load_game
    from rulebook.terminal.capture import whole_game

    game, _ = load_game("dead-mans-draw")
    recorded = whole_game(game, 2, seed=7, pick=lambda options: 0)
    p = pane("dmd80", "play", "dead-mans-draw", "--human", "1", "--seed", "7", size=(80, 24))
    for i, screen in enumerate(recorded.screens):
        for k, page in enumerate(screen.pages):
            wait_rows(p, page, f"screen {i}, page {k + 1}")
            p.type("")
        rows = wait_rows(p, screen.lines, f"screen {i}")
        assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), rows
        assert rows[0].startswith("─") and "turn" in rows[0], rows  # the header: where the game is
        assert any("Scores" in row for row in rows[:3]), rows
        assert rows[-1].endswith("q to quit):"), rows
        assert all(screen.shows(text) for text in screen.fresh), (screen.fresh, rows)
        assert not any(row.endswith("…") or "(r: all)" in row for row in rows if "bank" in row), rows
        if i == 0:  # colour on a terminal: the cards on their suits' declared colours
            assert re.search(r"\x1b\[[0-9;:]*48[;:][25]", p.tmux("capture-pane", "-p", "-e")), "no colour"
        p.type("1")
    rows = wait_rows(p, recorded.ending + ["[exit 0]"], "the game-over screen")
    ending = "\n".join(rows)
    assert "Game over. Winner: P2." in ending and "How the game ended" in ending and "Final scores" in ending
    assert "The deck is empty: the game ends." in ending


def wait_rows(p: Pane, expected: list[str], what: str) -> list[str]:
    """The pane's rows once they are ``expected`` (the recorded screen); on
    a timeout, both side by side."""
    end = time.monotonic() + DEADLINE
    while True:
        rows = p.rows()
        if rows == expected:
            return rows
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}; the terminal:\n" + "\n".join(rows)
                        + "\n--- recorded:\n" + "\n".join(expected))
        time.sleep(0.05)
