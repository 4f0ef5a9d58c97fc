"""``rulebook new NAME``: a ruleset folder that validates and plays at once."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

TEMPLATES = Path(__file__).with_name("templates")


def scaffold(target: Path) -> list[Path]:
    name = target.name
    game_id = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-") or "new-game"
    title = name.replace("-", " ").replace("_", " ").title()
    if target.exists() and any(target.iterdir()):
        raise FileExistsError(f"{target} exists and is not empty")
    (target / "scenarios").mkdir(parents=True, exist_ok=True)
    from rulebook.files import shapes
    from rulebook.validator.schema_check import SCHEMA_PATH

    values = {
        "id": game_id,
        "title": title,
        "path": shlex.quote(str(target / "ruleset.yaml")),  # as it is typed in a shell
        "folder": shlex.quote(str(target)),
        "schema": SCHEMA_PATH.resolve(),
        "scenario_schema": shapes.schema_path("scenario").resolve(),
    }
    files = {
        target / "ruleset.yaml": (TEMPLATES / "ruleset.yaml.tmpl").read_text().format(**values),
        target / "scenarios" / "stop-keeps-cards.yaml": (TEMPLATES / "scenario.yaml.tmpl").read_text().format(**values),
        target / "README.md": f"# {title}\n\nA Rulebook ruleset.\n\n```sh\nrulebook validate {values['folder']}\n"
        f"rulebook test {values['folder']}\nrulebook check {values['folder']}\n"
        f"rulebook play {values['folder']} --human 1\n```\n",
    }
    for path, text in files.items():
        path.write_text(text)
    return list(files)
