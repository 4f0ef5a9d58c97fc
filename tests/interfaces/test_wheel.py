"""The built wheel is one package, `rulebook`, with its games: installed in a
fresh virtual environment it plays every seed game and example from any
working folder, and imports nothing by the stages' top-level names.

The environment sees the site-packages of the Python running the tests for
Rulebook's dependencies (lark, PyYAML, ...), so that the test needs no
network, whether that Python is the system's (CI) or a virtual
environment's (a new user's); the wheel itself is installed without them
and comes first on the path. Those folders are plain entries of the path
(a ``.pth`` line), not site folders, so an editable install of Rulebook
there is not seen."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.parent.name for p in [*ROOT.glob("rulesets/*/ruleset.yaml"), *ROOT.glob("examples/*/ruleset.yaml")])


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True, text=True, cwd=out)
    (found,) = out.glob("rulebook-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The python of a new environment holding the wheel."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True).stdout.strip()
    outer = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (Path(own) / "outer-dependencies.pth").write_text("".join(f"{p}\n" for p in outer))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                   check=True, capture_output=True, text=True)
    return python


def test_the_wheel_holds_one_top_level_package(wheel):
    with zipfile.ZipFile(wheel) as z:
        tops = {name.split("/")[0] for name in z.namelist()}
        names = set(z.namelist())
    assert {t for t in tops if not t.endswith(".dist-info")} == {"rulebook"}
    assert "rulebook/py.typed" in names
    assert "rulebook/dsl/rules.lark" in names
    assert "rulebook/validator/ruleset.schema.json" in names
    assert "rulebook/web/table.js" in names
    assert "rulebook/cli/templates/ruleset.yaml.tmpl" in names
    for game in ("get-bit", "dead-mans-draw", "nim"):
        assert any(n.endswith(f"/{game}/ruleset.yaml") for n in names), game


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RULEBOOK_PATH")}
    return subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def test_the_installed_package_lists_and_plays_every_game(installed, tmp_path):
    where = _run(installed, "-c", "import rulebook.interpreter, rulebook.dsl; print(rulebook.dsl.__file__)",
                 cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert "site-packages" in where.stdout and str(ROOT) not in where.stdout
    listed = _run(installed, "-m", "rulebook.cli", "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    for game in GAMES:
        assert game in listed.stdout
    script = ("import sys\nfrom rulebook.cli.main import main\n"
              "for game in sys.argv[1:]:\n"
              "    try:\n        main(['play', game, '--seed', '1'])\n"
              "    except SystemExit as end:\n"
              "        if end.code:\n            sys.exit(f'{game}: exit {end.code}')\n")
    played = _run(installed, "-c", script, *GAMES, cwd=tmp_path)
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]


def test_the_installed_code_imports_no_top_level_stage(installed, tmp_path):
    """With the wheel alone on the path, a stray ``import interpreter`` fails."""
    probe = ("import importlib.util, sys\n"
             "import rulebook.cli.main, rulebook.terminal.play, rulebook.web.serve, rulebook.simulate.run\n"
             "bad = [m for m in sys.modules if m.split('.')[0] in "
             "('dsl', 'validator', 'compiler', 'interpreter', 'agents')]\n"
             "print(bad)\nsys.exit(1 if bad else 0)\n")
    done = _run(installed, "-c", probe, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
