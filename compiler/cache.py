"""Compiled modules kept on disk between runs (as Lark keeps its tables).

An entry is the Python source the compiler wrote for one ruleset, keyed by
the digest of everything that made it: the ruleset's text and file name,
its variants, the limits, and the source of the engine itself (``dsl``,
``validator``, ``compiler``, ``interpreter``), so any change of either
makes a new entry. The cache holds code that will run, so it is treated as
untrusted:

* an entry carries the digest of its own content in its first line; one
  that does not match (damaged, edited, cut short) is rebuilt, never run;
* the folder is used only when it belongs to the user running Rulebook and
  nobody else may write in it (a folder others can write to could be given
  code to run); otherwise nothing is cached;
* entries are written to a temporary file and renamed, so a reader never
  sees half an entry.

The folder is ``$RULEBOOK_CACHE``, else ``$XDG_CACHE_HOME/rulebook``, else
``~/.cache/rulebook``; ``RULEBOOK_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import stat
import sys
import tempfile
from pathlib import Path

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
    """The cache folder, made if needed, or None when it must not be used."""
    setting = os.environ.get("RULEBOOK_CACHE")
    if setting is not None and setting.strip().lower() in ("off", "0", "no", "false", ""):
        return None
    if setting:
        path = Path(setting).expanduser()
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = Path(base) / "rulebook"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError:
        return None
    return path if safe(info) else None


def safe(info: os.stat_result) -> bool:
    """A folder only its owner (who runs Rulebook) can write to."""
    if not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(entry: str) -> tuple[str, list] | None:
    """The module source and line map of an entry, or None when there is
    none or it does not match its own digest (then it is removed)."""
    where = folder()
    if where is None:
        return None
    path = where / f"{entry}.py"
    try:
        if not path.is_file() or path.is_symlink():
            return None
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, _, body = raw.partition("\n")
    if not head.startswith(HEAD) or head[len(HEAD):] != hashlib.sha256(body.encode("utf-8")).hexdigest():
        _remove(path)
        return None
    source, _, tail = body.rpartition("\n# line map: ")
    try:
        lines = [tuple(x) for x in json.loads(tail)]
    except ValueError:
        _remove(path)
        return None
    return source, lines


def read_code(entry: str, name: str):
    """The module's code object, compiled once and kept beside its source
    (as Python keeps .pyc files), or None. It is checked against the digest
    of its own bytes, like the source."""
    where = folder()
    if where is None:
        return None
    path = where / f"{entry}.code"
    try:
        if not path.is_file() or path.is_symlink():
            return None
        raw = path.read_bytes()
    except OSError:
        return None
    head, _, body = raw.partition(b"\n")
    if head != hashlib.sha256(body).hexdigest().encode():
        _remove(path)
        return None
    try:
        code = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        _remove(path)
        return None
    return code if getattr(code, "co_filename", None) == name else None


def write_code(entry: str, code) -> None:
    where = folder()
    if where is None:
        return
    body = marshal.dumps(code)
    _write(where / f"{entry}.code", hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def _write(path: Path, content: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        os.replace(tmp, path)
    except OSError:
        return  # a cache that cannot be written is only slower


def write(entry: str, source: str, lines: list) -> None:
    where = folder()
    if where is None:
        return
    body = source + "\n# line map: " + json.dumps(lines)
    content = HEAD + hashlib.sha256(body.encode("utf-8")).hexdigest() + "\n" + body
    _write(where / f"{entry}.py", content.encode("utf-8"))


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
