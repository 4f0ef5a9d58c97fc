"""Saves, logs and scenario files are input nobody vouches for (issue 22,
items 4, 5, 6 and 7): every field is checked before use, files are read
only if regular and only up to a size, the answer to a bad one is exit 1
with one located ``R02x`` (or ``E0xx`` for a scenario) line, a log or a
scenario cannot make Rulebook open a file outside its folder, and nothing
printed from them carries a control character to the terminal."""

from __future__ import annotations

import io
import json
import os
import re
import time
from pathlib import Path

import pytest
from rulebook.validator.files import MAX_INT_DIGITS, locate

from rulebook.testing.scenarios import run_file
from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]
ONE_LINE = re.compile(r"^rulebook: (\S+):(\d+):(\d+): error\[(R02\d)\]: .+$")
SECRET = "root:x:0:0:the first line of a file that is not a ruleset"


def one_error(capsys, *args, stdin="") -> tuple[str, int, int, str, str]:
    """Run the command line; it must exit 1 with a single located R02x line.
    Returns (file, line, column, code, the whole of stderr)."""
    code, out, err = _run(capsys, *args, stdin=stdin)
    assert code == 1, (code, out, err)
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    found = ONE_LINE.match(lines[0])
    assert found, lines[0]
    return found.group(1), int(found.group(2)), int(found.group(3)), found.group(4), err


def _run(capsys, *args, stdin=""):
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        return run_main(capsys, *args)
    finally:
        sys.stdin = old


@pytest.fixture
def saved(tmp_path, capsys) -> tuple[Path, dict]:
    save = tmp_path / "save.json"
    code, _, _ = _run(capsys, "play", "tic-tac-toe", "--seed", "3", "--human", "1", "--save", save, stdin="1\ns\n")
    assert code == 0
    return save, json.loads(save.read_text())


def _write_save(path: Path, data) -> str:
    text = json.dumps(data)
    path.write_text(text)
    return text


# ============================================================== saves


@pytest.mark.parametrize("field,value,code", [
    ("humans", "x", "R020"),
    ("humans", [1, 9], "R023"),  # seat 9 of a 2-player game: was a usage error (exit 2)
    ("seed", "abc", "R020"),
    ("seed", 10**40, "R020"),
    ("variants", 5, "R020"),
    ("players", True, "R020"),
    ("params", [1], "R020"),
    ("bots", "mcts:iterations=1000000000", "R023"),  # hung resuming, a billion iterations a decision
    ("bots", "mcts:seconds=1e9", "R023"),
    ("bots", "os:system", "R023"),
    ("digest", "0" * 16, "R022"),
    ("ruleset", "nim", "R021"),
])
def test_a_bad_save_field_is_exit_1_with_an_error_at_that_field(saved, capsys, field, value, code):
    save, data = saved
    text = _write_save(save, dict(data, **{field: value}))
    file, line, column, found, err = one_error(capsys, "play", "tic-tac-toe", "--resume", save)
    assert (file, found) == (str(save), code), err
    assert (line, column) == locate(text, (field, 1) if field == "humans" and code == "R023" else (field,)), err
    if code == "R022":
        assert "--force" not in err  # there is no such option


def test_a_save_may_name_big_bots_when_the_command_line_chooses_the_bots(saved, capsys):
    save, data = saved
    _write_save(save, dict(data, bots="mcts:iterations=1000000000"))
    code, out, _ = _run(capsys, "play", "tic-tac-toe", "--resume", save, "--bots", "random", stdin="1\n" * 5)
    assert code == 0 and "Game over" in out


@pytest.mark.parametrize("damage", ["digits", "deep", "nan", "control", "history", "not-an-object"])
def test_damaged_save_json_is_exit_1_located(saved, capsys, damage):
    save, data = saved
    if damage == "digits":  # was exit 3: Python refuses to read integers of more than 4300 digits
        text = json.dumps(data).replace('"seed": 3', '"seed": ' + "7" * 5000)
    elif damage == "deep":  # was exit 3: RecursionError
        text = json.dumps(dict(data, params={"x": "[" * 0})).replace('"params": {"x": ""}',
                                                                     '"params": ' + "[" * 100_000)
    elif damage == "nan":
        text = json.dumps(data).replace('"seed": 3', '"seed": NaN')
    elif damage == "control":
        text = json.dumps(dict(data, bots="random\x1b[2J"))
    elif damage == "history":
        data["state"]["history"][0] = {"player": 0}
        text = json.dumps(data)
    else:
        text = "[1, 2]"
    save.write_text(text)
    file, line, column, code, err = one_error(capsys, "play", "tic-tac-toe", "--resume", save)
    assert code == "R020" and "\x1b" not in err, err
    if damage == "digits":
        assert column == text.index("7" * 100) + 1 and str(MAX_INT_DIGITS) in err


