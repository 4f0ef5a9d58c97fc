"""Find a ruleset from what a user typed: a file, a folder or a game id."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEARCH = [ROOT / "rulesets", ROOT / "examples"]


def search_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("RULEBOOK_PATH", "").split(os.pathsep) if p]
    return extra + [Path.cwd() / "rulesets", Path.cwd() / "examples"] + SEARCH


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
    raise FileNotFoundError(
        f"no ruleset '{game}': not a file, and not a ruleset id or folder in "
        f"{', '.join(str(d) for d in search_dirs() if d.is_dir())}"
    )


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
