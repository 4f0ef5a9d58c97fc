"""Text from outside the compiler never reaches generated code as code.

A ruleset's folder and file name, its id, titles, descriptions, texts and
variants are written into the compiled module only through ``repr()`` (or
as checked identifiers): a folder named ``game`` + newline + ``import os``
must not add a statement to the module (issue 37, item 1). Each test
compiles a ruleset twice, once with hostile texts and once with a benign
twin of the same lengths (so the compiler makes the same choices), and
compares the two modules' syntax trees with their texts blanked.
"""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from rulebook.compiler import native
from rulebook.compiler.build import compile_text
from rulebook.compiler.load import places, source_file
from rulebook.compiler.module import compile_module, compile_start
from rulebook.validator.loader import load_text
from rulebook.validator.pipeline import check_document

from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]

# Characters that end a line for Python or for some tool (editors, C, Cython's
# copies of source lines in C comments), quotes, a NUL, and a payload that
# would run if a text were pasted into the module as code.
HOSTILE = ["\n", "\r", "\r\n", "\x00", "'", '"', "'''", '"""', "\\", "\u2028", "\u2029", "\x85", "\x0c", "\x0b",
           "\x1c", "\x1d", "\x1e", "*/", "\nimport os.path; SUSPEND = 0\n#",
           "\rraise SystemExit(9)\r#", "é\u2028__import__('os')\u2029#"]
# Those of them a ruleset's own texts may hold (the loader refuses control characters, E007).
TEXTS = [t for t in HOSTILE if not any(c in t for c in "\r\x00\x85\x0c\x0b\x1c\x1d\x1e")]

RULESET = """\
rulebook: 1
id: hostile
title: {text}
description: {text}
players: {{min: 2, max: 3, name: {text}}}
params:
  motto: {{default: 1, type: int, description: {text}}}
vars:
  said: {{initial: 0, description: {text}}}
components:
  token:
    count: 3
    props: {{word: "'fixed'"}}
zones:
  pile: {{of: token}}
  kept: {{per: player, of: token}}
setup: |
  move components(token) to pile
actions:
  take:
    label: {text}
    description: {text}
    effect: {say}
phases:
  play:
    end_if: is_empty(pile)
    turn:
      actions: [take]
    next: over
  over:
    on_begin: |
      end game winners players
variants:
  quiet:
    title: {text}
    description: {text}
    patch:
      title: {text}
"""


def hostile_ruleset(text: str) -> str:
    """The ruleset with ``text`` in each place a free text may stand (as
    YAML escapes: the file itself is plain ASCII)."""
    quoted = json.dumps(text)
    say = json.dumps("move top(pile) to kept[player]\nsay " + json.dumps("{player} " + text).replace("\\n", "\\\\n"))
    return RULESET.format(text=quoted, say=say)


def twin(text: str) -> str:
    """A benign text of the same length, with its newlines where they were."""
    return "".join("\n" if c == "\n" else "a" for c in text)


def shape(source: str) -> str:
    """The module's syntax tree with every text blanked: what it does, not what it says."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


def assert_plain(source: str) -> None:
    """No character of the module but ``\\n`` ends a line or is unprintable
    (a comment holding one would break it for Python or another tool)."""
    odd = sorted({c for c in source if not c.isprintable() and c != "\n"})
    assert not odd, f"the module holds {odd!r}"


def modules(text: str, file: str, variants: tuple = ()) -> list[str]:
    """The whole module and the start-only one (``validate``) of the ruleset holding ``text``, from ``file``."""
    doc, diags = load_text(hostile_ruleset(text), file)
    result = check_document(doc, diags, variants, None)
    assert result.checked is not None, [str(d) for d in result.report.errors]
    whole = compile_module(result.checked)[0]
    result = check_document(doc, diags, variants, None)
    return [whole, compile_start(result.checked)[0]]


@pytest.mark.parametrize("variants", [(), ("quiet",)])
@pytest.mark.parametrize("text", HOSTILE)
def test_file_names_reach_the_module_only_as_texts(text, variants):
    bad = modules("ok", f"games/cool{text}game/ruleset.yaml", variants)
    good = modules("ok", f"games/cool{twin(text)}game/ruleset.yaml", variants)
    for b, g in zip(bad, good):
        assert_plain(b)
        assert shape(b) == shape(g)


@pytest.mark.parametrize("variants", [(), ("quiet",)])
@pytest.mark.parametrize("text", TEXTS)
def test_a_rulesets_texts_reach_the_module_only_as_texts(text, variants):
    bad = modules(text, f"cool{text}/ruleset.yaml", variants)
    good = modules(twin(text), f"cool{twin(text)}/ruleset.yaml", variants)
    for b, g in zip(bad, good):
        assert_plain(b)
        assert shape(b) == shape(g)


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_file_name_still_loads_and_keeps_its_place(text):
    file = f"dir{text}/ruleset.yaml"
    compiled = compile_text(hostile_ruleset("ok"), file)
    assert compiled.program is not None
    assert compiled.program.source_file == file
    assert_plain(compiled.program.source)


def test_rule_lines_in_comments_are_escaped():
    """A rule's line copied above its code as a comment cannot end the comment."""
    doc, diags = load_text(hostile_ruleset("ok"), "r.yaml")
    checked = check_document(doc, diags, (), None).checked
    checked.source_lines = [line + "\r\u2028import os\x0c\x00" for line in checked.source_lines]
    source = compile_module(checked)[0]
    assert "# line " in source
    assert_plain(source)
    assert "import os" not in {line.strip() for line in source.split("\n")}


