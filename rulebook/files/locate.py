"""Find a ruleset from what a user typed: a file, a folder or a game id."""

from __future__ import annotations

import os
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent


def _games(folder: str) -> Path:
    """The games that come with Rulebook: package data beside its modules
    when installed from a wheel (``rulebook/rulesets``), the repository's own
    top-level folder in a checkout (``rulesets/`` beside ``rulebook/``)."""
    installed = PACKAGE / folder
    return installed if installed.is_dir() else PACKAGE.parent / folder


SEARCH = [_games("rulesets"), _games("examples")]


def search_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("RULEBOOK_PATH", "").split(os.pathsep) if p]
    dirs = extra + [Path.cwd() / "rulesets", Path.cwd() / "examples"] + SEARCH
    seen: set[Path] = set()
    out = []
    for d in dirs:  # each folder once, where it first comes
        if d.resolve() not in seen:
            seen.add(d.resolve())
            out.append(d)
    return out


def locate(game: str) -> Path:
    """What a user typed: a file, a folder holding ``ruleset.yaml``, or a
    ruleset id on the search path."""
    p = Path(game)
    if p.is_file():
        return p
    if p.is_dir() and (p / "ruleset.yaml").exists():
        return p / "ruleset.yaml"
    found = locate_id(game)
    if found is not None:
        return found
    if p.is_dir():
        raise FileNotFoundError(_folder_without_ruleset(p))
    raise FileNotFoundError(
        f"no ruleset '{game}': not a file, and not a ruleset id or folder in "
        f"{', '.join(str(d) for d in search_dirs() if d.is_dir())}"
    )


ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")  # a ruleset id, as the schema allows (and never a path)


def locate_id(game: str) -> Path | None:
    """The ruleset with this id on the search path: a folder of that name
    holding ``ruleset.yaml``, or a ruleset there that declares the id."""
    if not ID.fullmatch(game):
        return None
    for d in search_dirs():
        candidate = d / game / "ruleset.yaml"
        if candidate.is_file():
            return candidate
    for candidate in all_rulesets():  # the id written in a ruleset may differ from its folder's name
        if _declared_id(candidate) == game:
            return candidate
    return None


def named_ruleset(name: str, folder: Path, what: str) -> Path:
    """The ruleset a file names (a log's header, a scenario's ``ruleset:``),
    which is input like the rest of that file: a ruleset id on the search
    path, or the path of a ruleset inside ``folder``, the folder of the file
    that names it. Nothing else is opened (an absolute path or ``..``
    elsewhere, a symbolic link out of the folder), and a file that does not
    start like a ruleset (a ``rulebook:`` line) is not read as one, so that
    none of its lines is ever quoted. Raises FileNotFoundError saying why."""
    found = locate_id(name)
    if found is not None:
        return found
    base = folder.resolve()
    path = (base / name).resolve()
    if not path.is_relative_to(base):
        raise FileNotFoundError(f"{what} '{_shown(name)}' is neither a ruleset id on the search path nor a file "
                                f"inside {folder}")
    if not path.is_file():
        raise FileNotFoundError(f"{what} '{_shown(name)}': no such ruleset (neither a ruleset id on the search "
                                f"path nor a file inside {folder})")
    if path.suffix.lower() not in (".yaml", ".yml") or _declared_version(path) is None:
        raise FileNotFoundError(f"{what} '{_shown(name)}' is not a ruleset (a YAML file with a 'rulebook:' line)")
    return path


def _shown(name: str) -> str:
    from rulebook.validator.files import escape

    return escape(name)[:200]


def _head(path: Path) -> str:
    from rulebook.validator.files import UnsafeFile, read_head

    try:
        return read_head(path, 4000)
    except UnsafeFile:
        return ""


def _declared_version(path: Path) -> str | None:
    m = re.search(r"^rulebook:\s*(\S+)", _head(path), re.M)
    return m.group(1) if m else None


def _folder_without_ruleset(folder: Path) -> str:
    """What is wrong with a folder given as a ruleset: it has no
    ``ruleset.yaml``. A file with a near name (``ruleset.yml``,
    ``Ruleset.yaml``) is almost surely the ruleset, so say to rename it;
    otherwise name the YAML files it holds, which can be given as paths."""
    import difflib

    try:
        files = sorted(f.name for f in folder.iterdir() if f.is_file())
    except OSError as err:
        return f"folder {folder} has no ruleset.yaml (it cannot be read: {err.strerror or err})"
    head = f"folder {folder} has no ruleset.yaml"
    near = [f for f in files if f.lower() in ("ruleset.yaml", "ruleset.yml")]
    near += [f for f in difflib.get_close_matches("ruleset.yaml", files, n=3, cutoff=0.75) if f not in near]
    if near:
        return f"{head} (found {near[0]}: rename it to ruleset.yaml)"
    yamls = [f for f in files if f.lower().endswith((".yaml", ".yml"))]
    if yamls:
        shown = ", ".join(yamls[:5]) + (", ..." if len(yamls) > 5 else "")
        return f"{head} (it holds {shown}: give a file's path, or rename it to ruleset.yaml)"
    return f"{head} ({'it is empty' if not files else 'and no YAML file'})"


def _declared_id(path: Path):
    m = re.search(r"^id:\s*['\"]?([A-Za-z0-9_-]+)", _head(path), re.M)
    return m.group(1) if m else None


def all_rulesets() -> list[Path]:
    seen, out = set(), []
    for d in search_dirs():
        if d.is_dir():
            for f in sorted(d.glob("*/ruleset.yaml")):
                if f.resolve() not in seen:
                    seen.add(f.resolve())
                    out.append(f)
    return out
