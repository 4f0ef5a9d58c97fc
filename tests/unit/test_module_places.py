"""A compiled module names rule places by number (``PLACE[k]``), the places
being data of its line map: no path is written in its code, so the module
made from a ruleset does not depend on the folder the ruleset is in."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_path, compile_text
from rulebook.compiler.load import places
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.game import Game

ROOT = Path(__file__).resolve().parents[2]


def test_the_same_module_from_two_folders(tmp_path):
    made = []
    for folder in ("one", "two/deeper"):
        target = tmp_path / folder / "dead-mans-draw"
        shutil.copytree(ROOT / "rulesets" / "dead-mans-draw", target)
        program = compile_path(target / "ruleset.yaml").program
        assert str(tmp_path) not in program.source
        assert "PLACE[" in program.source
        assert all(p.startswith(str(target / "ruleset.yaml") + ":") for p in places(program.line_map))
        assert program.source_file == str(target / "ruleset.yaml")  # from the line map, not the text
        made.append(program.source)
    assert made[0] == made[1]  # the folder is in the line map only


def test_code_holds_no_place_text_and_an_error_still_names_its_place():
    text = ("rulebook: 1\nid: unit\ntitle: Unit\nplayers: {min: 2, max: 2}\n"
            "phases:\n  p:\n    on_begin: |\n      let xs = [1, 2]\n      let y = xs[5]\n      end game\n")
    result = compile_text(text, "unit.yaml")
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    program = result.program
    assert not re.search(r"unit\\.yaml:\\d+:\\d+", program.source)
    with pytest.raises(RuleError) as err:
        Game(program).new(players=2)
    line = text.splitlines().index("      let y = xs[5]") + 1
    assert (err.value.file, err.value.line) == ("unit.yaml", line)
    assert str(err.value).startswith(f"unit.yaml:{line}:")