@pytest.mark.parametrize("name", ["cool-game\nimport os; open('PWNED', 'w').close()\n#",
                                  "cool-game\rimport os; open('PWNED', 'w').close()\r#",
                                  "cool-game\u2028x = 1"])
def test_validate_and_play_a_ruleset_in_a_hostile_folder(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "nim" / "ruleset.yaml", folder / "ruleset.yaml")
    code, out, err = run_main(capsys, "validate", folder / "ruleset.yaml")
    assert code == 0, out + err
    monkeypatch.setenv("RULEBOOK_PATH", str(tmp_path))
    code, out, err = run_main(capsys, "simulate", "nim", "-n", "2")
    assert code == 0, out + err
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("name", ["cool-game\nimport os; open('PWNED', 'w').close()\n#",
                                  "cool-game\u2028open('PWNED', 'w').close()"])
@pytest.mark.parametrize("beside", [True, False], ids=["log-in-the-folder", "log-in-its-parent"])
def test_replay_a_log_whose_header_names_a_hostile_folder(name, beside, tmp_path, capsys, monkeypatch):
    """The third way in of issue 37 item 1: ``rulebook replay`` of a log
    whose header names a ruleset in a folder beside it. The log is written
    by a game played from that folder, then replayed with no cache, so the
    module is compiled again from the folder the header names."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE", "off")
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "nim" / "ruleset.yaml", folder / "ruleset.yaml")
    log = (folder if beside else tmp_path) / "game.jsonl"
    code, out, err = run_main(capsys, "play", folder / "ruleset.yaml", "--seed", "3", "--bots", "random",
                              "--log", log)
    assert code == 0, out + err
    header = json.loads(log.read_text().splitlines()[0])
    assert (log.parent / header["path"]).resolve() == (folder / "ruleset.yaml").resolve(), header
    code, out, err = run_main(capsys, "replay", log)
    assert code == 0, out + err
    assert "replay reproduces the log" in out
    assert not (tmp_path / "PWNED").exists() and not (folder / "PWNED").exists()


@pytest.mark.skipif(native.missing() is not None, reason=str(native.missing()))
def test_native_code_keeps_hostile_texts_as_texts(tmp_path):
    """``--native``: the library's file names come from a digest, and the C
    holds no copies of source lines in comments (``emit_code_comments=False``):
    a text that would close a C comment (``*/``) or end a line is only ever
    inside a C string, and the module reads it back unchanged."""
    text = "*/ /* \u2028 x\n y ''' \"\"\" \\ ??/ é"
    file = "dir\nimport os\n*/\u2028/ruleset.yaml"
    program = compile_text(hostile_ruleset(text), file).program
    source = native.typed_source(program.source) + native.runtime_tail()
    library = native._build("rb_native_hostile", source, tmp_path)
    c = (tmp_path / "rb_native_hostile.c").read_text(encoding="utf-8")
    assert not {ch for ch in c if not ch.isprintable() and ch not in "\n\t"}
    assert "fn_" not in "".join(line for line in c.split("\n") if line.startswith(" * "))  # no source copies
    assert not any("*/ /* " in line and '"' not in line for line in c.split("\n"))  # not outside a C string
    ns = native._import("rb_native_hostile", library, places(program.line_map))
    ns["__line_map__"] = dict(program.line_map)
    assert ns["META"]["title"] == text and source_file(ns) == file
