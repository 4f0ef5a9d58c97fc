"""Shared fixtures: compiled rulesets are cached per (ruleset, variants)."""
from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# compiled rulesets are cached in a folder of this test run's own, not the user's (subprocesses inherit it)
os.environ["RULEBOOK_CACHE"] = tempfile.mkdtemp(prefix="rulebook-test-cache-")


@cache
def compiled(path: str, variants: tuple = ()):
    from rulebook.compiler.build import compile_path
    result = compile_path(ROOT / path, variants)
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return result.program


def game(path: str, variants: tuple = ()):
    from rulebook.interpreter.game import Game
    return Game(compiled(path, tuple(variants)))


@pytest.fixture
def make_game():
    return game


# the fixture that starts `rulebook serve` for tests/interfaces/test_serve.py and tests/interfaces/test_browser.py
from serving import serve  # noqa: E402,F401
