"""Compiled modules kept on disk between runs (as Lark keeps its tables).

An entry is the Python source the compiler wrote for one ruleset, keyed by
the digest of everything that made it: the ruleset's text and file name,
its variants, the limits, and the source of the engine itself (``dsl``,
``validator``, ``compiler``, ``interpreter``), so any change of either
makes a new entry. The cache holds code that will run, so it is treated as
untrusted:

* an entry carries the digest of its own content in its first line; one
  that does not match (damaged, edited, cut short) is rebuilt, never run;
* the folder, its checks (only a folder of the user's own that nobody else
  may write to, checked on the open folder, entries opened relative to it
  without following links) and its settings are ``dsl.cache_folder``'s,
  the same as for the parser's tables;
* entries are written to a private temporary file and renamed, so a reader
  never sees half an entry.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import sys
from pathlib import Path

from rulebook.dsl.cache_folder import checked_folder, opened

HEAD = "# rulebook-cache sha256="
_ENGINE: str | None = None


def engine_digest() -> str:
    """The digest of the engine's own source: compiled modules depend on it."""
    global _ENGINE
    if _ENGINE is None:
        root = Path(__file__).resolve().parent.parent
        h = hashlib.sha256()
        for package in ("dsl", "validator", "compiler", "interpreter"):
            for path in sorted((root / package).glob("*")):
                if path.suffix in (".py", ".lark", ".json"):
                    h.update(path.name.encode())
                    h.update(path.read_bytes())
        _ENGINE = h.hexdigest()
    return _ENGINE


def key(text: str, file: str, variants, limits) -> str:
    parts = [engine_digest(), sys.version, file, text, json.dumps(list(variants)),
             json.dumps(limits or {}, sort_keys=True)]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def folder() -> Path | None:
    """The cache folder's path if it may be used now, else None (``dsl.cache_folder``)."""
    return checked_folder()


def read(entry: str) -> tuple[str, list] | None:
    """The module source and line map of an entry, or None when there is
    none or it does not match its own digest (then it is removed)."""
    with opened() as where:
        raw = where.read(f"{entry}.py") if where else None
        if raw is None:
            return None
        head, _, body = raw.decode("utf-8", "replace").partition("\n")
        if not head.startswith(HEAD) or head[len(HEAD):] != hashlib.sha256(body.encode("utf-8")).hexdigest():
            where.remove(f"{entry}.py")
            return None
        source, _, tail = body.rpartition("\n# line map: ")
        try:
            lines = [tuple(x) for x in json.loads(tail)]
        except ValueError:
            where.remove(f"{entry}.py")
            return None
        return source, lines


def read_code(entry: str, name: str):
    """The module's code object, compiled once and kept beside its source
    (as Python keeps .pyc files), or None. It is checked against the digest
    of its own bytes, like the source."""
    with opened() as where:
        raw = where.read(f"{entry}.code") if where else None
        if raw is None:
            return None
        head, _, body = raw.partition(b"\n")
        if head != hashlib.sha256(body).hexdigest().encode():
            where.remove(f"{entry}.code")
            return None
        try:
            code = marshal.loads(body)
        except (ValueError, EOFError, TypeError):
            where.remove(f"{entry}.code")
            return None
        return code if getattr(code, "co_filename", None) == name else None


def write_code(entry: str, code) -> None:
    body = marshal.dumps(code)
    _write(f"{entry}.code", hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def write(entry: str, source: str, lines: list) -> None:
    body = source + "\n# line map: " + json.dumps(lines)
    content = HEAD + hashlib.sha256(body.encode("utf-8")).hexdigest() + "\n" + body
    _write(f"{entry}.py", content.encode("utf-8"))


def _write(name: str, content: bytes) -> None:
    with opened() as where:
        if where:
            where.write(name, content)  # a cache that cannot be written is only slower
