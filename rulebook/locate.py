"""Find a ruleset from what a user typed: a file, a folder or a game id."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEARCH = [ROOT / "rulesets", ROOT / "examples"]


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
    p = Path(game)
    if p.is_file():
        return p
    if p.is_dir() and (p / "ruleset.yaml").exists():
        return p / "ruleset.yaml"
    for d in search_dirs():
        candidate = d / game / "ruleset.yaml"
        if candidate.exists():
            return candidate
    for candidate in all_rulesets():  # the id written in a ruleset may differ from its folder's name
        if _declared_id(candidate) == game:
            return candidate
    if p.is_dir():
        raise FileNotFoundError(_folder_without_ruleset(p))
    raise FileNotFoundError(
        f"no ruleset '{game}': not a file, and not a ruleset id or folder in "
        f"{', '.join(str(d) for d in search_dirs() if d.is_dir())}"
    )


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
    import re

    head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    m = re.search(r"^id:\s*['\"]?([A-Za-z0-9_-]+)", head, re.M)
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