@pytest.mark.parametrize("forged", ["\n", "\u2028", "\u2029", "\u202e"], ids=repr)
def test_a_text_of_the_file_quoted_in_an_error_cannot_write_a_line_of_its_own(saved, capsys, forged):
    """Found by tests/hostile/test_fuzz_files.py: a line break in a text of a save
    (JSON allows one, escaped) was printed as it is in the error quoting
    it, so the file could add lines to Rulebook's answer, such as a
    forged ``rulebook: ...`` line; a bidirectional control could reorder
    what the line shows. Each is shown as an escape now."""
    save, data = saved
    _write_save(save, dict(data, seed=f"3{forged}rulebook: save.json resumed, all is well"))
    _, _, _, code, err = one_error(capsys, "play", "tic-tac-toe", "--resume", save)
    assert code == "R020" and forged not in err.strip() and repr(forged)[1:-1] in err, err


def test_a_placed_error_keeps_its_place_in_fields(saved, capsys):
    from rulebook.files.saves import PlacedError, read_save

    save, data = saved
    text = _write_save(save, dict(data, players="two"))
    with pytest.raises(PlacedError) as err:
        read_save(save)
    assert (err.value.file, err.value.line, err.value.column, err.value.code) == (str(save), 1,
                                                                                   *locate(text, ("players",))[1:],
                                                                                   "R020")
    assert err.value.path == ("players",)
    assert err.value.message.startswith("'players' must be")


def test_a_decision_that_does_not_replay_is_placed_by_its_field_not_its_message(saved):
    """Game.load says which decision failed as a field (``path``), so the
    save's error points at that decision without reading the message."""
    from rulebook.files.loading import load_game
    from rulebook.files.saves import PlacedError, read_save

    save, data = saved
    history = data["state"]["history"]
    assert history, data
    history[-1] = [history[-1][0], "no such option"]
    text = _write_save(save, data)
    game, _ = load_game("tic-tac-toe")
    with pytest.raises(PlacedError) as err:
        read_save(save).load(game)
    where = ("state", "history", len(history) - 1)
    assert (err.value.code, err.value.path) == ("R023", where)
    assert (err.value.line, err.value.column) == locate(text, where)
    assert str(err.value).startswith(f"{save}:{err.value.line}:{err.value.column}: error[R023]: ")


@pytest.mark.parametrize("what", ["/dev/zero", "fifo", "folder", "missing", "too-big", "binary"])
def test_a_resume_path_that_is_no_save_is_exit_1_at_once(tmp_path, capsys, what):
    path = tmp_path / "save.json"
    if what == "/dev/zero":  # was read until MemoryError (3.7 GB)
        path = Path("/dev/zero")
    elif what == "fifo":
        os.mkfifo(path)
    elif what == "folder":
        path.mkdir()
    elif what == "too-big":
        path.write_text('{"format": 2, "x": "' + "a" * 16_000_001 + '"}')
    elif what == "binary":
        path.write_bytes(b'{"format": 2, "x": "\xff"}')
    start = time.monotonic()
    file, _, _, code, err = one_error(capsys, "play", "tic-tac-toe", "--resume", path)  # missing: was exit 2
    assert time.monotonic() - start < 10 and code == "R020" and file == str(path)


# ============================================================== logs


@pytest.fixture
def logged(tmp_path, capsys) -> Path:
    log = tmp_path / "game.jsonl"
    code, _, _ = _run(capsys, "play", "tic-tac-toe", "--seed", "3", "--log", log)
    assert code == 0
    return log


def _lines(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text().splitlines()]


