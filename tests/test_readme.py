"""The README's examples reproduce: its diagnostic example is the real
output of the command it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from rulebook.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_diagnostic_example_is_what_validate_prints(monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ rulebook (validate [^\n]+)\n(.*?)```", readme, re.S)
    assert block, "the README shows no 'rulebook validate' example"
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, shlex.split(block.group(1)))
    assert result.exit_code == 1
    assert result.output == block.group(2)
