"""A pattern that guards a name matches the whole name (issue 37, item 2).

jsonschema applies a schema's ``pattern`` with ``re.search``, where ``$``
also matches before a final newline: a key ``"misere\\n"`` passed as a name
and broke the generated code ("internal error", exit 3). Such a name is a
located error, E014.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rulebook.validator import schema_check

from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]
NIM = (ROOT / "examples" / "nim" / "ruleset.yaml").read_text(encoding="utf-8")

# (a line of examples/nim, the same line with its name ending in a newline)
RENAMED = [
    ("id: nim", 'id: "nim\\n"'),
    ("  sticks: {default: 15", '  "sticks\\n": {default: 15'),
    ("  last_taker: {type: player", '  "last_taker\\n": {type: player'),
    ("  stick:", '  "stick\\n":'),
    ("    count: sticks", '    count: sticks\n    props: {"v\\n": 1}'),
    ("  taken: {per: player", '  "taken\\n": {per: player'),
    ("  take:", '  "take\\n":'),
    ('      n: "range(', '      "n\\n": "range('),
    ("  play:", '  "play\\n":'),
    ("  misere:", '  "misere\\n":'),
    ("  misere:", '  "misere\\r":'),
    ("  misere:", '  "mi\\u2028sere":'),
]


@pytest.mark.parametrize(("line", "renamed"), RENAMED)
def test_a_name_ending_in_a_line_break_is_a_located_error(line, renamed, tmp_path, capsys):
    assert line in NIM
    path = tmp_path / "ruleset.yaml"
    path.write_text(NIM.replace(line, renamed, 1), encoding="utf-8")
    where = NIM.splitlines().index(next(x for x in NIM.splitlines() if x.startswith(line))) + 1
    where += renamed.split("\n")[0] != renamed  # the props line comes after the line it follows
    code, out, err = run_main(capsys, "validate", path)
    assert code == 1, out + err
    assert f"ruleset.yaml:{where}:" in out and ("error[E014]" in out or "error[E007]" in out), out
    assert "Traceback" not in out + err


def test_every_pattern_of_the_schema_is_anchored_at_both_ends():
    """The validator matches each pattern whole (``schema_check.whole``): that
    reads a pattern ``^...$`` as the schema's own dialect (ECMA-262) does."""
    patterns = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                patterns.append(node["pattern"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema_check.schema())
    assert patterns
    for p in patterns:
        assert p.startswith("^") and p.endswith("$") and not p.endswith("\\$"), p
        assert schema_check.whole(p).fullmatch("x\n") is None
