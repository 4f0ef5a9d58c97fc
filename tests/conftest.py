"""Shared fixtures: compiled rulesets are cached per (ruleset, variants)."""
from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _test_cache() -> str:
    """A cache folder of this test run's own, not the user's (subprocesses
    inherit it). The workers of one ``pytest -n`` run share it, so that a
    ruleset compiled or built as native code by one is found by the other."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    if not run.isalnum():
        return tempfile.mkdtemp(prefix="rulebook-test-cache-")
    folder = Path(tempfile.gettempdir()) / f"rulebook-test-cache-{run}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return str(folder)


os.environ["RULEBOOK_CACHE"] = _test_cache()
# native builds in tests are not optimised by the C compiler: the same games, built
# several times quicker (compiler/native.py, QUICK_C_FLAGS); one test builds as users do
os.environ.setdefault("RULEBOOK_NATIVE_BUILD", "quick")


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
