"""Damaged saves and logs given to the command line (issue 37, item 10):
``rulebook play --resume FILE`` and ``rulebook replay FILE`` answer every
one with exit 0 (a file that is still a save or a log: a log cut at the end
of a line is a shorter game) or exit 1 and one line ``FILE:LINE:COL:
error[R02x]: ...``; never exit 3 (an internal error), a traceback or an
error without its place.

The files are real: written by ``play --save`` and ``play --log`` for a
few seeded games. Then:

* every truncation: the file cut at each byte offset (exhaustive: the
  files are small);
* ``bytes``: bytes flipped, set to a special byte (NUL, 0xff, a newline,
  a quote, a backslash, a bracket) or deleted;
* ``lines``: a log's lines swapped, duplicated, deleted or moved, and a
  save's JSON re-broken across lines;
* ``values``: a value anywhere in the JSON replaced by one of another type,
  a huge or odd number (``1e999``, 10**100, 2**64, ``-0``), a text with
  U+2028, a lone surrogate or an escape character, or JSON nested 64, 65 or
  100 000 levels deep; a key deleted or added.

The Hypothesis tests run ``FUZZ_EXAMPLES`` examples each (60 by default,
a few seconds); ``RULEBOOK_FUZZ_EXAMPLES=200000`` runs them longer by hand
(docs/security.md, "Fuzzing", records such runs).
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from rulebook.cli.main import main

FUZZ_EXAMPLES = int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=FUZZ_EXAMPLES <= 60, database=None,
                print_blob=False, suppress_health_check=list(HealthCheck))
LOCATED = re.compile(r"^rulebook: (?P<file>\S+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>R02\d)\]: [^\x00-\x1f]+$")
GAMES = {"tic-tac-toe": ("1\ns\n", 5), "pig": ("1\n1\ns\n", 8)}  # ruleset: (a human's answers up to 's', seed)


@dataclass
class Answer:
    code: int
    out: str
    err: str


def cli(*args, stdin: str = "") -> Answer:
    """The command line run as a user runs it (``rulebook.cli.main``), in this process."""
    out, err, old = io.StringIO(), io.StringIO(), (sys.stdin, sys.stdout, sys.stderr)
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as done:
        code = done.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return Answer(code, out.getvalue(), err.getvalue())


def judged(answer: Answer, path: Path, size: int) -> str:
    """'ok' or the error's code; fails unless the answer is exit 0 or exit
    1 with one line placed in ``path`` (a line and column inside the file)."""
    assert "Traceback" not in answer.err + answer.out, answer.err
    if answer.code == 0:
        return "ok"
    lines = [x for x in answer.err.splitlines() if x.strip()]
    assert answer.code == 1 and len(lines) == 1, (answer.code, answer.err[-2000:])
    found = LOCATED.match(lines[0])
    assert found and found["file"] == str(path), lines[0]
    assert 1 <= int(found["line"]) <= max(1, size) and int(found["col"]) >= 1, lines[0]
    return found["code"]


def resume(save: Path, tmp: Path) -> Answer:
    return cli("play", "tic-tac-toe" if "tic-tac-toe" in save.name else "pig", "--resume", save,
               "--save", tmp / "again.json")  # no input: a human seat ends the game at its first decision


def replay(log: Path) -> Answer:
    return cli("replay", log)


@pytest.fixture(scope="module")
def real_files(tmp_path_factory) -> dict[str, bytes]:
    """Saves taken mid-game and logs of whole games, as ``play`` writes them."""
    folder = tmp_path_factory.mktemp("real")
    files = {}
    for game, (answers, seed) in GAMES.items():
        save, log = folder / f"{game}-save.json", folder / f"{game}.jsonl"
        assert cli("play", game, "--seed", seed, "--human", "1", "--save", save, stdin=answers).code == 0
        assert cli("play", game, "--seed", seed, "--log", log).code == 0
        files[save.name], files[log.name] = save.read_bytes(), log.read_bytes()
        assert replay(log).code == 0 and resume(save, folder).code == 0
    return files


def try_file(kind: str, name: str, data: bytes, folder: Path) -> str:
    """Write ``data`` as the save or log ``name`` and give it to the command line."""
    path = folder / name
    path.write_bytes(data)
    answer = resume(path, folder) if kind == "save" else replay(path)
    return judged(answer, path, data.count(b"\n") + 1)


def cuts(data: bytes) -> list[int]:
    """Every offset of a small file; of a larger one (a whole game's log:
    each cut that ends a line is replayed), every offset in its first and
    last ``EDGE`` bytes and every ``STRIDE``-th one between (every one in
    a long run)."""
    if len(data) <= 2 * EDGE or FUZZ_EXAMPLES > 60:
        return list(range(len(data)))
    return [*range(EDGE), *range(EDGE, len(data) - EDGE, STRIDE), *range(len(data) - EDGE, len(data))]


EDGE, STRIDE = 600, 97


@pytest.mark.parametrize("name", [f"{g}-save.json" for g in GAMES] + [f"{g}.jsonl" for g in GAMES])
def test_a_save_or_log_cut_at_any_byte_is_a_located_error_or_still_a_file(real_files, tmp_path, name):
    data = real_files[name]
    kind = "save" if name.endswith(".json") else "log"
    seen = {try_file(kind, name, data[:cut], tmp_path) for cut in cuts(data)}
    assert "R020" in seen
    if kind == "save":  # a cut save is never a save (the last byte is its closing brace)
        assert seen == {"R020"}


# ------------------------------------------------------------------- random damage

SPECIAL_BYTES = b"\x00\xff\n\r\"\\[]{}:,0-e\x80\xc3"
ODD_VALUES = [
    '"x"', "[]", "{}", "null", "true", "false", "-1", "0", "-0", "1.5", "1e999", "-1e999", "1e308", "1e-400",
    "9" * 100, "9" * 101, str(2 ** 64), str(-(2 ** 63) - 1), "NaN", "Infinity",
    '"3\\nrulebook: forged"', '"\\u2028"', '"\\u202e"', '"\\ud800"', '"\\u001b[2J"', '"*/ ??/"',
    '"' + "x" * 100_000 + '"', "[" * 64 + "]" * 64, "[" * 65 + "]" * 65, "[" * 100_000 + "]" * 100_000,
    '{"a":' * 70 + "1" + "}" * 70, "[" * 100_000,
]


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


MARK = "\ue000fuzzed\ue000"


def with_value(data, pick: int, raw: str, how: int) -> str:
    """``data`` as JSON text with the value at one of its paths (the
    ``pick``-th, modulo) replaced by the JSON text ``raw``, or its key
    deleted, or a key added beside it."""
    paths = list(_paths(data))
    path = paths[pick % len(paths)]
    if not path:
        return raw
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if how == 1 and isinstance(parent, dict):
        del parent[path[-1]]
        return json.dumps(data)
    if how == 2 and isinstance(parent, dict):
        parent[MARK + "key"] = MARK
    else:
        parent[path[-1]] = MARK
    return json.dumps(data).replace(json.dumps(MARK), raw).replace(json.dumps(MARK + "key"), '"unknown"')


byte_damage = hst.lists(hst.tuples(hst.integers(0, 2 ** 20), hst.integers(0, 3), hst.sampled_from(SPECIAL_BYTES),
                                   hst.integers(0, 7)), min_size=1, max_size=4)


def damaged_bytes(data: bytes, damage) -> bytes:
    out = bytearray(data)
    for at, how, byte, bit in damage:
        if not out:
            break
        at %= len(out)
        if how == 0:
            out[at] ^= 1 << bit
        elif how == 1:
            out[at] = byte
        elif how == 2:
            del out[at]
        else:
            out.insert(at, byte)
    return bytes(out)


def _names(kind: str) -> list[str]:
    return [f"{g}-save.json" if kind == "save" else f"{g}.jsonl" for g in GAMES]


@FUZZ
@given(which=hst.integers(0, len(GAMES) - 1), damage=byte_damage, kind=hst.sampled_from(["save", "log"]))
def test_flipped_bytes_in_a_save_or_log_are_a_located_error(real_files, tmp_path_factory, which, damage, kind):
    name = _names(kind)[which]
    try_file(kind, name, damaged_bytes(real_files[name], damage), tmp_path_factory.mktemp("f"))


line_damage = hst.lists(hst.tuples(hst.sampled_from(["swap", "duplicate", "delete", "move", "join", "split"]),
                                   hst.integers(0, 10 ** 6), hst.integers(0, 10 ** 6)), min_size=1, max_size=3)


def damaged_lines(text: str, damage) -> str:
    lines = text.split("\n")
    for what, a, b in damage:
        i, j = a % len(lines), b % len(lines)
        if what == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif what == "duplicate":
            lines.insert(j, lines[i])
        elif what == "delete" and len(lines) > 1:
            del lines[i]
        elif what == "move":
            lines.insert(j, lines.pop(i))
        elif what == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [lines[i] + lines[i + 1]]
        elif what == "split":
            at = b % (len(lines[i]) + 1)
            lines[i:i + 1] = [lines[i][:at], lines[i][at:]]
    return "\n".join(lines)


@FUZZ
@given(which=hst.integers(0, len(GAMES) - 1), damage=line_damage, kind=hst.sampled_from(["save", "log"]))
def test_swapped_duplicated_or_broken_lines_are_a_located_error(real_files, tmp_path_factory, which, damage, kind):
    name = _names(kind)[which]
    text = real_files[name].decode()
    if kind == "save":  # one line as written: spread over lines first, so that lines can be moved
        text = json.dumps(json.loads(text), indent=1)
    try_file(kind, name, damaged_lines(text, damage).encode(), tmp_path_factory.mktemp("l"))


values = hst.tuples(hst.integers(0, 10 ** 6), hst.sampled_from(ODD_VALUES), hst.integers(0, 3))


@FUZZ
@given(which=hst.integers(0, len(GAMES) - 1), edits=hst.lists(values, min_size=1, max_size=2),
       line=hst.integers(0, 10 ** 6), kind=hst.sampled_from(["save", "log"]))
def test_json_of_the_wrong_type_huge_or_deep_is_a_located_error(real_files, tmp_path_factory, which, edits, line,
                                                                kind):
    name = _names(kind)[which]
    lines = real_files[name].decode().splitlines()
    at = 0 if kind == "save" else line % len(lines)
    for pick, raw, how in edits:
        try:
            data = json.loads(lines[at])
        except (ValueError, RecursionError):  # an earlier edit made it JSON Python cannot read back: edit it as it is
            break
        lines[at] = with_value(data, pick, raw, how)
    try_file(kind, name, ("\n".join(lines) + "\n").encode(), tmp_path_factory.mktemp("v"))
