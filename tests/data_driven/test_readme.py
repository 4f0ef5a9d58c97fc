"""The README's examples reproduce: its diagnostic example is the real
output of the command it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from rulebook.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def test_the_diagnostic_example_is_what_validate_prints(monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ rulebook (validate [^\n]+)\n(.*?)```", readme, re.S)
    assert block, "the README shows no 'rulebook validate' example"
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, shlex.split(block.group(1)))
    assert result.exit_code == 1
    assert result.output == block.group(2)


def test_the_pictures_of_the_play_docs_exist():
    """docs/play.md shows the terminal (tools/terminal_screens.py draws it) and
    the browser table (tests/interfaces/test_browser.py saves it): every picture it names
    is in docs/img."""
    text = (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", text)
    assert any(p.startswith("img/terminal-") for p in pictures) and any(p.startswith("img/table-") for p in pictures)
    for picture in pictures:
        assert (ROOT / "docs" / picture).is_file(), picture
