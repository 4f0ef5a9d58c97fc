"""``rulebook play`` at a terminal: the play screen and the keys of a human
decision, driven through click's CliRunner (standard output is not a
terminal there, so everything must read as plain text)."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook.cli.main import cli

TTT = ("play", "tic-tac-toe", "--seed", "3")


def play(*args, input=None, env=None):
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False, env=env)
    return result.exit_code, result.output


def screens(out: str) -> list[str]:
    """The play screens in an output, each from its header to its prompt."""
    return out.split("Your decision")


# ------------------------------------------------------------------ the keys
def test_help_shows_the_prompt_each_option_and_the_keys():
    code, out = play(*TTT, "--human", "1", input="?\nq\ny\n")
    assert code == 0
    help_text = out.split("Help")[1]
    assert "X, the rules ask you: play: your move" in help_text
    assert "ruleset.yaml" not in help_text and "the action place" not in help_text  # no file, no identifier
    assert "1. top left" in help_text and "9. bottom right" in help_text
    for key in ("a number", "?", "r", "s", "q"):
        assert f"\n  {key} " in help_text
    assert "rulebook play tic-tac-toe --resume tic-tac-toe-save.json" in help_text


def test_help_gives_each_action_its_description_when_the_options_differ(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "rulebook: 1\nid: two-actions\nplayers: {min: 2, max: 2}\n"
        "actions:\n  stay:\n    description: Do nothing this turn.\n  win:\n    effect: end game winners [player]\n"
        "phases:\n  play:\n    turn: {actions: [stay, win]}\n"
    )
    code, out = play("play", str(tmp_path), "--seed", "1", "--human", "1", input="?\n2\n")
    assert code == 0
    assert "1. stay  (Do nothing this turn.)" in out
    assert "2. win\n" in out  # no description: nothing after its label (never the action's name)
    assert "Game over. Winner: P1." in out


def test_invalid_answers_are_asked_again_in_one_line():
    code, out = play(*TTT, "--human", "1", input="foo\n0\n99\n\n1\nq\ny\n")
    assert code == 0 and "Traceback" not in out
    assert "Please type a number from 1 to 9. ('foo' is not an option; ? for help)" in out
    assert "Please type a number from 1 to 9. ('0' is not an option; ? for help)" in out
    assert "Please type a number from 1 to 9. ('99' is not an option; ? for help)" in out
    assert "Please type a number from 1 to 9.\n" in out  # an empty line
    assert "X: top left." in out  # then the valid answer is played


def test_r_shows_the_table_again():
    code, out = play(*TTT, "--human", "1", input="r\nq\ny\n")
    assert code == 0 and out.count("Your decision") == 2 and out.count("X (you)") == 2


def test_an_option_may_be_typed_by_its_label():
    code, out = play(*TTT, "--human", "1", input="Middle Centre\nq\ny\n")
    assert code == 0 and "X: middle centre." in out


def test_quit_asks_first_and_enter_goes_back():
    code, out = play(*TTT, "--human", "1", input="q\n\n1\nq\ny\n")
    assert code == 0
    assert out.count("Quit without saving? y quits, s saves and quits, Enter goes back") == 2
    assert "X: top left." in out  # the game went on after the first 'q'
    assert out.rstrip().endswith("Game abandoned.")


def test_quit_then_s_saves(tmp_path):
    save = tmp_path / "game.json"
    code, out = play(*TTT, "--human", "1", "--save", str(save), input="q\ns\n")
    assert code == 0 and f"Saved to {save}" in out and json.loads(save.read_text())["humans"] == [1]


def test_end_of_input_stops_cleanly():
    code, out = play(*TTT, "--human", "1", input="1\n")
    assert code == 0 and "Traceback" not in out
    assert out.rstrip().endswith("End of input: the game stops here (not saved).")


def test_end_of_input_at_the_hot_seat_prompt_stops_cleanly():
    code, out = play(*TTT, "--human", "1", "--human", "2", input="")
    assert code == 0 and "Pass the terminal to X" in out and "End of input" in out


def test_save_and_resume_finish_the_game(tmp_path):
    save = tmp_path / "game.json"
    code, out = play(*TTT, "--human", "1", "--save", str(save), input="1\ns\n")
    assert code == 0 and "resume with: rulebook play tic-tac-toe --resume" in out
    code, out = play("play", "tic-tac-toe", "--resume", str(save), input="1\n" * 5)
    assert code == 0 and "Game over" in out
    first = screens(out)[0]
    assert "X (you)" in first and "supply[X]    4" in first  # the resumed game, one mark played


def test_a_resumed_game_with_a_log_replays_from_its_seed(tmp_path):
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    play(*TTT, "--human", "1", "--save", str(save), input="1\n2\ns\n")
    code, out = play("play", "tic-tac-toe", "--resume", str(save), "--log", str(log), input="1\n" * 5)
    assert code == 0 and "Game over" in out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    decisions = [r for r in records if "step" in r]
    assert decisions[0]["label"] == "top left"  # the decisions made before the save come first
    code, out = play("replay", str(log))
    assert code == 0 and "replay reproduces the log" in out


def test_a_face_down_option_is_logged_by_its_value_and_replays(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "rulebook: 1\nid: blind-pick\nplayers: {min: 2, max: 2}\n"
        "components:\n  card:\n    for_each: {value: \"range(1, 6)\"}\n    label: \"card {self.value}\"\n"
        "zones:\n  deck: {visibility: hidden}\n  hand: {per: player, visibility: owner}\n"
        "setup: |\n  move components(card) to deck\n  shuffle deck\n"
        "phases:\n  pick:\n    on_begin: |\n      for p in players:\n"
        "          choose c from deck by p prompt \"pick a card blind\"\n          move c to hand[p]\n"
        "      end game winners [0]\n"
    )
    log = tmp_path / "blind.jsonl"
    code, out = play("play", str(tmp_path), "--seed", "4", "--human", "1", "--log", str(log), input="2\n")
    # five cards its chooser cannot tell apart: listed once; any of their numbers picks one
    assert code == 0 and "   1. a face-down card ×5" in out and "  deck    5  [hidden] card ×5" in out
    code, out = play("replay", str(log))
    assert code == 0 and "replay reproduces the log" in out


# ------------------------------------------------------------------ the screen
def test_the_screen_groups_zones_and_shows_backs():
    code, out = play("play", "get-bit", "-p", "4", "--seed", "2", "--human", "2", input="q\ny\n")
    assert code == 0
    screen = screens(out)[0]
    lines = screen.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("Table") or line[:2] in ("P1", "P2", "P3", "P4")]
    assert [lines[i].split("  ")[0] for i in heads] == ["Table", "P2 (you)", "P3", "P4", "P1"]  # the viewer first
    assert "Table  round 1" in lines  # the public variables; tie and hunger are bookkeeping (show: false)
    own = lines[heads[1] + 1]
    assert own.startswith("  hand[blue robot]") and "blue 1, blue 2, blue 3, blue 4, blue 5" in own
    other = lines[heads[2] + 1]
    assert other.startswith("  hand[green robot]") and "[hidden] green card ×5" in other  # its back_label
    assert "P2: choose a card to play" in out and "   1. blue 1" in out


def test_the_screen_draws_the_board_and_recent_events_in_hot_seat():
    code, out = play(*TTT, "--human", "1", "--human", "2", input="\n5\n\nq\ny\n")
    assert code == 0
    o_screen = out.split("Pass the terminal to O, then press Enter")[1]
    assert "  middle  .      X      ." in o_screen  # the map (its rows and columns named), X in the middle
    assert "O (you)  ◀ to decide" in o_screen
    events = o_screen.split("Recent events")[1].split("Your decision")[0]
    assert "X: middle centre." in events


def test_a_question_of_forty_spaces_keeps_the_map_on_an_80x24_screen():
    """Survive's "Place it on an empty island tile" (40 spaces) at 80x24:
    the header, the map and the question fit 24 lines, the options drawn as
    the map's coordinates grouped by terrain, and a typed coordinate
    answers it."""
    from rulebook.agents.base import decide

    from rulebook.files.loading import load_game
    from rulebook.terminal.capture import _Recorder
    from rulebook.terminal.play import SPACE_PROMPT, Session, _bots

    game, _ = load_game("survive")
    st = game.new(players=2, seed=4)
    bots = _bots("greedy", 2, 4)
    session = Session(game, st, game_arg="survive", humans=(1,), seed=4, verbose=False, delay=0, log=None,
                      save_path="survive-save.json", bots=bots, stdin=io.StringIO("\n6,2\n"))
    session.console = _Recorder(file=io.StringIO(), width=80, height=24, force_terminal=True, record=True,
                                color_system=None, highlight=False, markup=False, emoji=False)
    while not (game.to_move(st)[0] == 0 and game.prompt(st, 0).startswith("Place it")):
        p = game.to_move(st)[0]
        game.apply(st, p, decide(game, st, p, bots[p]) if p else 0)
        session.fresh[0] = 0 if p == 0 else session.fresh[0]  # as after a decision of the seat's own
        session.flush()
    options = game.options(st, 0)
    assert len(options) >= 38
    session.console.export_text(clear=True)
    answer = session.human(0, options)  # what happened before that does not fit is paged first (Enter)
    lines = session.console.export_text().splitlines()  # the screen: what was written since the last clear
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("─") and "Survive" in lines[0]  # the header is on screen
    assert sum(line.startswith(f"{r:>5}  ") for line in lines for r in range(13)) == 13  # every map row
    assert any(line.startswith("  beach     6,2  4,3") for line in lines)
    assert lines[-1].startswith(SPACE_PROMPT)
    assert "beach (6,2)" in options[answer].label


def test_a_long_prompt_and_the_whole_log_wrap_at_words():
    """The console soft-wraps (the live narration is never broken by us), so
    on a screen the decision's prompt and the ``l`` log are wrapped at
    words, not cut mid-word by the terminal."""
    from rich.console import Console
    from rulebook.interpreter.narrate import Line

    from rulebook.files.loading import load_game
    from rulebook.terminal.screen import decision_panel, events_panel

    game, _ = load_game("dead-mans-draw")
    st = game.new(players=2, seed=1)
    console = Console(file=io.StringIO(), width=40, record=True, soft_wrap=True, color_system=None)
    prompt = "Sword: choose an opponent's stack of a suit you lack; its top card enters your play area"
    console.print(decision_panel(st, 0, prompt, game.options(st, 0), screen_width=40, rule=False))
    line = Line("say", None, "Tie: the blue robot and the red robot played the same value and do not swim.")
    console.print(events_panel(st, [line], 1, limit=200, width=40))
    text = console.export_text()
    assert all(len(row) <= 40 for row in text.splitlines())
    words = text.split()
    assert all(w in words for w in (prompt + " " + line.text).split())  # no word cut in two
    assert "\n    " in text.split("Recent events")[1]  # the log line goes on under its start


def test_plain_text_without_a_terminal_and_with_no_color():
    for env in ({}, {"NO_COLOR": "1"}):
        code, out = play(*TTT, "--human", "1", input="?\n1\n1\n1\n", env=env)
        assert code == 0 and "\x1b" not in out
    code, out = play("play", "get-bit", "--players", "4", "--seed", "1")
    assert code == 0 and "\x1b" not in out and "Round 1." in out


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    from rich.text import Text

    from rulebook.terminal.screen import make_console

    def printed() -> str:
        buf = io.StringIO()
        make_console(file=buf, force_terminal=True).print(Text("X wins", style="bold red"))
        return buf.getvalue()

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert "\x1b[" in printed()
    monkeypatch.setenv("NO_COLOR", "1")
    assert printed() == "X wins\n"


def test_the_narrated_bot_game_stays_one_line_per_event():
    code, out = play("play", "get-bit", "--players", "4", "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Get Bit!: 4 players, seed 1. Humans: none."
    assert "Round 1. The line, front to tail: [red robot, green robot, blue robot, yellow robot]." in lines
    assert "Your decision" not in out and "Recent events" not in out  # no screens without humans


def test_render_view_for_replay_is_plain():
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    from rulebook.terminal.screen import render_view

    game = Game(compile_path(Path(__file__).parents[2] / "examples" / "tic-tac-toe" / "ruleset.yaml").program)
    text = render_view(game.new(players=2, seed=1), 1)
    assert "Tic-tac-toe · phase play · turn 1" in text and "O (you)" in text
    assert all(line == line.rstrip() for line in text.splitlines())


# ------------------------------------------------------------------ time limits
def _has_time_limits() -> bool:
    from rulebook.interpreter.game import Game

    return hasattr(Game, "time_limit") and hasattr(Game, "time_out")


@pytest.mark.skipif(not _has_time_limits(), reason="the engine has no decision time limits yet (Game.time_limit)")
def test_a_slow_human_times_out_and_the_penalty_is_narrated(tmp_path):
    """A real pipe on standard input (a test runner's fake stdin cannot be
    timed): nothing is typed, the time runs out, the ruleset's time-out
    applies and is logged; closing the pipe then ends the game cleanly."""
    log = tmp_path / "slow.jsonl"
    args = [sys.executable, "-m", "rulebook.cli", "play", "young-svintus", "-v", "dont-dawdle",
            "--param", "dawdle_seconds=1", "--human", "1", "-p", "2", "--seed", "1", "--log", str(log)]
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = b""
    deadline = time.monotonic() + 60
    try:
        while b"ran out of time" not in out and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
        rest, err = proc.communicate(timeout=60)  # closes standard input: the end of input
    finally:
        if proc.poll() is None:
            proc.kill()
    text = (out + rest).decode()
    assert proc.returncode == 0, err.decode()
    assert "[1 s left]" in text and "Time is up!" in text and "P1 ran out of time." in text
    assert "P1 dawdles" in text  # the ruleset's own on_time_out narration
    assert "End of input" in text
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(r.get("time_out") for r in records)


# ------------------------------------------------------------------ the bots
def test_bots_by_seat_play_the_game_and_greedy_bots_are_the_default(tmp_path):
    code, plain = play(*TTT)
    code2, greedy_bots = play(*TTT, "--bots", "greedy")
    assert code == code2 == 0 and plain == greedy_bots
    log = tmp_path / "g.jsonl"
    code, out = play("play", "young-svintus", "-p", "3", "--seed", "4", "--bots", "greedy,random", "--log", str(log))
    assert code == 0 and "Game over" in out and "cut off" not in out
    code, out = play("replay", str(log))
    assert code == 0 and "replay reproduces the log" in out


def test_a_save_keeps_the_bots_and_resume_uses_them(tmp_path, monkeypatch):
    import rulebook.terminal.play as play_module

    save = tmp_path / "game.json"
    code, _ = play(*TTT, "--human", "1", "--bots", "greedy", "--save", str(save), input="1\ns\n")
    assert code == 0 and json.loads(save.read_text())["bots"] == "greedy"
    asked = []
    real = play_module._bots
    monkeypatch.setattr(play_module, "_bots", lambda text, n, seed: asked.append(text) or real(text, n, seed))
    code, out = play("play", "tic-tac-toe", "--resume", str(save), input="1\n" * 5)
    assert code == 0 and "Game over" in out and asked == ["greedy"]


def test_an_unknown_bot_is_a_usage_error():
    code, out = play(*TTT, "--bots", "nobody")
    assert code == 2 and "--bots: agent 'nobody'" in out



# ------------------------------------------------------------------ forced answers
FORCED = """\
rulebook: 1
id: forced
title: Forced
players: {min: 2, max: 2}
vars:
  rounds: 0