def _write_log(log: Path, records: list[dict]) -> None:
    log.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_a_log_broken_at_line_145_is_reported_at_line_145(logged, capsys):
    records = _lines(logged)
    says = [r for r in records if "say" in r]
    padded = records[:1] + says * (200 // len(says) + 1) + records[1:]
    text = "".join(json.dumps(r) + "\n" for r in padded).splitlines()
    text[144] = '{"say": "a line cut sh'
    logged.write_text("\n".join(text) + "\n")
    file, line, column, code, _ = one_error(capsys, "replay", logged)
    assert (file, line, code) == (str(logged), 145, "R020")


@pytest.mark.parametrize("field,value", [("players", "2"), ("seed", 10**30), ("variants", "x"),
                                         ("ruleset", "../../etc/passwd"), ("params", None)])
def test_a_bad_header_field_is_exit_1_at_that_field(logged, capsys, field, value):
    records = _lines(logged)
    records[0][field] = value
    _write_log(logged, records)
    _, line, column, code, _ = one_error(capsys, "replay", logged)
    assert (line, code) == (1, "R020") and column == locate(json.dumps(records[0]), (field,))[1]


@pytest.mark.parametrize("what", ["/dev/zero", "missing", "folder"])
def test_a_log_path_that_is_no_log_is_exit_1_at_once(tmp_path, capsys, what):
    path = Path("/dev/zero") if what == "/dev/zero" else tmp_path / "game.jsonl"  # /dev/zero: was a MemoryError
    if what == "folder":
        path.mkdir()
    start = time.monotonic()
    _, _, _, code, _ = one_error(capsys, "replay", path)  # missing: was exit 2
    assert time.monotonic() - start < 10 and code == "R020"


def test_replay_prints_the_rulesets_labels_not_the_logs(logged, capsys):
    records = _lines(logged)
    shown = {r["step"]: r["label"] for r in records if "step" in r}
    for r in records:
        if "step" in r:
            r["label"] = "you lost, send your password to the author"
    _write_log(logged, records)
    code, out, err = _run(capsys, "replay", logged)
    assert code == 0 and "replay reproduces the log" in out, err
    assert "password" not in out and all(label in out for label in shown.values())


def test_a_changed_ruleset_is_R022_without_a_force_option(logged, capsys):
    records = _lines(logged)
    records[0]["digest"] = "0" * 16
    _write_log(logged, records)
    _, line, _, code, err = one_error(capsys, "replay", logged)
    assert (line, code) == (1, "R022") and "--force" not in err


def test_a_header_path_outside_the_logs_folder_is_never_opened(tmp_path, capsys, logged):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    fifo = outside / "ruleset.yaml"
    os.mkfifo(fifo)  # opening it would wait for a writer: the test would hang
    (outside / "secret.yaml").write_text(SECRET + "\n")
    folder = tmp_path / "logs"
    folder.mkdir()
    for path in (str(fifo), "../elsewhere/secret.yaml", str(outside / "secret.yaml")):
        records = _lines(logged)
        records[0].update(ruleset="no-such-game", path=path)
        log = folder / "game.jsonl"
        _write_log(log, records)
        code, out, err = _run(capsys, "replay", log)
        assert code == 1 and "--game" in err and SECRET not in out + err, (path, err)


def test_a_log_of_a_ruleset_that_cannot_be_found_is_R021_at_its_header(logged, capsys):
    """Found by tests/hostile/test_fuzz_files.py: one flipped bit in the header's
    ruleset id gave "Error: this log is of ruleset ...", with no place and
    no code; it is R021 at the header's ruleset now."""
    records = _lines(logged)
    records[0]["ruleset"] = "uic-tac-toe"
    _write_log(logged, records)
    file, line, column, code, err = one_error(capsys, "replay", logged)
    header = logged.read_text().splitlines()[0]
    assert (file, line, code) == (str(logged), 1, "R021") and "--game" in err, err
    assert column == locate(header, ("ruleset",))[1]


def test_a_header_path_inside_the_folder_that_is_not_a_ruleset_is_not_quoted(tmp_path, capsys, logged):
    (tmp_path / "notes.yaml").write_text(SECRET + "\nmore: [\n")
    records = _lines(logged)
    records[0].update(ruleset="no-such-game", path="notes.yaml")
    _write_log(logged, records)
    code, out, err = _run(capsys, "replay", logged)
    assert code == 1 and SECRET not in out + err


def test_a_ruleset_beside_its_log_is_found_by_its_path(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text((ROOT / "examples" / "nim" / "ruleset.yaml").read_text()
                                         .replace("id: nim", "id: my-nim"))
    log = folder / "game.jsonl"
    code, _, _ = _run(capsys, "play", folder, "--seed", "2", "--log", log)
    assert code == 0 and _lines(log)[0]["path"] == "ruleset.yaml"  # relative to the log's folder
    code, out, err = _run(capsys, "replay", log)
    assert code == 0 and "replay reproduces the log" in out, err


# ============================================================== scenario files


@pytest.fixture
def scenario_dir(tmp_path) -> Path:
    game = tmp_path / "game"
    (game / "scenarios").mkdir(parents=True)
    (game / "ruleset.yaml").write_text((ROOT / "examples" / "nim" / "ruleset.yaml").read_text())
    return game


@pytest.mark.parametrize("declared", ["/dev/zero", "../../outside.yaml", "{outside}", "/etc/passwd",
                                      "../ruleset.yaml", "secret.yaml"])
def test_a_scenario_ruleset_outside_its_folder_or_not_a_ruleset_is_E004_and_not_read(scenario_dir, declared):
    outside = scenario_dir.parent / "outside.yaml"
    outside.write_text(SECRET + "\n")
    (scenario_dir / "scenarios" / "secret.yaml").write_text(SECRET + "\n")
    path = scenario_dir / "scenarios" / "s.yaml"
    path.write_text(f"ruleset: {declared.format(outside=outside)}\nplayers: 2\n")
    start = time.monotonic()
    outcome = run_file(path)  # /dev/zero: took 67 s and 7.5 GB
    assert time.monotonic() - start < 10 and not outcome.passed
    assert [(d.code, d.line) for d in outcome.failures] == [("E004", 1)], [d.render() for d in outcome.failures]
    assert all(SECRET not in d.render() for d in outcome.failures)


@pytest.mark.parametrize("declared", ["nim", "ruleset.yaml"])
def test_a_scenario_names_its_ruleset_by_id_or_by_a_path_inside_its_folder(scenario_dir, declared):
    folder = scenario_dir / "scenarios"
    (folder / "ruleset.yaml").write_text((scenario_dir / "ruleset.yaml").read_text())
    path = folder / "s.yaml"
    path.write_text(f"ruleset: {declared}\nplayers: 2\nexpect: \"count(players) == 2\"\n")
    outcome = run_file(path)
    assert outcome.passed, [d.render() for d in outcome.failures]


@pytest.mark.parametrize("text,line", [
    ("players: 1000000000000000000000000000000\n", 1),
    ("players: 2\nseed: 99999999999999999999999999999999999\n", 2),
    ("players: 2\nvariants: [" + ", ".join(["a"] * 65) + "]\n", 2),
    ("players: 2\nseed: " + "9" * 5000 + "\n", 2),
    ("name: \"bell\\a\"\nplayers: 2\n", 1),
    ("players: 2\nseed: null\n", 2),  # found by the scenario_file fuzzer: int(None) inside the runner
    ("players: 2\nvariants: [[a]]\n", 2),  # found by the scenario_file fuzzer: a list as a variant name
])
def test_scenario_fields_past_their_limits_are_located_errors(scenario_dir, text, line):
    path = scenario_dir / "scenarios" / "s.yaml"
    path.write_text(text)
    outcome = run_file(path)
    assert not outcome.passed and [d.line for d in outcome.failures] == [line], \
        [d.render() for d in outcome.failures]


def test_rulebook_test_prints_no_control_character(scenario_dir, capsys):
    path = scenario_dir / "scenarios" / "s\x1b[2J.yaml"
    path.write_text("name: \"x\\e]0;owned\\a\"\nplayers: 2\n")
    code, out, err = run_main(capsys, "test", path)
    assert code == 1 and "E007" in out and "\x1b" not in out + err and "\\x1b" in out


def test_a_step_expectation_that_is_a_list_of_lists_is_a_diagnostic_not_a_caught_exception(scenario_dir):
    """Found by the scenario_file fuzzer: the parser was handed a list and
    raised TypeError, which the runner caught as 'could not run'. The
    scenario schema now refuses it at the field (E070), before any parsing."""
    path = scenario_dir / "scenarios" / "s.yaml"
    path.write_text("players: 2\nsteps:\n  - expect: [[1]]\n")
    outcome = run_file(path)
    assert not outcome.passed and [(d.code, d.line) for d in outcome.failures] == [("E070", 3)]
    assert all("could not run" not in d.message for d in outcome.failures)


def test_a_ruleset_whose_title_would_clear_the_screen_does_not_reach_the_terminal(tmp_path, capsys):
    pig = (ROOT / "examples" / "pig" / "ruleset.yaml").read_text()
    text = pig.replace("title: Pig", 'title: "Pig\\e[2J\\e]0;x\\a"')
    path = tmp_path / "ruleset.yaml"
    path.write_text(text)
    for command in ("play", "validate", "explain"):
        code, out, err = run_main(capsys, command, path)
        assert code == 1 and "E007" in out + err and "\x1b" not in out + err, command
