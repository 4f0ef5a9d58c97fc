"""Every scenario file of every ruleset and example runs as a test."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.testing.scenarios import run_file

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for base in ("rulesets", "examples") for p in (ROOT / base).glob("*/scenarios/*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path):
    outcome = run_file(path)
    source = path.read_text()
    assert outcome.passed, "\n".join(d.render(source if d.file == str(path) else None) for d in outcome.failures)


def test_there_are_scenarios():
    assert len(FILES) >= 1
