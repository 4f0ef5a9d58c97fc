"""What each built-in function does, as the reference says it: its
signatures, the first sentence of its section and an example, read from
docs/language.md ("Built-in functions"), so that hover shows the reference
itself rather than a copy that could drift from it."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "language.md"
HEADING = re.compile(r"^### (`[^\n]*)$", re.M)
SIGNATURE = re.compile(r"`([a-z_]+)\(([^`]*)\)`")


@dataclass(frozen=True)
class BuiltinDoc:
    name: str
    signatures: tuple[str, ...]
    summary: str
    example: str | None


@functools.cache
def builtin_docs(reference: Path = REFERENCE) -> dict[str, BuiltinDoc]:
    """name -> BuiltinDoc; empty when the reference is not installed."""
    try:
        text = reference.read_text(encoding="utf-8")
    except OSError:
        return {}
    start = text.find("## Built-in functions")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end > 0 else None] if start >= 0 else ""
    heads = list(HEADING.finditer(section))
    out: dict[str, BuiltinDoc] = {}
    for i, head in enumerate(heads):
        body = section[head.end():heads[i + 1].start() if i + 1 < len(heads) else None]
        sigs = SIGNATURE.findall(head.group(1))
        paragraph = body.strip().split("\n\n")[0].replace("\n", " ")
        summary = re.split(r"(?<=[.])\s", paragraph, maxsplit=1)[0]
        example = re.search(r"^# expect: (.*)$", body, re.M)
        for name, _ in sigs:
            if name not in out:
                out[name] = BuiltinDoc(name, tuple(f"{n}({a})" for n, a in sigs if n == name), summary,
                                       example.group(1) if example else None)
    return out