actions:
  wait:
    effect: |
      set rounds += 1
      choose x from [] by next_player(player) optional prompt "react?"
      if rounds >= 4:
          end game
phases:
  play:
    turn:
      actions: [wait]
"""


def test_a_lone_human_is_not_asked_a_forced_question(tmp_path):
    """Every decision of this game has one option: a lone human seat answers
    none of them by hand, and the game ends without reading any input."""
    path = tmp_path / "forced.yaml"
    path.write_text(FORCED)
    code, out = play("play", str(path), "--human", "1", "--seed", "1", input="")
    assert code == 0 and "End of input" not in out and "choice (number" not in out
    # narrated as what they are: no choice was made (issue 41 item 11)
    assert out.count("P1: wait (the only option).") == 2 and out.count("P1 chose to pass (the only option).") == 2


def test_hot_seat_still_asks_a_forced_question():
    """In hot seat the hand-over itself would show that an answer was forced."""
    code, out = play("play", "tic-tac-toe", "--human", "1", "--human", "2", "--seed", "3", input="")
    assert code == 0 and "Pass the terminal to X" in out


def test_variables_marked_show_false_are_left_off_the_table():
    from helpers import codes, compile_ok
    from rulebook.interpreter.view import view

    from rulebook.terminal.screen import render_view

    body = """
    vars:
      round: 1
      last_actor: {type: player, show: false}
    player_vars:
      coins: 3
      seen: {initial: 0, show: false}
    phases:
      main:
        on_begin: end game
    """
    game = compile_ok(body)
    st = game.new(players=2, seed=1)
    screen = render_view(st, 0)
    assert "round 1" in screen and "coins 3" in screen
    assert "last_actor" not in screen and "seen" not in screen
    assert "last_actor" in view(st, 0)["vars"]  # still public: only the drawing leaves it off
    assert codes("""
    components:
      pawn:
        state: {hp: {initial: 1, show: false}}
    phases:
      main:
        on_begin: end game
    """) == ["E012"]
