"""docs/editor.md shows a real exchange with the language server: the
transcript there is what tools/lsp_transcript.py records from a run now."""

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EDITOR_MD = ROOT / "docs" / "editor.md"


def recorder():
    spec = importlib.util.spec_from_file_location("lsp_transcript", ROOT / "tools" / "lsp_transcript.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_transcript_in_editor_md_is_a_run_of_the_server():
    m = re.search(r"<!-- lsp transcript -->\n```text\n(.*?)```\n", EDITOR_MD.read_text(encoding="utf-8"), re.S)
    assert m, "docs/editor.md has no ```text block after <!-- lsp transcript -->"
    assert m.group(1) == recorder().record(), "run python tools/lsp_transcript.py and paste its output"


def test_the_transcript_shows_the_squiggle_the_fix_the_hover_and_the_jump():
    text = recorder().record()
    assert '"code": "E030"' in text and '"newText": "heap"' in text
    assert "The top (first) component of a zone" in text and '"result": [' in text


def test_the_vscode_extension_starts_rulebook_lsp():
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    client = (ROOT / "editors" / "vscode" / package["main"]).read_text(encoding="utf-8")
    assert "onLanguage:yaml" in package["activationEvents"] and "vscode-languageclient" in package["dependencies"]
    assert '"lsp"]' in client and len(client.splitlines()) <= 25
